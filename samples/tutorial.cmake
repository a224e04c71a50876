# Samples of the tiling tutorial (docs/tutorial.md) that are not ports of a
# C++ AMP document, each a test of its exact output (amp_sample).

# Steps 3 and 4: seed 002's shared tile_static total, and a barrier with
# the wrong fence. sample_tile_race runs the fix; under AMP_CHECK
# (Oclgrind), checked_tile_race shows that the fix is silent, and
# checked_tile_race_report and checked_tile_race_fence that each race is
# reported at its line (both skipped when Oclgrind is not installed).
amp_sample(tile_race)
if(AMP_BUILD_TESTS)
  add_test(NAME checked_tile_race
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:tile_race>
            -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/tile_race/expected_output.txt
            -P ${PROJECT_SOURCE_DIR}/cmake/CompareOutput.cmake)
  set_tests_properties(checked_tile_race PROPERTIES LABELS "sample" ENVIRONMENT "AMP_CHECK=1"
    SKIP_REGULAR_EXPRESSION "apt-get install oclgrind")
  add_test(NAME checked_tile_race_report COMMAND tile_race --race)
  set_tests_properties(checked_tile_race_report PROPERTIES LABELS "sample"
    ENVIRONMENT "AMP_CHECK=1"
    PASS_REGULAR_EXPRESSION "tile_race\\.c:[0-9]+:[0-9]+: error: data race[^\n]*\n[^\n]*total \\+= matrix\\[t_idx\\];"
    SKIP_REGULAR_EXPRESSION "apt-get install oclgrind")
  add_test(NAME checked_tile_race_fence COMMAND tile_race --wrong-fence)
  set_tests_properties(checked_tile_race_fence PROPERTIES LABELS "sample"
    ENVIRONMENT "AMP_CHECK=1"
    PASS_REGULAR_EXPRESSION "tile_race\\.c:[0-9]+:[0-9]+: error: data race[^\n]*\n[^\n]*tileValues\\[t_idx\\.local\\[0\\]\\]\\[t_idx\\.local\\[1\\]\\] = matrix[^\n]*\n[^\n]*\n[^\n]*note: the other access of the race\n[^\n]*total \\+= tileValues\\[trow\\]\\[tcol\\];"
    SKIP_REGULAR_EXPRESSION "apt-get install oclgrind")
endif()

# Conway's Game of Life with tile_static halos: a tiled program ported with
# nothing but README.md and docs/ (docs/tutorial.md, "Porting your own").
amp_sample(life)
