# Kernel 6 on an AVX2 CPU (PoCL told to compile for AVX2, as on the CPUs
# most learners have), compiled afresh: nothing but the sample's own output.
# PoCL's compiler warns of every float16 passed by value on AVX2, and
# printed "2 warnings generated." before the table on a first run; the
# kernels use vectors of the device's width there. Any line with "warning"
# in it fails the test: the sample never prints the word.
#
# PROGRAM is sgemm_progression, CACHE a folder for its tuning (emptied
# first, so that no tuning file of the user's chooses float16s). Skipped
# (SKIPPED: ...) where the default device is not PoCL's AVX2 device: a CPU
# without AVX2, a PoCL without that kernel library (it then falls back to
# its own device), or another device first.
if(EXISTS /proc/cpuinfo)
  file(STRINGS /proc/cpuinfo flags REGEX "^flags" LIMIT_COUNT 1)
endif()
if(NOT flags MATCHES " avx2( |$)")
  message("SKIPPED: this CPU has no AVX2 (or no /proc/cpuinfo to say)")
  return()
endif()
file(REMOVE_RECURSE "${CACHE}")
file(MAKE_DIRECTORY "${CACHE}")
# In a build with AddressSanitizer, without its leak check: PoCL leaks some
# of what its compiler allocates for each kernel it compiles (here all of
# them), and this test is about the compiler's output. The sample's other
# tests check the library's leaks, with PoCL's cache. (The variable changes
# nothing for a program built without it.)
set(sanitizer "ASAN_OPTIONS=detect_leaks=0")
if(NOT "$ENV{ASAN_OPTIONS}" STREQUAL "")
  set(sanitizer "ASAN_OPTIONS=$ENV{ASAN_OPTIONS}:detect_leaks=0")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env POCL_KERNELLIB_NAME=avx2 POCL_KERNEL_CACHE=0 AMP_CACHE=0
          "AMP_CACHE_DIR=${CACHE}" "${sanitizer}" ${PROGRAM} --only 6 --repeat 1 67x19x130
  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sgemm_progression on AVX2: status ${rc}:\n${output}\n${errors}")
endif()
if(NOT output MATCHES "Device: [a-z]+-haswell")
  message("SKIPPED: the default device is not PoCL's AVX2 device:\n${output}")
  return()
endif()
string(TOLOWER "${output}${errors}" all)
string(FIND "${all}" "warning" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "sgemm_progression on AVX2 printed a warning:\n${output}\n${errors}")
endif()
