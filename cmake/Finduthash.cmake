# Find uthash, the header-only hash table (Debian: uthash-dev).
# Defines uthash_FOUND, uthash_INCLUDE_DIR and the target uthash::uthash.
find_path(uthash_INCLUDE_DIR NAMES uthash.h)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(uthash
  REQUIRED_VARS uthash_INCLUDE_DIR
  REASON_FAILURE_MESSAGE "install it with: apt-get install uthash-dev")
if(uthash_FOUND AND NOT TARGET uthash::uthash)
  add_library(uthash::uthash INTERFACE IMPORTED)
  set_target_properties(uthash::uthash PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${uthash_INCLUDE_DIR}")
endif()
