# amp-draw and the timeline's checker (label "draw"; docs/timeline.md), in
# Python 3 with its standard library:
# - draw_check_timeline: check_timeline.py passes the good fixtures and
#   refuses each bad one by the rule it breaks; draw_doc_example: the example
#   file of docs/timeline.md keeps every rule.
# - draw_tiles: amp-draw --tiles (tiles, padding, truncation, ranks 1 to 3,
#   large extents) and its refusals of bad command lines.
# - draw_page: the page of tests/draw/fixtures/run_race.json (a padded
#   launch, transfers, a race) read back by its elements' attributes, the
#   bounded page of a long run, and the refusals of files that are not
#   timelines.
# - draw_chromium: the same page opened in headless Chromium, a screenshot
#   saved (build/tests/draw/draw_chromium/run_race.png), and the elements as
#   laid out checked; skipped where chromium is not installed.
# amp-draw runs through the build tree's launcher, build/tools/amp-draw.
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "No Python 3: the draw tests are left out")
  return()
endif()
function(amp_draw_test name script)
  add_test(NAME ${name} COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/tests/draw/${script}
                                ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS "draw" TIMEOUT 300 ENVIRONMENT
    "AMP_DRAW=${PROJECT_BINARY_DIR}/tools/amp-draw;DRAW_WORK=${CMAKE_CURRENT_BINARY_DIR}/draw/${name};PYTHONDONTWRITEBYTECODE=1")
endfunction()
amp_draw_test(draw_check_timeline test_check_timeline.py Good BadInput Broken)
amp_draw_test(draw_doc_example test_check_timeline.py DocExample)
amp_draw_test(draw_tiles test_amp_draw.py Tiles Refusals)
amp_draw_test(draw_page test_amp_draw.py Page OtherRuns LongRun BadInput)
amp_draw_test(draw_chromium test_chromium.py)
set_tests_properties(draw_chromium PROPERTIES SKIP_RETURN_CODE 77)
