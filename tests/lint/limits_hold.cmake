# The runtime's fixed tables hold what the tree puts in them
# (runtime/core/limits.h): the kernels' vocabulary is one entry per
# #define of the pieces translate/vocabulary.c reads, and an entry past
# LIMIT_VOCABULARY would be dropped without a word.
#   cmake -DROOT=<project root> -P limits_hold.cmake
file(READ ${ROOT}/runtime/core/limits.h limits)
if(NOT limits MATCHES "#define LIMIT_VOCABULARY ([0-9]+)")
  message(FATAL_ERROR "runtime/core/limits.h has no LIMIT_VOCABULARY")
endif()
set(limit ${CMAKE_MATCH_1})
file(READ ${ROOT}/runtime/translate/vocabulary.c vocabulary)
if(NOT vocabulary MATCHES "pieces\\[GROUPS\\] = {([^}]*)}")
  message(FATAL_ERROR "translate/vocabulary.c: no pieces[GROUPS] = {...} to read")
endif()
string(REGEX MATCHALL "amp__cl_[a-z_0-9]+" pieces "${CMAKE_MATCH_1}")
set(entries 0)
foreach(piece ${pieces})
  string(REPLACE "amp__cl_" "" name ${piece})
  file(READ ${ROOT}/runtime/translate/cl/${name}.cl text)
  string(REGEX MATCHALL "(^|\n)#define " defines "${text}")
  list(LENGTH defines n)
  math(EXPR entries "${entries} + ${n}")
endforeach()
if(entries GREATER limit)
  message(FATAL_ERROR "the vocabulary's pieces (${pieces}) have ${entries} entries, more than"
                      " LIMIT_VOCABULARY (${limit}) in runtime/core/limits.h: raise it")
endif()
message(STATUS "vocabulary: ${entries} entries, at most ${limit}")
