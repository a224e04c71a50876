# The compiler tells a program that uses a deprecated spelling which one to
# use (AMP__DEPRECATED, amp/status.h), and the spellings to use compile
# without a warning: SOURCE's case for each spelling must fail to compile
# under -Werror=deprecated-declarations with "use NEW" in the message, and
# the source with no case must compile under -Wall -Wextra -Werror. Then
# UPDATE (scripts/update-spellings.sh) rewrites a copy of SOURCE, in which
# every case must compile without a warning.
#   cmake -DCC=<compiler> -DINCLUDES=<dir;dir> -DSOURCE=<file>
#         -DCASES=<CASE=NEW;...> -DUPDATE=<script> -DWORK=<dir>
#         -P deprecation_warnings.cmake
set(flags -std=c11 -fsyntax-only -Wall -Wextra -Werror)
foreach(dir ${INCLUDES})
  list(APPEND flags -I${dir})
endforeach()
execute_process(COMMAND ${CC} ${flags} ${SOURCE}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the spellings to use do not compile without a warning:\n${out}")
endif()
set(failed "")
foreach(case ${CASES})
  string(REPLACE "=" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 use)
  execute_process(COMMAND ${CC} ${flags} -DCASE_${name} ${SOURCE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(FIND "${out}" "use ${use}" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message("case ${name}: no deprecation error that says \"use ${use}\":\n${out}")
    list(APPEND failed ${name})
  else()
    message(STATUS "case ${name}: deprecated, use ${use}")
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "deprecated spellings the compiler does not name: ${failed}")
endif()

file(MAKE_DIRECTORY ${WORK})
get_filename_component(name ${SOURCE} NAME)
set(updated ${WORK}/${name})
configure_file(${SOURCE} ${updated} COPYONLY)
execute_process(COMMAND bash ${UPDATE} ${updated} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${UPDATE} failed")
endif()
foreach(case ${CASES})
  string(REPLACE "=" ";" parts "${case}")
  list(GET parts 0 name)
  execute_process(COMMAND ${CC} ${flags} -DCASE_${name} ${updated}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message("case ${name}, rewritten by ${UPDATE}, does not compile without a warning:\n${out}")
    list(APPEND failed ${name})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "deprecated spellings ${UPDATE} does not rewrite: ${failed}")
endif()
message(STATUS "${UPDATE} rewrites every case to the spelling to use")
