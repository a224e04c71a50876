#!/usr/bin/env bash
# Run the whole test suite: install missing packages (scripts/setup.sh
# --deps), build with warnings as errors, and run every test through CTest.
# Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --deps
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_WERROR=ON >/dev/null
cmake --build build
ctest --test-dir build --output-on-failure "$@"
