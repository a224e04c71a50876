# Run PROGRAM (with the ;-separated ARGS) and fail unless its standard output equals the file EXPECTED,
# byte for byte. Used by the sample tests.
execute_process(COMMAND ${PROGRAM} ${ARGS}
  OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}:\n${errors}")
endif()
file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "Output differs from ${EXPECTED}.\n--- expected\n${expected}--- actual\n${actual}--- stderr\n${errors}")
endif()
