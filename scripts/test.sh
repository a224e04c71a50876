#!/usr/bin/env bash
# Run the whole test suite: install missing packages (scripts/setup.sh
# --deps), build with warnings as errors, and run every test through CTest;
# then the same in the Release configuration (-O3, NDEBUG: another
# optimizer and other stack layouts), in build-release. Extra arguments go
# to ctest.
#
# With CI=true in the environment (as CI runs it, through .ci/run), or with
# --sanitize as the first argument, the memory checks follow: the suite again
# built with AddressSanitizer and UBSan (scripts/memory/sanitize.sh, in
# build-asan), with the debug checks on (assert: LOCK_ASSERT_HELD, in every
# internal function that needs the runtime lock), the threads test under
# ThreadSanitizer (scripts/memory/tsan.sh, in build-tsan), then the samples
# and test programs of this build under valgrind (scripts/memory/valgrind.sh),
# and the kernel front end fuzzed for a minute per target
# (scripts/memory/fuzz.sh, in build-fuzz). Any sanitizer or valgrind report,
# or fuzzing finding, fails the run.
# docs/reliability.md says what they check and how long they take.
set -euo pipefail
cd "$(dirname "$0")/.."

memory_checks=no
[ "${CI:-}" = true ] && memory_checks=yes
if [ "${1:-}" = --sanitize ]; then
  memory_checks=yes
  shift
fi

scripts/setup.sh --deps
# The suite also checks the sources' formatting (the ctest format_check).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON \
  -DAMP_CHECK_FORMAT=ON >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure "$@"

cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DAMP_WERROR=ON >/dev/null
cmake --build build-release
ctest --test-dir build-release --output-on-failure "$@"

if [ "$memory_checks" = yes ]; then
  # All three run, so that one report does not hide another.
  failed=0
  scripts/memory/sanitize.sh || failed=1
  scripts/memory/tsan.sh || failed=1
  scripts/memory/valgrind.sh build || failed=1
  scripts/memory/fuzz.sh || failed=1
  exit $failed
fi
