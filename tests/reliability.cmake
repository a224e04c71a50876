# Reliability tests (issue: bad input, faults, threads, soak): listed here so
# that they can grow without touching the unit-test list.
