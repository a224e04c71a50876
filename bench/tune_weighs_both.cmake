# sgemm_tune (PROGRAM) on a small product, storing nothing: the two speeds
# it keeps for the plan's model (sgemm_tuning_pick) come from one
# measurement of both configurations in turn, not from separate passes.
set(ENV{AMP_CACHE_DIR} "${CACHE}")
execute_process(COMMAND ${PROGRAM} --dry-run --repeat 1 --size 256 --small 64 --explore none
  OUTPUT_VARIABLE output ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sgemm_tune failed (${rc}):\n${output}\n${errors}")
endif()
set(number "[0-9]+\\.[0-9]")
if(NOT output MATCHES "\nBest large: ([^\n]*), (${number}) GFLOP/s at 256\nsmall: ([^\n]*), (${number}) GFLOP/s at 256\n")
  message(FATAL_ERROR "sgemm_tune printed no configurations kept:\n${output}")
endif()
set(large "${CMAKE_MATCH_1}")
set(large_speed "${CMAKE_MATCH_2}")
set(small "${CMAKE_MATCH_3}")
set(small_speed "${CMAKE_MATCH_4}")
if(large STREQUAL small)
  # One configuration for both: one speed.
  if(NOT large_speed STREQUAL small_speed)
    message(FATAL_ERROR "one configuration kept with two speeds:\n${output}")
  endif()
  return()
endif()
# As many rounds as a product this short takes (the tuner's runs_for).
set(in_turn "The two for the plan's model, at 256 in turn, [0-9]+ rounds \\(the median of each\\): ")
string(REGEX MATCH "${in_turn}([^\n]*)\n" line "${output}")
if(NOT CMAKE_MATCH_1 STREQUAL "${large} ${large_speed}; ${small} ${small_speed}")
  message(FATAL_ERROR
    "the speeds kept (${large_speed}, ${small_speed}) are not those of one measurement in turn:\n${output}")
endif()
