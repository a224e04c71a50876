#!/usr/bin/env bash
# Fuzz the kernel front end under AddressSanitizer and UBSan with
# libFuzzer (clang from Debian: clang and libclang-rt-14-dev, installed by
# scripts/setup.sh): the body reader, its layout and write analysis
# (fuzz_body), and the lexer with the search for a body in its file
# (fuzz_lexer), each for a fixed time. A finding (a crash, a sanitizer
# report, a broken invariant) fails the run and leaves the input in
# build-fuzz/findings/.
#   scripts/memory/fuzz.sh [seconds per target]   (default: $AMP_FUZZ_SECONDS, else 60)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-${AMP_FUZZ_SECONDS:-60}}
cc=$(command -v clang || command -v clang-14 || true)
if [ -z "$cc" ]; then
  echo "fuzz.sh: clang is not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link -g -O1"
CC=$cc cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAMP_FUZZ=ON \
  -DAMP_BUILD_BENCH=OFF -DCMAKE_C_FLAGS="$flags" >/dev/null
cmake --build build-fuzz --target fuzz_body fuzz_lexer
mkdir -p build-fuzz/findings
status=0
for target in fuzz_body fuzz_lexer; do
  corpus=build-fuzz/corpus/$target
  mkdir -p "$corpus"
  seeds=tests/fuzz/corpus/${target#fuzz_}
  echo "== $target for ${seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=1 "build-fuzz/tests/fuzz/$target" -max_total_time="$seconds" \
      -max_len=4096 -timeout=10 -dict=tests/fuzz/body.dict -print_final_stats=1 \
      -artifact_prefix=build-fuzz/findings/"$target"- "$corpus" "$seeds" 2>build-fuzz/$target.log; then
    tail -n 40 build-fuzz/$target.log
    echo "$target: a finding (build-fuzz/findings/)" >&2
    status=1
  else
    grep -E "stat::number_of_executed_units|Done" build-fuzz/$target.log | tail -n 2
  fi
done
exit $status
