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
# scripts/tsan.sh runs it under ThreadSanitizer.
amp_unit_test(test_threads)
set_tests_properties(test_threads PROPERTIES LABELS "unit;reliability")

# A long run: 100000 dispatches of one cached kernel, views made and
# released along the way, resident memory flat after the warm-up.
amp_unit_test(test_soak)
set_tests_properties(test_soak PROPERTIES LABELS "unit;reliability")
