# Find cmocka, the unit-test library (Debian: libcmocka-dev).
# Defines cmocka_FOUND and the target cmocka::cmocka.
find_path(cmocka_INCLUDE_DIR NAMES cmocka.h)
find_library(cmocka_LIBRARY NAMES cmocka)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(cmocka
  REQUIRED_VARS cmocka_LIBRARY cmocka_INCLUDE_DIR
  REASON_FAILURE_MESSAGE "install it with: apt-get install libcmocka-dev")
if(cmocka_FOUND AND NOT TARGET cmocka::cmocka)
  add_library(cmocka::cmocka UNKNOWN IMPORTED)
  set_target_properties(cmocka::cmocka PROPERTIES
    IMPORTED_LOCATION "${cmocka_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${cmocka_INCLUDE_DIR}")
endif()
