# Reliability tests (bad input, faults, threads, soak): listed here so
# that they can grow without touching the unit-test list.

# Every kind of bad input to the public API, one table row each
# (docs/reliability.md).
amp_unit_test(test_bad_input)
set_tests_properties(test_bad_input PROPERTIES LABELS "unit;reliability")

# Every OpenCL call of a program's work made to fail in turn: a status, a
# message, no lost or garbled host data, and a sound library afterwards.
amp_unit_test(test_faults)
set_tests_properties(test_faults PROPERTIES LABELS "unit;reliability")

# Several host threads at once: one call site, shared and own views,
# sections with host access; exact results, cache and ledger counts.
# scripts/memory/tsan.sh runs it under ThreadSanitizer.
amp_unit_test(test_threads)
set_tests_properties(test_threads PROPERTIES LABELS "unit;reliability")

# A long run: 1,000,000 dispatches of one cached kernel, views made and
# released along the way, resident memory flat after the warm-up.
amp_unit_test(test_soak)
set_tests_properties(test_soak PROPERTIES LABELS "unit;reliability")

# Domains of more than 2^31 threads, tiled and not; a view of more than
# 2^31 elements on the host, and a kernel over it where the device can hold
# it (elsewhere: AMP_ERROR_OUT_OF_MEMORY).
amp_unit_test(test_scale)
set_tests_properties(test_scale PROPERTIES LABELS "unit;reliability")

# Kernels over a view of more than 2^31 elements (8 GiB of float), where
# the device can hold one: run it on a GPU with
#   AMP_DEVICE=NVIDIA ctest --test-dir build -L gpu
# Elsewhere it says why and counts as skipped.
add_executable(large_view large_view.c)
target_link_libraries(large_view PRIVATE amp::amp)
target_include_directories(large_view PRIVATE ${PROJECT_SOURCE_DIR}/runtime)
target_compile_definitions(large_view PRIVATE _POSIX_C_SOURCE=200809L CL_TARGET_OPENCL_VERSION=120)
add_test(NAME large_view COMMAND large_view)
set_tests_properties(large_view PROPERTIES LABELS "gpu;reliability" SKIP_RETURN_CODE 77
  TIMEOUT 900)
