# What `cmake --install` puts where (GNUInstallDirs: lib/, or
# lib/<multiarch>/ for the prefix /usr on Debian), in three components that
# are also the three .deb packages (cmake/ampPackage.cmake):
#   runtime      libamp.so.X.Y.Z and its SONAME link, LICENSE   (libamp<SOVERSION>)
#   development  the headers, libamp.a, libamp.so, amp.pc, the CMake package,
#                the README, CHANGELOG and docs/              (libamp-dev)
#   tools        amp-info, amp-draw                            (amp-tools)
# docs/install.md describes the layout and how programs find it.
include(CMakePackageConfigHelpers)
set(AMP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/amp)

# The libraries. libamp.so (the link a program's -lamp finds) belongs to
# the development files; the versioned file and its SONAME link to the
# runtime.
install(TARGETS amp_shared EXPORT ampTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT development)
install(TARGETS amp EXPORT ampTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
install(TARGETS amp-info RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
# amp-draw: a launcher in bin/ that finds its Python modules in
# share/amp/amp-draw by the path from one to the other, so that the prefix
# may move (cmake --install --prefix, DESTDIR, the .deb's /usr).
file(RELATIVE_PATH AMP_DRAW_DIR ${CMAKE_INSTALL_FULL_BINDIR}
  ${CMAKE_INSTALL_FULL_DATADIR}/amp/amp-draw)
configure_file(${PROJECT_SOURCE_DIR}/tools/amp-draw/amp-draw.in
  ${PROJECT_BINARY_DIR}/install/amp-draw @ONLY)
install(PROGRAMS ${PROJECT_BINARY_DIR}/install/amp-draw DESTINATION ${CMAKE_INSTALL_BINDIR}
  COMPONENT tools)
install(FILES ${PROJECT_SOURCE_DIR}/tools/amp-draw/amp_draw.py
  ${PROJECT_SOURCE_DIR}/tools/amp-draw/check_timeline.py
  DESTINATION ${CMAKE_INSTALL_DATADIR}/amp/amp-draw COMPONENT tools)

# The headers, and the generated amp/version.h beside them.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/amp/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/amp
  COMPONENT development FILES_MATCHING PATTERN "*.h")
install(FILES ${AMP_GENERATED_INCLUDE_DIR}/amp/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/amp COMPONENT development)

# The CMake package: find_package(amp CONFIG) through CMAKE_PREFIX_PATH (or
# the default prefixes), giving amp::amp, amp::amp_shared, amp::amp_static.
install(EXPORT ampTargets NAMESPACE amp:: DESTINATION ${AMP_CMAKE_DIR} COMPONENT development)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/ampConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ampConfig.cmake INSTALL_DESTINATION ${AMP_CMAKE_DIR}
  NO_SET_AND_CHECK_MACRO)
# Before 1.0 a minor version may change the API (as it may the ABI: the
# SONAME carries major.minor); from 1.0 on, the same major version is
# compatible.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(amp_compatibility SameMinorVersion)
else()
  set(amp_compatibility SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ampConfigVersion.cmake
  COMPATIBILITY ${amp_compatibility})
install(FILES ${PROJECT_BINARY_DIR}/ampConfig.cmake ${PROJECT_BINARY_DIR}/ampConfigVersion.cmake
  DESTINATION ${AMP_CMAKE_DIR} COMPONENT development)

# amp.pc for pkg-config: everything is filled in when configuring but the
# prefix, which is filled in when installing, so that the file names the
# prefix actually installed to (`cmake --install build --prefix DIR`, or
# /usr in the .deb packages).
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(AMP_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(AMP_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
# What libamp.a needs at link time (pkg-config --static): OpenCL, threads,
# dlopen. OpenCL is named in Libs.private, not Requires.private: the headers
# use no OpenCL type, so a program linked with libamp.so needs no OpenCL
# flags, and `pkg-config amp` then works whether or not the OpenCL loader
# installed an OpenCL.pc.
set(AMP_PC_LIBS_PRIVATE "-lOpenCL -pthread")
foreach(lib ${CMAKE_DL_LIBS})
  string(APPEND AMP_PC_LIBS_PRIVATE " -l${lib}")
endforeach()
set(AMP_PC_PREFIX "@AMP_PC_PREFIX@")
configure_file(${CMAKE_CURRENT_LIST_DIR}/amp.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/amp.pc.in @ONLY)
install(CODE "
  set(AMP_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${PROJECT_BINARY_DIR}/pkgconfig/amp.pc.in\" \"${PROJECT_BINARY_DIR}/pkgconfig/amp.pc\" @ONLY)
" COMPONENT development)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/amp.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)

# The documents and their plots, with the README's links to docs/ kept working.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT development)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
  COMPONENT development FILES_MATCHING PATTERN "*.md" PATTERN "*.svg")
