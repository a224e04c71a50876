# Run PROGRAM (the matrix_multiply sample) with AMP_DUMP_KERNELS=DIR and
# check that both of its kernels were written, one statement per line.
file(REMOVE_RECURSE ${DIR})
set(ENV{AMP_DUMP_KERNELS} ${DIR})
execute_process(COMMAND ${PROGRAM} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed: ${rc}")
endif()
file(GLOB kernels ${DIR}/*.cl)
list(LENGTH kernels n)
if(NOT n EQUAL 2)
  message(FATAL_ERROR "expected 2 kernels in ${DIR}, found ${n}: ${kernels}")
endif()
# The tiled one (its name holds the line of its call, which gcc and clang
# count differently: the first line of the call or its last).
set(tiled "")
foreach(kernel ${kernels})
  file(READ ${kernel} text)
  if(text MATCHES "Domain: [^\n]*tiles of")
    set(tiled ${kernel})
    break()
  endif()
endforeach()
if(NOT tiled)
  message(FATAL_ERROR "no kernel in ${DIR} is tiled: ${kernels}")
endif()
foreach(line
    "tile_static int locA\\[TS\\]\\[TS\\];\n"
    "\n            t_idx.barrier.wait\\(\\);\n"
    "\n        product\\(t_idx.global\\) = sum;\n"
    "#define TS 2\n")
  if(NOT text MATCHES "${line}")
    message(FATAL_ERROR "${tiled} lacks the line ${line}:\n${text}")
  endif()
endforeach()
