# under_lsan.c built as a user builds a program under AddressSanitizer,
# against this build's shared library (built without it), then run: it
# must print the right result and LeakSanitizer must report nothing.
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
set(ENV{ASAN_OPTIONS} "detect_leaks=1:intercept_tls_get_addr=0")
execute_process(COMMAND "${WORK}/under_lsan" OUTPUT_VARIABLE out ERROR_VARIABLE err
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out STREQUAL "47 71 99\n" OR err MATCHES "LeakSanitizer")
  message(FATAL_ERROR "under_lsan: status ${rc}\n${out}\n${err}")
endif()
