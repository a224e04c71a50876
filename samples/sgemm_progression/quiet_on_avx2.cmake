# Kernel 6 on an AVX2 CPU (PoCL told to compile for AVX2, as on the CPUs
# most learners have), compiled afresh: nothing but the sample's own output.
# PoCL's compiler warns of every float16 passed by value on AVX2, and
# printed "2 warnings generated." before the table on a first run; the
# kernels use vectors of the device's width there. PROGRAM is
# sgemm_progression. On a device that is not PoCL the variables change
# nothing, and the run must be as quiet.
# In a build with AddressSanitizer, without its leak check: PoCL leaks some
# of what its compiler allocates for each kernel it compiles (here all of
# them), and this test is about the compiler's output. The sample's other
# tests check the library's leaks, with PoCL's cache. (The variable changes
# nothing for a program built without it.)
set(sanitizer "ASAN_OPTIONS=detect_leaks=0")
if(DEFINED ENV{ASAN_OPTIONS})
  set(sanitizer "ASAN_OPTIONS=$ENV{ASAN_OPTIONS}:detect_leaks=0")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env POCL_KERNELLIB_NAME=avx2 POCL_KERNEL_CACHE=0 AMP_CACHE=0
          ${sanitizer} ${PROGRAM} --only 6 --check 37x53x29 67x19x130
  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sgemm_progression on AVX2: status ${rc}:\n${output}\n${errors}")
endif()
string(TOLOWER "${output}${errors}" all)
string(FIND "${all}" "warning" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "sgemm_progression on AVX2 printed a warning:\n${output}\n${errors}")
endif()
