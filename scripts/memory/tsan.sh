#!/usr/bin/env bash
# Build the threaded tests with ThreadSanitizer in build-tsan and run them:
# test_threads (several host threads dispatching at once, docs/reliability.md's
# thread-safety contract), test_dispatch, and test_staging (large transfers
# copied on several threads, runtime/data/memcopy.c), test_handles (a
# completion released while another thread waits on it), and test_clock
# (threads reading the timeline's clock, each from anchors of its own). Any data race or lock-order
# report fails the run (halt_on_error). Extra arguments go to ctest.
#
# Only reports inside PoCL or the ICD loader may be suppressed
# (scripts/memory/tsan.supp); each entry says why.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
tests=(test_threads test_dispatch test_staging test_handles test_clock)

flags="-fsanitize=thread -fno-omit-frame-pointer"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON \
      -DAMP_BUILD_BENCH=OFF \
      "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags" \
      "-DCMAKE_SHARED_LINKER_FLAGS=$flags" >/dev/null
cmake --build build-tsan --target "${tests[@]}"

# exitcode=66: a report fails the test even when the program would exit 0.
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1:suppressions=$root/scripts/memory/tsan.supp"
pattern="^($(IFS='|'; echo "${tests[*]}"))\$"
ctest --test-dir build-tsan --output-on-failure -R "$pattern" "$@"
