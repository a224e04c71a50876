#!/usr/bin/env bash
# The host's fast_math and precise_math functions (amp/math.h) are exactly
# the kernels' (runtime/translate/cl/fast_math.cl and precise_math.cl): code
# written for both sides (AMP_SHARED_FUNCTION) must find each name on both.
#   scripts/check/math-names.sh [SOURCE_DIR]
set -euo pipefail
root=${1:-$(dirname "$0")/../..}
kernel=$(sed -n 's/^#define \(\(fast\|precise\)_math_[a-z0-9_]*\)(.*/\1/p' \
    "$root"/runtime/translate/cl/fast_math.cl "$root"/runtime/translate/cl/precise_math.cl | sort -u)
host=$(grep -o '^static inline [a-z ]* \**\(fast\|precise\)_math_[a-z0-9_]*(' "$root/amp/math.h" |
    sed 's/.* \**\(\(fast\|precise\)_math_[a-z0-9_]*\)(/\1/' | sort -u)
only_kernel=$(comm -23 <(echo "$kernel") <(echo "$host"))
only_host=$(comm -13 <(echo "$kernel") <(echo "$host"))
status=0
if [ -n "$only_kernel" ]; then
    echo "kernels have these, amp/math.h does not:"; echo "$only_kernel" | sed 's/^/  /'
    status=1
fi
if [ -n "$only_host" ]; then
    echo "amp/math.h has these, kernels do not:"; echo "$only_host" | sed 's/^/  /'
    status=1
fi
[ "$status" -eq 0 ] && echo "$(echo "$kernel" | wc -l) math functions, the same on the host and in kernels"
exit "$status"
