# under_lsan.c built as a user builds a program under AddressSanitizer,
# against this build's shared library (built without it), then run: it
# must print the right result and LeakSanitizer must report no block that
# the library or the program allocated. Blocks that an OpenCL driver
# allocated for itself (their allocator's first caller inside the ICD
# loader, a driver, or a module LeakSanitizer cannot name: PoCL 5.0 loses
# some 8 KB as the loader starts its platform) are not this library's, and
# are only listed.
# Variables: CC, CFLAGS (this build's), SOURCE, HEADERS and GENERATED (the
# headers' directories), LIBRARY (the shared library), WORK (a directory for
# the program).
file(MAKE_DIRECTORY "${WORK}")
get_filename_component(libdir "${LIBRARY}" DIRECTORY)
separate_arguments(cflags UNIX_COMMAND "${CFLAGS}")
execute_process(
  COMMAND ${CC} ${cflags} -std=c11 -g -fsanitize=address "-I${HEADERS}" "-I${GENERATED}" "${SOURCE}" "${LIBRARY}"
          "-Wl,-rpath,${libdir}" -o "${WORK}/under_lsan"
  OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building under_lsan.c with -fsanitize=address failed:\n${out}")
endif()
# intercept_tls_get_addr=0: GCC 12's LeakSanitizer crashes at exit on the
# TLS of the libraries PoCL loads with dlopen (scripts/memory/sanitize.sh).
# protect_shadow_gap=0: NVIDIA's driver maps memory where AddressSanitizer
# protects its shadow's gap, and without it offers no device
# (docs/reliability.md).
set(ENV{ASAN_OPTIONS} "detect_leaks=1:intercept_tls_get_addr=0:protect_shadow_gap=0")
execute_process(COMMAND "${WORK}/under_lsan" OUTPUT_VARIABLE out ERROR_VARIABLE err
  RESULT_VARIABLE rc)
# Each leak's first frame past the allocator and the C library says whose
# block it is.
string(REPLACE "\n" ";" lines "${err}")
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" root "${HEADERS}")
set(in_leak 0)
set(ours "")
set(theirs 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^(Direct|Indirect) leak of")
    set(in_leak 1)
    set(leak "${line}")
  elseif(in_leak AND line MATCHES "^ +#[0-9]+ ")
    if(line MATCHES "libsanitizer|libasan|/libc\\.so|^ +#0 ")
      continue()
    endif()
    if(line MATCHES "libamp\\.so| in amp_|${root}/runtime/|under_lsan")
      string(APPEND ours "${leak}\n${line}\n")
    else()
      math(EXPR theirs "${theirs} + 1")
    endif()
    set(in_leak 0)
  endif()
endforeach()
if(NOT rc EQUAL 0 AND theirs GREATER 0 AND ours STREQUAL "" AND out STREQUAL "47 71 99\n")
  message(STATUS "under_lsan: LeakSanitizer reported ${theirs} blocks of the OpenCL drivers' own,"
    " none of the library's")
elseif(NOT rc EQUAL 0 OR NOT out STREQUAL "47 71 99\n" OR NOT ours STREQUAL "")
  message(FATAL_ERROR "under_lsan: status ${rc}\n${out}\n${ours}\n${err}")
endif()
