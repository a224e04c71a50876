#!/bin/bash
# Measurement only: what a repeated launch costs the library in instructions
# and in code lines, under callgrind on the default device (PoCL here).
#   count.sh SOURCE_DIR BUILD_DIR [LAUNCHES]
# BUILD_DIR is a Release build of SOURCE_DIR (its runtime/libamp.so). Prints
# the instructions per launch inside amp_parallel_for_each and inside the
# driver's clEnqueueNDRangeKernel (the library's own is the difference), then
# the 64-byte code lines of each object run on at least 90% of the launches.
set -euo pipefail
src=$1 build=$2 n=${3:-3000}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -I"$src" -I"$build/include" "$here/launch_loop.c" -L"$build/runtime" -lamp \
  -Wl,-rpath,"$build/runtime" -o "$work/launch_loop"
AMP_CACHE=0 "$work/launch_loop" 10 >/dev/null # PoCL's own cache, filled once
AMP_CACHE=0 valgrind --tool=callgrind --dump-instr=yes --callgrind-out-file="$work/cg.out" \
  --toggle-collect=loop_launches "$work/launch_loop" "$n" >/dev/null 2>"$work/vg.log"
callgrind_annotate --inclusive=yes "$work/cg.out" 2>/dev/null |
  grep -E ":amp_parallel_for_each |:clEnqueueNDRangeKernel " |
  awk -v n="$n" '{gsub(",", "", $1); printf "%8.1f instructions per launch in %s\n", $1 / n, $3}'
python3 "$here/code_lines.py" "$work/cg.out" "$n"
