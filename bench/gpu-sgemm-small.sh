#!/usr/bin/env bash
# Kernel 6's plans per size on an NVIDIA GPU, measured, and the benchmark
# with them against cuBLAS, in one command of about five minutes, as root on
# the GPU machine (docs/gpu.md: NVIDIA's OpenCL driver, CUDA in
# /usr/local/cuda, the .deb files of .deps/ from scripts/fetch-gpu-deps.sh):
#
#   bash bench/gpu-sgemm-small.sh OUT
#
#   1. a Release build of the benchmarks and the sample (build-gpu-sgemm/);
#   2. sgemm_tune --explore: the usual candidates, then the best of them at
#      the small sizes and around them with K split every way; the fastest
#      plan (tile, parts of K) at each size is stored with the tuning;
#   3. amp_bench --only matmul --kernels 6 --sizes 1000,1024,1500,2048,4096
#      against cuBLAS, then at all the sizes of the GPU table, with the
#      measured plans; then the table again with the same tuning less its
#      plans (the model of sgemm_tuning_pick), to compare;
#   4. sgemm_progression --only 6 at 1000 and 1024 (the sample's cuBLAS row).
#
# Everything goes to OUT: summary.md (the tables that matter), the device's
# tuning file (tune-<device>.txt: copy it to samples/sgemm_progression/measured/
# to make its plans the device's defaults) and sgemm-small.tgz (every
# step's output and CSV files). Each step runs under a time limit, and the
# whole under SGEMM_BUDGET seconds (default 450): a step that would end
# past it is skipped, and what was measured is packed all the same.
# SGEMM_TABLE, SGEMM_SMALL and SGEMM_EXPLORE replace the lists of sizes
# (to try the script on a CPU device, AMP_DEVICE=0, say).
set -uo pipefail
out="${1:?usage: bench/gpu-sgemm-small.sh OUT}"
out=$(realpath -m "$out")
cd "$(dirname "$0")/.." || exit 1
budget="${SGEMM_BUDGET:-450}"
mkdir -p "$out"
work=/tmp/gpu-sgemm-small
rm -rf "$work"
mkdir -p "$work"
SECONDS=0

log() { echo "== $(date -u +%H:%M:%S) (${SECONDS} s) $*" | tee -a "$work/steps.log"; }
pack() {
  tar czf "$out/sgemm-small.tgz" -C "$work" --exclude='*.bin' . 2>/dev/null || true
}
# step NAME LIMIT COMMAND...: output in $work/NAME.md; skipped past the budget.
step() {
  local name=$1 limit=$2
  shift 2
  local left=$((budget - SECONDS))
  if [ "$left" -lt 15 ]; then
    log "$name: skipped, $left s of the budget left"
    return 1
  fi
  [ "$limit" -gt "$left" ] && limit=$left
  log "$name: $*"
  local rc=0
  timeout "$limit" "$@" >"$work/$name.md" 2>&1 || rc=$?
  log "$name: exit $rc"
  pack
  return "$rc"
}

# NVIDIA's driver registered, .deps/ unpacked (uthash; CLBlast for the
# CLBlast column), the paths a build needs.
. scripts/gpu-env.sh

log "build"
if ! cmake -S . -B build-gpu-sgemm -G Ninja -DCMAKE_BUILD_TYPE=Release -DAMP_BUILD_TESTS=OFF \
  "${cuda[@]}" -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_INCLUDE_PATH="$inc" \
  -DCMAKE_LIBRARY_PATH="$lib" >"$work/configure.log" 2>&1 ||
  ! cmake --build build-gpu-sgemm --target amp_bench sgemm_tune sgemm_progression amp-info \
    >"$work/build.log" 2>&1; then
  log "build failed"
  tail -30 "$work/configure.log" "$work/build.log"
  pack
  exit 1
fi
grep "amp_bench:" "$work/configure.log" | tee -a "$work/steps.log"
{ build-gpu-sgemm/tools/amp-info; nvidia-smi 2>/dev/null || true; } >"$work/devices.md" 2>&1
bin=build-gpu-sgemm

# The kernels' cache and the tuning file, for this run alone.
export AMP_CACHE_DIR="$work/amp-cache"
mkdir -p "$AMP_CACHE_DIR"
table="${SGEMM_TABLE:-1000,1024,1500,2048,2049,4096,8192,2000x6000x1500,8192x1024x4096,4096x4096x512}"
small="${SGEMM_SMALL:-1000,1024,1500,2048,4096}"
# The sizes explored: those of the table up to 4096, and some between, so
# that each size class around them (within an eighth) has a measured plan.
explore="${SGEMM_EXPLORE:-1000,1024,1250,1500,1750,2048,2049,3000,4096}"

step explore 240 env AMP_PROFILE=1 "$bin/bench/sgemm_tune" --repeat 7 --explore "$explore" \
  --top 6 --csv "$work/explore.csv"
tune_file=$(find "$AMP_CACHE_DIR" -maxdepth 1 -name 'tune-*.txt' | head -1)
[ -n "$tune_file" ] && cp "$tune_file" "$out/" && cp "$tune_file" "$work/"
step measured-small 60 "$bin/bench/amp_bench" --only matmul --kernels 6 --sizes "$small" \
  --out "$work/measured-small"
step measured 120 "$bin/bench/amp_bench" --only matmul --kernels 6 --sizes "$table" \
  --out "$work/measured"
# The same tuning without its plans: the model's choice at every size.
model_cache="$work/amp-cache-model"
mkdir -p "$model_cache"
[ -n "$tune_file" ] && grep -v '^plan' "$tune_file" >"$model_cache/$(basename "$tune_file")"
step model 120 env AMP_CACHE_DIR="$model_cache" "$bin/bench/amp_bench" --only matmul \
  --kernels 6 --sizes "$table" --out "$work/model"
step progression 40 "$bin/samples/sgemm_progression" --only 6 1000 1024

# The summary: the tables of each step, side by side in one file.
{
  echo "# Kernel 6's measured plans on $(grep -m1 -o 'NVIDIA[^(]*' "$work/devices.md" || echo the GPU)"
  echo
  echo "$(date -u +%Y-%m-%d\ %H:%M) UTC, bash bench/gpu-sgemm-small.sh, $SECONDS s."
  for s in measured-small measured model; do
    echo
    echo "## $s"
    echo
    grep -E "^\||^- kernel 6|^- (cuBLAS|CLBlast)|measured fastest|the model\)" "$work/$s.md" 2>/dev/null
  done
  echo
  echo "## explore: the plans kept"
  echo
  sed -n '/^Kept for products near each size/,/^Stored in/p' "$work/explore.md" 2>/dev/null
  echo
  echo "## progression"
  echo
  grep -E "^\||Kernel 6" "$work/progression.md" 2>/dev/null
  echo
  echo "## steps"
  echo
  cat "$work/steps.log"
  [ -n "$tune_file" ] && echo && echo "Tuning file: $(basename "$tune_file"); to keep its plans:" &&
    echo "cp $(basename "$tune_file") samples/sgemm_progression/measured/"
} >"$out/summary.md" 2>&1
cp "$out/summary.md" "$work/"
pack
log "done"
cat "$out/summary.md"
