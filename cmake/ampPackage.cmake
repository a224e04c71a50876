# The .deb packages, made by CPack's DEB generator from the install
# components of cmake/ampInstall.cmake, as Debian splits a library:
#   libamp<SOVERSION>  the shared library (what a program linked with -lamp
#                      needs to run); Depends: the OpenCL ICD loader (from
#                      dpkg-shlibdeps), Recommends: PoCL or another OpenCL
#                      driver
#   libamp-dev         headers, libamp.a, the libamp.so link, amp.pc, the
#                      CMake package, the docs; Depends: the same libamp
#                      version and the OpenCL development files
#   amp-tools          amp-info, and amp-draw (Python 3); Depends: python3
# scripts/package/build-deb.sh configures a build for them (prefix /usr, so that
# the libraries go to Debian's multiarch lib/<triplet>/) and runs CPack;
# docs/install.md says how to install them.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME amp)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Each package's description is its component's: the first line is the
# synopsis (CPack adds no summary of its own while
# CPACK_PACKAGE_DESCRIPTION_SUMMARY keeps its default).
set(AMP_PACKAGE_CONTACT "amp maintainers <maintainers@users.noreply.a-seed-25a0f921.example>"
  CACHE STRING "The Maintainer field of the .deb packages")
set(CPACK_PACKAGE_CONTACT "${AMP_PACKAGE_CONTACT}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
# Packages install under /usr whatever this build's own prefix; with
# DESTDIR, so that the install-time amp.pc names /usr, not CPack's
# staging folder.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development tools)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(amp_recommends "pocl-opencl-icd | opencl-icd")
set(amp_about "amp brings C++ AMP's programming model to C11: parallel_for_each over an
extent, array_views that move data to the device and back lazily, and
tiles with tile_static memory and barriers, on any OpenCL device.
")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME libamp${AMP_SOVERSION})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_RECOMMENDS "${amp_recommends}")
# A shlibs file, so that packages built against libamp depend on it:
# within one SONAME a later version serves programs built with an earlier.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "C++ AMP's tile-parallel model in C for OpenCL - shared library
${amp_about}
This package holds the shared library. Kernels run on an OpenCL driver:
PoCL runs them on the CPU.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libamp-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
  "libamp${AMP_SOVERSION} (= ${PROJECT_VERSION}), ocl-icd-opencl-dev | opencl-dev")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION "C++ AMP's tile-parallel model in C for OpenCL - development files
${amp_about}
This package holds the headers, the static library, the pkg-config file
(amp.pc), the CMake package (find_package(amp)) and the documentation.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME amp-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SHLIBDEPS ON)
# amp-draw runs on Python 3 and its standard library alone.
set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "python3")
set(CPACK_DEBIAN_TOOLS_PACKAGE_RECOMMENDS "${amp_recommends}")
set(CPACK_COMPONENT_TOOLS_DESCRIPTION "C++ AMP's tile-parallel model in C for OpenCL - tools
${amp_about}
This package holds amp-info, which lists every OpenCL device the library
can use, with what a kernel author needs to know of it, and which one is
the default and why; and amp-draw, which draws a run's timeline
(AMP_TIMELINE) as one page: the tiles of each launch, where each view's
data is after each step, and each race AMP_CHECK found.")

include(CPack)
