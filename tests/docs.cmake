# The documentation is tested like the code (label "docs"):
# - doc_blocks:<file>: every ```c block of README.md and docs/*.md is compiled
#   against the library and run (scripts/docs/doc-blocks.sh, which describes the
#   convention for fragments). One test per file; it lists every failing
#   block by its file and line.
# - doc_blocks_catch_failures: the same script on tests/docs/failing.md,
#   whose blocks each fail in their own way, and bad_comments.md, whose
#   doc-test comments are malformed, must report every one at its line.
# - api_index: every function of amp/*.h has a comment above its declaration
#   and a line in docs/api.md (scripts/check/api-index.sh); api_index_catches_gaps:
#   the same script finds each gap of tests/docs/api_gaps.h and its index.
# - readme_build: the README's build commands (below).
# valgrind (scripts/memory/valgrind.sh) runs only the programs of tests; these run
# the compiler, and are left out there by construction.

set(amp_doc_libs "${OpenCL_LIBRARY} -pthread -lm")
if(CMAKE_DL_LIBS)
  string(APPEND amp_doc_libs " -l${CMAKE_DL_LIBS}")
endif()
# The blocks are compiled with the flags of this build (the sanitizer flags
# in build-asan), so that they link with this build's library.
set(AMP_DOC_BLOCKS_ARGS
  "--cc=${CMAKE_C_COMPILER}"
  "--cflags=${CMAKE_C_FLAGS}"
  "--lib=$<TARGET_FILE:amp>"
  "--include=${AMP_GENERATED_INCLUDE_DIR}"
  "--libs=${amp_doc_libs}"
  "--work=${CMAKE_CURRENT_BINARY_DIR}/doc-blocks")

# CONFIGURE_DEPENDS: a new page gets its test at the next build.
file(GLOB amp_doc_pages RELATIVE ${PROJECT_SOURCE_DIR} CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/docs/*.md)
foreach(page README.md ${amp_doc_pages})
  add_test(NAME doc_blocks:${page}
    COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/docs/doc-blocks.sh ${AMP_DOC_BLOCKS_ARGS} ${page}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # Kernels are kept in the build tree's own program cache, as the
  # samples' are: a second run compiles none.
  set_tests_properties(doc_blocks:${page} PROPERTIES LABELS "docs" TIMEOUT 600
    ENVIRONMENT "AMP_CACHE_DIR=${PROJECT_BINARY_DIR}/amp-cache")
endforeach()

add_test(NAME doc_blocks_catch_failures
  COMMAND ${CMAKE_COMMAND}
          "-DCOMMAND=bash;${PROJECT_SOURCE_DIR}/scripts/docs/doc-blocks.sh;${AMP_DOC_BLOCKS_ARGS};tests/docs/failing.md;tests/docs/bad_comments.md"
          -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/docs/failing.expected
          -P ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_failures.cmake
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(doc_blocks_catch_failures PROPERTIES LABELS "docs"
  ENVIRONMENT "AMP_CACHE_DIR=${PROJECT_BINARY_DIR}/amp-cache")

add_test(NAME api_index
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check/api-index.sh
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(api_index PROPERTIES LABELS "docs")
add_test(NAME api_index_catches_gaps
  COMMAND ${CMAKE_COMMAND}
          "-DCOMMAND=bash;${PROJECT_SOURCE_DIR}/scripts/check/api-index.sh;tests/docs/api_gaps.md;tests/docs/api_gaps.h"
          -DEXPECTED=${CMAKE_CURRENT_SOURCE_DIR}/docs/api_gaps.expected
          -P ${CMAKE_CURRENT_SOURCE_DIR}/docs/check_failures.cmake
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(api_index_catches_gaps PROPERTIES LABELS "docs")

# readme_build: the README's "Your own program" commands, run as written
# (the installed ways against this build installed into a temporary
# prefix: pkg-config, find_package, the plain cc line; and in the tree: the
# cc line, and the CMake snippet with add_subdirectory), build and run
# tests/docs/my_program.c (scripts/docs/readme-build.sh).
add_test(NAME readme_build
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/docs/readme-build.sh
          "--cc=${CMAKE_C_COMPILER}" "--cflags=${CMAKE_C_FLAGS}" "--build=${PROJECT_BINARY_DIR}"
          "--work=${CMAKE_CURRENT_BINARY_DIR}/readme-build" "--generator=${CMAKE_GENERATOR}"
          "-DCMAKE_PREFIX_PATH=${CMAKE_PREFIX_PATH}" "-DCMAKE_INCLUDE_PATH=${CMAKE_INCLUDE_PATH}"
          "-DCMAKE_LIBRARY_PATH=${CMAKE_LIBRARY_PATH}")
set_tests_properties(readme_build PROPERTIES LABELS "docs" TIMEOUT 600
  ENVIRONMENT "AMP_CACHE_DIR=${PROJECT_BINARY_DIR}/amp-cache")
