# The SGEMM teaching progression: one kernel per step, each a small file.
# The test runs every kernel on small sizes that are not multiples of any
# tile and checks each result against the CPU; run it by hand with larger
# sizes for the table of GFLOP/s (samples/sgemm_progression/README.md).
amp_sample(sgemm_progression
  SOURCES
    sgemm_progression/sgemm_1_naive.c
    sgemm_progression/sgemm_2_tiles.c
    sgemm_progression/sgemm_3_work_per_thread.c
    sgemm_progression/sgemm_4_vector_loads.c
    sgemm_progression/sgemm_5_register_blocking.c
    sgemm_progression/sgemm_6_tuned.c
    sgemm_progression/sgemm_tune.c
    sgemm_progression/sgemm_set.c
    sgemm_progression/sgemm_blas.c
  ARGS --check 1x1x1 37x53x29 67x19x130 130x201x77)
target_link_libraries(sgemm_progression PRIVATE m)
# Every kernel across two accelerators made of one CPU, by blocks of rows
# of C: the same results.
amp_sample_test(sample_sgemm_progression_set sgemm_progression expected_output.txt
                --set --check 1x1x1 37x53x29 67x19x130 130x201x77)
if(AMP_BUILD_TESTS)
  set_tests_properties(sample_sgemm_progression_set PROPERTIES
    ENVIRONMENT "AMP_CACHE_DIR=${PROJECT_BINARY_DIR}/amp-cache;AMP_SPLIT_CPU=2")
endif()
# Bad command lines: refused with what was wrong (refusals.cmake).
if(AMP_BUILD_TESTS)
  add_test(NAME sample_sgemm_progression_refusals
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:sgemm_progression>
            -P ${CMAKE_CURRENT_SOURCE_DIR}/sgemm_progression/refusals.cmake)
  set_tests_properties(sample_sgemm_progression_refusals PROPERTIES LABELS "sample")
  # Compiled afresh for AVX2: no compiler warnings (quiet_on_avx2.cmake).
  add_test(NAME sample_sgemm_progression_quiet_on_avx2
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:sgemm_progression>
            -DCACHE=${PROJECT_BINARY_DIR}/amp-cache-avx2
            -P ${CMAKE_CURRENT_SOURCE_DIR}/sgemm_progression/quiet_on_avx2.cmake)
  set_tests_properties(sample_sgemm_progression_quiet_on_avx2 PROPERTIES LABELS "sample"
    SKIP_REGULAR_EXPRESSION "SKIPPED:" TIMEOUT 300)
endif()
# The device's BLAS beside the kernels in the table, each where it is found
# (as for bench/): OpenBLAS on a CPU device, cuBLAS on an NVIDIA GPU,
# CLBlast on another GPU. Without them the table says "n/a".
find_path(OPENBLAS_INCLUDE_DIR cblas.h
          PATH_SUFFIXES openblas-pthread openblas x86_64-linux-gnu/openblas-pthread)
find_library(OPENBLAS_LIBRARY openblas PATH_SUFFIXES openblas-pthread)
if(OPENBLAS_INCLUDE_DIR AND OPENBLAS_LIBRARY)
  target_include_directories(sgemm_progression PRIVATE ${OPENBLAS_INCLUDE_DIR})
  target_link_libraries(sgemm_progression PRIVATE ${OPENBLAS_LIBRARY})
  target_compile_definitions(sgemm_progression PRIVATE SGEMM_HAVE_OPENBLAS)
endif()
find_path(CLBLAST_INCLUDE_DIR clblast_c.h)
find_library(CLBLAST_LIBRARY clblast)
if(CLBLAST_INCLUDE_DIR AND CLBLAST_LIBRARY)
  target_include_directories(sgemm_progression PRIVATE ${CLBLAST_INCLUDE_DIR})
  target_link_libraries(sgemm_progression PRIVATE ${CLBLAST_LIBRARY})
  target_compile_definitions(sgemm_progression PRIVATE SGEMM_HAVE_CLBLAST)
endif()
find_package(CUDAToolkit QUIET)
if(CUDAToolkit_FOUND AND TARGET CUDA::cublas AND TARGET CUDA::cudart)
  target_link_libraries(sgemm_progression PRIVATE CUDA::cublas CUDA::cudart)
  target_compile_definitions(sgemm_progression PRIVATE SGEMM_HAVE_CUBLAS)
endif()
# Tuning files measured on known devices, read where the cache has none.
target_compile_definitions(sgemm_progression PRIVATE
  SGEMM_MEASURED_DIR="${CMAKE_CURRENT_SOURCE_DIR}/sgemm_progression/measured")
