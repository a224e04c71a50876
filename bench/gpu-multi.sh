#!/usr/bin/env bash
# The figures of one computation across two GPUs (docs/performance.md,
# "Across accelerators"), in one call of about 5 minutes on a machine with
# two NVIDIA GPUs and NVIDIA's OpenCL driver, with no network: the
# repository copied there, uthash from .deps/ as scripts/gpu-run.sh finds
# it (docs/gpu.md).
#   bench/gpu-multi.sh [OUT]     (OUT: $OUT, else bench-results/multi)
# Steps, each under a time limit, each's output in OUT/STEP.md, and
# OUT/summary.md with the tables:
#   build       a Release build, without the tests, into build-gpu-multi/
#   devices     amp-info and nvidia-smi
#   bench       bench/multi_bench: SGEMM 8192^3 kernel 6 across the set of
#               every GPU (by blocks of rows of C) against one GPU's kernel 6,
#               data resident, and with A and B uploaded and C downloaded in
#               each run; tile averages of 16384^2, one launch the runtime
#               splits by rows of tiles; a tiny launch over a set of one
#               against the plain launch
#   pinned      the SGEMM rows again with A, B and C in page-locked memory
#   links       host memory to one GPU alone and to every GPU at once, both
#               ways, page-locked for each GPU, for the first, and malloc's
#   sample      samples/multi_device at its sizes (checked, bit for bit)
#   mpi         samples/mpi_stencil with 2 ranks against 1, where mpirun is
#               there (a GPU per rank)
# Kernel 6 runs with the tuning stored in build-gpu/amp-cache when an
# earlier scripts/gpu-run.sh --perf left one, else with its defaults.
# SGEMM_SIZE (8192), TILE_SIZE (16384) and STENCIL_ROWS (4096) change the
# sizes, and AMP_DEVICE (NVIDIA) the device: a trial run elsewhere, say
#   AMP_DEVICE=pocl AMP_SPLIT_CPU=2 SGEMM_SIZE=512 TILE_SIZE=2048 bench/gpu-multi.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-bench-results/multi}}
mkdir -p "$out"
SECONDS=0
log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$out/steps.log"; }
step() {
  local name=$1 limit=$2
  shift 2
  log "$name: $*"
  local start=$SECONDS rc=0
  timeout "$limit" "$@" >"$out/$name.md" 2>&1 || rc=$?
  log "$name: exit $rc after $((SECONDS - start)) s"
  return "$rc"
}

# NVIDIA's driver registered, .deps/ unpacked for uthash.
. scripts/gpu-env.sh
export AMP_CACHE_DIR="${AMP_CACHE_DIR:-$PWD/build-gpu/amp-cache}"
mkdir -p "$AMP_CACHE_DIR"
build=build-gpu-multi

step build 240 bash -c "cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DAMP_BUILD_TESTS=OFF -DCMAKE_PREFIX_PATH=$deps/usr -DCMAKE_INCLUDE_PATH=$deps/usr/include \
    -DCMAKE_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu &&
  cmake --build $build --target multi_bench multi_device amp-info &&
  { cmake --build $build --target mpi_stencil || echo 'mpi_stencil not built (no MPI here)'; }" ||
  { tail -30 "$out/build.md"; exit 1; }
step devices 30 bash -c "$build/tools/amp-info; nvidia-smi || true"
sgemm=${SGEMM_SIZE:-8192}
tile=${TILE_SIZE:-16384}
rows=${STENCIL_ROWS:-4096}
step bench 200 "$build/bench/multi_bench" --sgemm "$sgemm" --tile "$tile" --repeat 5
step pinned 90 "$build/bench/multi_bench" --only sgemm --sgemm "$sgemm" --repeat 5 --pinned
step links 150 "$build/bench/multi_bench" --only links --repeat 5
step sample 60 "$build/samples/multi_device"
if command -v mpirun >/dev/null && [ -x "$build/samples/mpi_stencil" ]; then
  step mpi-2 60 mpirun -np 2 --oversubscribe --allow-run-as-root "$build/samples/mpi_stencil" \
    --rows "$rows" --cols "$rows" --steps 100
  step mpi-1 60 mpirun -np 1 --allow-run-as-root "$build/samples/mpi_stencil" \
    --rows "$rows" --cols "$rows" --steps 100
else
  log "mpi: skipped, no mpirun or no mpi_stencil here"
fi

{
  echo "# Across accelerators, $(date -u +%Y-%m-%d) $(grep -m1 'accelerator 1 of' "$out/bench.md")"
  echo
  grep -h '^|\|^(a set' "$out/bench.md"
  echo
  grep -h '^| SGEMM' "$out/pinned.md"
  echo
  grep -h '^| .*MiB' "$out/links.md"
  echo
  grep -h -A1 '^Tile\|^SGEMM' "$out/sample.md"
  for n in 2 1; do
    [ -f "$out/mpi-$n.md" ] && grep -h -A1 '^Heat' "$out/mpi-$n.md"
  done
} >"$out/summary.md" 2>/dev/null
cat "$out/summary.md"
log "done in $SECONDS s"
