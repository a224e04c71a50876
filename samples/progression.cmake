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
  ARGS --check 1x1x1 37x53x29 67x19x130 130x201x77)
target_link_libraries(sgemm_progression PRIVATE m)
# Tuning files measured on known devices, read where the cache has none.
target_compile_definitions(sgemm_progression PRIVATE
  SGEMM_MEASURED_DIR="${CMAKE_CURRENT_SOURCE_DIR}/sgemm_progression/measured")
