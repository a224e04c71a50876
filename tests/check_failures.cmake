# Run COMMAND (a ;-separated list), which must fail, and check that its
# output holds every line of the file EXPECTED, in that order. Used to show
# that the checks of the documentation (scripts/docs/doc-blocks.sh,
# scripts/check/api-index.sh) report each kind of problem they exist for.
execute_process(COMMAND ${COMMAND}
  OUTPUT_VARIABLE output ERROR_VARIABLE output RESULT_VARIABLE rc)
if(rc EQUAL 0)
  message(FATAL_ERROR "the command passed, but it should have found problems:\n${output}")
endif()
file(STRINGS ${EXPECTED} lines)
set(rest "${output}")
foreach(line IN LISTS lines)
  string(FIND "${rest}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "missing from the output, or out of order: ${line}\n--- output\n${output}")
  endif()
  string(SUBSTRING "${rest}" ${at} -1 rest)
endforeach()
