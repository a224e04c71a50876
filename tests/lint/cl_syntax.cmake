# Compile each piece of the kernels' static OpenCL C (runtime/translate/cl/)
# with clang, as OpenCL C 1.2, syntax only and warnings as errors: each
# after what a kernel has before it (the type of view offsets and, but for
# the prelude itself, the prelude). The names by which the AMP_CHECK piece
# writes the record's layout are given the values accessors.c gives them.
#   cmake -DCLANG=<clang> -DDIR=<runtime/translate/cl> -DWORK=<dir> -P cl_syntax.cmake
file(GLOB pieces ${DIR}/*.cl)
if(NOT pieces)
  message(FATAL_ERROR "no .cl files in ${DIR}")
endif()
file(READ ${DIR}/prelude.cl prelude_text)
file(MAKE_DIRECTORY ${WORK})
set(failed "")
foreach(piece ${pieces})
  get_filename_component(name ${piece} NAME_WE)
  file(READ ${piece} text)
  set(source "typedef int amp_off_t;\n")
  if(NOT piece MATCHES "/prelude\\.cl$")
    string(APPEND source "${prelude_text}")
  endif()
  string(APPEND source "${text}")
  file(WRITE ${WORK}/${name}.cl "${source}")
  execute_process(
    COMMAND ${CLANG} -x cl -cl-std=CL1.2 -Xclang -finclude-default-header -fsyntax-only
            -Wall -Wextra -Werror
            -DCG_CHECK_SLOTS=32 -DCG_CHECK_WORDS=36 -DCG_REC_SITE=0 -DCG_REC_RANK=1
            -DCG_REC_INDEX=2 -DCG_REC_INDEX_HIGH=3 -DCG_REC_EXTENT=18 -DCG_REC_THREAD=26
            -DCG_SPARE_BYTES=64 -DAMP_MAX_RANK=8 -DAMP_MAX_CAPTURES=32
            ${WORK}/${name}.cl
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    message(STATUS "${name}.cl: compiles")
  else()
    message("${name}.cl does not compile:\n${out}")
    list(APPEND failed ${name})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "pieces that do not compile: ${failed}")
endif()
