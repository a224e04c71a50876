# Reliability tests (bad input, faults, threads, soak): listed here so
# that they can grow without touching the unit-test list.

# Every kind of bad input to the public API, one table row each
# (docs/reliability.md).
amp_unit_test(test_bad_input)
set_tests_properties(test_bad_input PROPERTIES LABELS "unit;reliability")
