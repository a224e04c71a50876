# Run the MPI sample PROGRAM on 2 ranks of this machine with MPIEXEC (Open
# MPI's mpirun; CI runs as root, and a machine may have fewer cores than
# ranks), with ARGS, and fail unless rank 0's output equals the file
# EXPECTED. Where mpirun or the sample is not there, say so and stop: the
# test (sample_mpi_stencil) counts that as skipped.
if(NOT MPIEXEC OR NOT EXISTS "${MPIEXEC}")
  find_program(MPIEXEC NAMES mpirun mpiexec)
endif()
if(NOT MPIEXEC)
  message("SKIPPED: mpirun was not found. Install Open MPI (apt-get install openmpi-bin"
          " libopenmpi-dev; scripts/setup.sh --deps does) and build again.")
  return()
endif()
if(NOT PROGRAM OR NOT EXISTS "${PROGRAM}")
  message("SKIPPED: the MPI sample was not built: cmake found no MPI for C (libopenmpi-dev)."
          " Install it and configure the build again.")
  return()
endif()
# In the sanitizer build (scripts/memory/sanitize.sh): Open MPI unloads its
# components at exit, and LeakSanitizer cannot name the frames of what they
# allocated, so no suppression can take them; the ranks run without its
# leak check (AddressSanitizer's other checks stay on), and the library's
# own leaks are every other test's to find.
if(DEFINED ENV{ASAN_OPTIONS})
  set(ENV{ASAN_OPTIONS} "$ENV{ASAN_OPTIONS}:detect_leaks=0")
endif()
execute_process(COMMAND ${MPIEXEC} -np 2 --oversubscribe --allow-run-as-root ${PROGRAM} ${ARGS}
  OUTPUT_VARIABLE actual ERROR_VARIABLE errors RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${MPIEXEC} -np 2 ${PROGRAM} exited with ${rc}:\n${actual}\n${errors}")
endif()
file(READ ${EXPECTED} expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "Output differs from ${EXPECTED}.\n--- expected\n${expected}--- actual\n${actual}--- stderr\n${errors}")
endif()
