#!/usr/bin/env bash
# Kernel 6 of sgemm_progression on the GPU, this tree against another: where
# its time goes (each of its kernels on the device) and its ratio to cuBLAS.
# On the GPU machine, from the repository's root (scripts/gpu-env.sh sets up
# the driver and .deps/):
#
#   bash bench/sgemm-ab.sh [BASE_TREE]     # BASE_TREE: a copy of other sources
#
# Builds this tree (and BASE_TREE, when given) in Release, then AB_ROUNDS
# rounds (default 2), which side goes first alternating, each side:
#   (a) for N in AB_SIZES (default 1000 1024 1500 2048):
#       AMP_PROFILE=1 sgemm_progression --only 6 --repeat 20 N
#       and from its profile, the mean device time per call (21 calls: the
#       untimed first one included) of each of kernel 6's kernels, named by
#       the function of sgemm_6_tuned.c that launches it: pack_on_gpu (the
#       pack of A and B), product, add_parts (the sum of K's parts);
#   (b) amp_bench --only matmul --kernels 6 --sizes AB_BENCH_SIZES (default
#       AB_SIZES; amp_bench's forms, 2000x6000x1500 included): kernel 6's
#       GFLOP/s, cuBLAS's, and their ratio (pairs taken in turn).
# Everything goes to /tmp/sgemm-ab/ (each run's whole output); the summary
# at the end gathers each figure's values over the rounds, per side.
# Each side has a kernel cache of its own and no tuning file, so both take
# samples/sgemm_progression/measured/ (the H100's plans). About a minute a
# round at the default sizes.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
base_tree="${1:-}"
rounds="${AB_ROUNDS:-2}"
# Other sizes, to try the script elsewhere (AMP_DEVICE=0 on a CPU, say).
sizes="${AB_SIZES-1000 1024 1500 2048}"
bench_sizes="${AB_BENCH_SIZES:-${sizes// /,}}"
work=/tmp/sgemm-ab
rm -rf "$work"
mkdir -p "$work"
SECONDS=0
log() { echo "== $(date -u +%H:%M:%S) (${SECONDS} s) $*"; }

. scripts/gpu-env.sh

sides="new"
declare -A tree=([new]="$PWD")
if [ -n "$base_tree" ]; then
  [ -f "$base_tree/CMakeLists.txt" ] || { echo "no CMakeLists.txt in $base_tree" >&2; exit 2; }
  tree[base]=$(cd "$base_tree" && pwd)
  sides="base new"
fi

# Both builds at once: each is mostly waiting on its own few large files.
log "build: $sides"
for side in $sides; do
  (cmake -S "${tree[$side]}" -B "$work/build-$side" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DAMP_BUILD_TESTS=OFF "${cuda[@]}" -DCMAKE_PREFIX_PATH="$deps/usr" \
    -DCMAKE_INCLUDE_PATH="$inc" -DCMAKE_LIBRARY_PATH="$lib" >"$work/configure-$side.log" 2>&1 &&
    cmake --build "$work/build-$side" --target amp_bench sgemm_progression \
      >"$work/build-$side.log" 2>&1) &
done
failed=0
for job in $(jobs -p); do wait "$job" || failed=1; done
if [ "$failed" = 1 ]; then
  log "build failed"
  tail -20 "$work"/configure-*.log "$work"/build-*.log
  exit 1
fi
log "built"
nvidia-smi -L 2>/dev/null || true
grep -h "amp_bench:" "$work"/configure-*.log | sort -u

# The function of a tree's sgemm_6_tuned.c whose body holds line L.
function_at() {
  awk -v L="$2" 'NR > L { exit }
    /^static amp_status [a-z_0-9]+\(/ { f = $3; sub(/\(.*/, "", f) }
    END { print f }' "$1/samples/sgemm_progression/sgemm_6_tuned.c"
}

# (a): one line per kernel: "SIDE N FUNCTION MEAN_US CALLS".
profile() {
  local side=$1 n=$2
  local out="$work/progression-$side-$n-r$3.txt"
  env AMP_CACHE_DIR="$work/cache-$side" AMP_PROFILE=1 timeout 60 \
    "$work/build-$side/samples/sgemm_progression" --only 6 --repeat 20 "$n" >"$out" 2>&1 || {
    echo "$side $n failed (exit $?; $out)"
    return
  }
  grep -o "Kernel 6 here: .*" "$out" | sed "s/^/# $side $n: /"
  grep -E "^amp_sgemm_6_tuned_[0-9]+ " "$out" | while read -r _ site calls _ mean _; do
    echo "$side $n $(function_at "${tree[$side]}" "${site##*:}") $mean $calls"
  done
}

# (b): the table's rows, "SIDE | M x N x K | GFLOP/s ... | 6 / cuBLAS |".
bench() {
  local side=$1
  local out="$work/bench-$side-r$2.txt"
  env AMP_CACHE_DIR="$work/cache-$side" timeout 120 "$work/build-$side/bench/amp_bench" \
    --only matmul --kernels 6 --sizes "$bench_sizes" >"$out" 2>&1 ||
    echo "$side amp_bench failed (exit $?; $out)"
  grep -m1 "^| M x N x K" "$out" | sed "s/^/# $side /"
  grep -E "^\| [0-9]+ x" "$out" | sed "s/^/$side /"
}

: >"$work/profile.txt"
: >"$work/ratios.txt"
mkdir -p "$work/cache-base" "$work/cache-new"
round_start=$SECONDS
for r in $(seq 1 "$rounds"); do
  # Another round only where it ends within 400 s, as long as the last.
  if [ "$r" -gt 1 ] && [ $((2 * SECONDS - round_start)) -gt 400 ]; then
    log "round $r skipped: it would end past 400 s"
    break
  fi
  round_start=$SECONDS
  order="$sides"
  [ $((r % 2)) = 0 ] && order=$(echo "$sides" | awk '{ for (i = NF; i > 0; i--) printf "%s ", $i }')
  for side in $order; do
    log "round $r, $side: sgemm_progression under AMP_PROFILE"
    for n in $sizes; do
      profile "$side" "$n" "$r" | tee -a "$work/profile.txt"
    done
    log "round $r, $side: amp_bench"
    bench "$side" "$r" | tee -a "$work/ratios.txt"
  done
done

echo
echo "## Summary ($rounds rounds; $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1))"
echo
echo "(a) device time per call, us (mean of 21 calls per run; one value per round):"
for n in $sizes; do
  for f in pack_on_gpu product add_parts pack_b_on_cpu; do
    for side in $sides; do
      v=$(awk -v s="$side" -v n="$n" -v f="$f" '$1 == s && $2 == n && $3 == f { printf "%s ", $4 }' \
        "$work/profile.txt")
      [ -n "$v" ] && echo "  N=$n $f $side: $v"
    done
  done
done
echo
echo "(b) amp_bench, kernel 6 / the vendor's BLAS (one value per round):"
for size in ${bench_sizes//,/ }; do
  case "$size" in
    *x*) IFS=x read -r m n k <<<"$size" ;;
    *) m=$size n=$size k=$size ;;
  esac
  for side in $sides; do
    v=$(grep "^$side | $m x $n x $k |" "$work/ratios.txt" |
      awk -F'|' '{ r = $(NF - 1); gsub(/ /, "", r); printf "%s ", r }')
    echo "  $m x $n x $k $side: $v"
  done
done
log "done"
