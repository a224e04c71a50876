# Bad command lines of sgemm_progression (PROGRAM): each must exit with a
# failure and say what was wrong, before any work on a device.
set(cases
  "3x|a size is n or MxNxK, each a whole number from 1: '3x'"
  "99999999999|a size is n or MxNxK, each a whole number from 1: '99999999999'"
  "0x5x5|a size is n or MxNxK"
  "2x3x4x5|a size is n or MxNxK"
  "--only 7 64|--only takes kernel numbers from 1 to 6, as 1,5,6: '7'"
  "--only , 64|--only names no kernel: ','"
  "--repeat 1000 64|--repeat takes a number of runs from 1 to 64: '1000'"
  "--repeat 3x 64|--repeat takes a number of runs from 1 to 64: '3x'"
  "-5|no such option, or it lacks its value: '-5'"
  "--only|no such option, or it lacks its value: '--only'")
foreach(case IN LISTS cases)
  string(FIND "${case}" "|" bar)
  string(SUBSTRING "${case}" 0 ${bar} args)
  math(EXPR from "${bar} + 1")
  string(SUBSTRING "${case}" ${from} -1 expected)
  separate_arguments(args UNIX_COMMAND "${args}")
  execute_process(COMMAND ${PROGRAM} ${args}
    OUTPUT_VARIABLE output ERROR_VARIABLE output RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    message(FATAL_ERROR "sgemm_progression ${args} succeeded; it should be refused:\n${output}")
  endif()
  string(FIND "${output}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "sgemm_progression ${args}: expected \"${expected}\" in:\n${output}")
  endif()
endforeach()
execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE output RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT output MATCHES "usage: ")
  message(FATAL_ERROR "sgemm_progression --help: status ${rc}:\n${output}")
endif()
