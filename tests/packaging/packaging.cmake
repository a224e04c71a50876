# The installed library as its users meet it (label "packaging"; docs/install.md):
# - install_prefix: this build installed into a temporary prefix
#   (scripts/package/test-install.sh), then checked there by scripts/package/check-install.sh:
#   the layout, libamp.so's SONAME, the version in version.h, amp.pc,
#   amp-info and the CMake package, and programs built with pkg-config and
#   with find_package (shared, and static with AMP_USE_STATIC_LIBS) that
#   must run and load this prefix's libamp.so.
# - deb_package: the .deb packages built from this tree in a build of their
#   own (scripts/package/build-deb.sh), their declared dependencies, an apt-get
#   simulation, then unpacked into a scratch root and checked there the
#   same way (scripts/package/test-deb.sh). The machine is left unchanged.
# The README's own snippets are run by readme_build (tests/docs.cmake).
# The programs are built with this build's compiler and flags (the
# sanitizer flags in build-asan, which its library needs); the packages'
# library is built without them, and so are the programs built against it.
# Only where this build has install rules (AMP_INSTALL, on when amp is the
# top-level project).
if(NOT AMP_INSTALL)
  return()
endif()
set(amp_packaging_args
  "--version=${PROJECT_VERSION}" "--soversion=${AMP_SOVERSION}"
  "-DCMAKE_PREFIX_PATH=${CMAKE_PREFIX_PATH}" "-DCMAKE_INCLUDE_PATH=${CMAKE_INCLUDE_PATH}"
  "-DCMAKE_LIBRARY_PATH=${CMAKE_LIBRARY_PATH}")

add_test(NAME install_prefix
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/package/test-install.sh
          "--build=${PROJECT_BINARY_DIR}" "--work=${CMAKE_CURRENT_BINARY_DIR}/install-prefix"
          "--cc=${CMAKE_C_COMPILER}" "--cflags=${CMAKE_C_FLAGS}" "--generator=${CMAKE_GENERATOR}"
          ${amp_packaging_args})
set_tests_properties(install_prefix PROPERTIES LABELS "packaging" TIMEOUT 300
  ENVIRONMENT "AMP_CACHE_DIR=${PROJECT_BINARY_DIR}/amp-cache")

add_test(NAME deb_package
  COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/package/test-deb.sh
          "--work=${CMAKE_CURRENT_BINARY_DIR}/deb-package" "--cc=${CMAKE_C_COMPILER}"
          "--generator=${CMAKE_GENERATOR}"
          ${amp_packaging_args})
set_tests_properties(deb_package PROPERTIES LABELS "packaging" TIMEOUT 600 SKIP_RETURN_CODE 77
  ENVIRONMENT "AMP_CACHE_DIR=${PROJECT_BINARY_DIR}/amp-cache")
