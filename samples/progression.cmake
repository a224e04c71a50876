# The SGEMM teaching progression: one kernel per step, each a small file.
