#!/usr/bin/env bash
# Build and test on a machine with an NVIDIA GPU and NVIDIA's OpenCL driver,
# where nothing can be installed (docs/gpu.md):
#   1. register NVIDIA's OpenCL driver with the ICD loader (needs root);
#   2. unpack the .deb files from .deps/ (scripts/fetch-gpu-deps.sh) into
#      /tmp/deps, for uthash and cmocka;
#   3. build into build-gpu/, list the devices, run the samples on the GPU,
#      then the whole test suite on the GPU.
# Usage: scripts/gpu-run.sh [ctest arguments...]
#        scripts/gpu-run.sh --bench [amp_bench arguments...]
#          builds only the benchmarks and runs build-gpu/bench/amp_bench on the
#          GPU instead (CLBlast from .deps/, cuBLAS from /usr/local/cuda;
#          docs/performance.md)
#        scripts/gpu-run.sh --transfers [DIR]
#          the transfer targets in a few minutes: builds amp_bench and
#          test_staging, runs test_staging on the GPU (every transfer path,
#          forced in turn, exact), then amp_bench --only transfers,tile --out
#          DIR (default bench-results/transfers: cudaMemcpy, clEnqueueCopyBuffer
#          and the library, 1 MiB to 1 GiB), draws DIR/transfers.svg when
#          gnuplot is there, and prints bench/targets.sh's table: which
#          targets are met
#        scripts/gpu-run.sh --perf DIR [STEPS] [ARCHIVE]
#          the performance figures of docs/performance.md in one command: a
#          Release build of the benchmarks, then each step of the comma list
#          STEPS in turn (default: all below), each under a time limit, its
#          output in DIR/STEP.md and its CSV files in DIR/STEP/; after each
#          step DIR is packed into ARCHIVE (.tgz) when given, so that a run
#          cut short still leaves what it measured. PERF_BUDGET=SECONDS
#          shortens or skips the steps that would end past it. The steps:
#            tune-wide   kernel 6's tuner over the generated family on the GPU
#                        (SGEMM_CANDIDATES="s,ty,tx,rm,nv,vw,bk;..." instead
#                        lists them), exploring the best at the table's sizes
#                        with K split every way; stores the tuning
#            tune        the tuner over the usual candidates (or
#                        SGEMM_CANDIDATES), exploring the best SGEMM_TOP at
#                        the sizes SGEMM_EXPLORE when set, else at its own
#                        (those where the tiles are few); stores the tuning
#            matmul      amp_bench --only matmul (all six kernels, CLBlast,
#                        cuBLAS), then sgemm_progression at the small sizes
#            tile        amp_bench --only tile,dispatch,compile,lazy
#            dispatch    amp_bench --only dispatch three times more
#            dispatch-timing  a second build of the tree with its timing
#                        probes compiled in (-DAMP_TIMING_PROBES=ON): the
#                        host time of each step of a launch, pipelined, on
#                        the GPU
#            dispatch-ab the dispatch benchmark of this tree against the tree
#                        in AB_BASE (a copy of another version of the
#                        sources, say the one before a change), each built in
#                        Release, AB_RUNS (default 8) runs of each in turns,
#                        which goes first alternating; then the ratios of
#                        each side, sorted (not in the default steps). With
#                        AB_TIMELINE=1 each run is made twice, without and
#                        with AMP_TIMELINE: the timeline's cost, tree
#                        against tree; with AB_TIMELINE=2 each run is
#                        amp_bench --only timeline instead (the timeline on
#                        and off in turns in one process, as the timeline
#                        step measures it), and the ratios on / off of each
#                        tree are listed
#            pocl        on the CPU device (PoCL, AMP_DEVICE=0 unless
#                        POCL_DEVICE is set): its tuner, then kernel 6
#                        against OpenBLAS (--kernels 6; OpenBLAS measured
#                        again with the right core when it picks an old one),
#                        then the tile, dispatch and transfer sections
#            transfers   test_staging on the GPU and amp_bench --only transfers
#                        (what --transfers does)
#            timeline    the timeline's cost and its picture of overlap (not in
#                        the default steps): amp_bench --only timeline five
#                        times (the dispatch benchmark with a side whose
#                        launches the timeline records, in turns with the
#                        library's launches without it, in one process), then
#                        the pipelined rows' amp us per launch off and on and
#                        the ratio on / off in DIR/timeline.md; and amp_bench
#                        --only overlap with AMP_TIMELINE=DIR/timeline/overlap.json
#                        (uploads on the transfer queue beside kernels), that
#                        file checked, its overlaps listed
#                        (bench/timeline-overlap.py --expect-overlap) and its
#                        page drawn (DIR/timeline/overlap.html)
# AMP_DEVICE defaults to "NVIDIA"; set it to run elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=0
transfers=0
perf=0
if [ "${1:-}" = "--bench" ]; then
  bench=1
  shift
elif [ "${1:-}" = "--transfers" ]; then
  transfers=1
  out="${2:-bench-results/transfers}"
  shift $(( $# > 1 ? 2 : 1 ))
elif [ "${1:-}" = "--perf" ]; then
  perf=1
  out="${2:-bench-results/perf}"
  steps="${3:-tune-wide,matmul,tile,dispatch-timing,pocl,transfers}"
  archive="${4:-}"
  shift $(( $# < 4 ? $# : 4 ))
fi

# NVIDIA's driver registered, .deps/ unpacked, the paths a build needs.
. scripts/gpu-env.sh
if [ "$perf" = 1 ]; then
  # The steps in turn, each under its limit; a step that fails or runs out
  # of time leaves its output and the next one runs.
  mkdir -p "$out"
  log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$out/steps.log"; }
  pack() { [ -z "$archive" ] || tar czf "$archive" -C "$out" . 2>/dev/null || true; }
  step() {
    local name=$1 limit=$2
    shift 2
    if [ -n "${PERF_BUDGET:-}" ]; then
      local left=$((PERF_BUDGET - SECONDS))
      if [ "$left" -lt 20 ]; then
        log "$name: skipped, $left s of PERF_BUDGET left"
        return 0
      fi
      [ "$limit" -gt "$left" ] && limit=$left
    fi
    log "$name: $*"
    local start=$SECONDS rc=0
    timeout "$limit" "$@" >"$out/$name.md" 2>&1 || rc=$?
    log "$name: exit $rc after $((SECONDS - start)) s"
    pack
  }
  SECONDS=0
  start=0
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda[@]}" \
    -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_INCLUDE_PATH="$inc" -DCMAKE_LIBRARY_PATH="$lib" \
    >"$out/configure.log" 2>&1
  grep "amp_bench:" "$out/configure.log" | tee -a "$out/steps.log" || true
  cmake --build build-gpu --target amp_bench sgemm_tune sgemm_progression test_staging \
    amp-info >"$out/build.log" 2>&1 || { log "build failed"; tail -30 "$out/build.log"; pack; exit 1; }
  log "built in $((SECONDS - start)) s"
  { clinfo -l 2>/dev/null || true; build-gpu/tools/amp-info; nvidia-smi 2>/dev/null || true; } \
    >"$out/devices.md" 2>&1
  export AMP_CACHE_DIR="$PWD/build-gpu/amp-cache"
  pocl="${POCL_DEVICE:-0}"
  sizes=1000,1024,1500,2048,2049,4096,2000x6000x1500,8192x1024x4096,4096x4096x512
  for s in ${steps//,/ }; do
    case "$s" in
    tune-wide)
      family=(--all)
      [ -n "${SGEMM_CANDIDATES:-}" ] && family=(--candidates "$SGEMM_CANDIDATES")
      step tune-wide 300 env AMP_PROFILE=1 build-gpu/bench/sgemm_tune "${family[@]}" --repeat 3 \
        --explore "$sizes" --top "${SGEMM_TOP:-6}" --csv "$out/tune-wide.csv" ;;
    tune)
      family=()
      [ -n "${SGEMM_CANDIDATES:-}" ] && family=(--candidates "$SGEMM_CANDIDATES")
      explore=()
      [ -n "${SGEMM_EXPLORE:-}" ] && explore=(--explore "$SGEMM_EXPLORE" --top "${SGEMM_TOP:-3}")
      step tune 200 build-gpu/bench/sgemm_tune "${family[@]}" --repeat 3 "${explore[@]}" \
        --csv "$out/tune.csv" ;;
    matmul)
      step matmul 240 build-gpu/bench/amp_bench --only matmul --out "$out/matmul"
      step progression 60 build-gpu/samples/sgemm_progression --only 6 1000 1024 1500 2049 4096 ;;
    tile)
      step tile 150 build-gpu/bench/amp_bench --only tile,dispatch,compile,lazy --out "$out/tile" ;;
    dispatch)
      for i in 1 2 3; do
        step "dispatch-$i" 60 build-gpu/bench/amp_bench --only dispatch --out "$out/dispatch-$i"
      done ;;
    dispatch-timing)
      # The tree built again with the timing probes compiled in; each step's
      # time per launch is printed at exit.
      step dispatch-timing-build 120 cmake -S . -B build-gpu-probes -G Ninja \
        -DCMAKE_BUILD_TYPE=Release -DAMP_TIMING_PROBES=ON -DAMP_BUILD_TESTS=OFF \
        -DCMAKE_INCLUDE_PATH="$inc" -DCMAKE_LIBRARY_PATH="$lib" -DCMAKE_PREFIX_PATH="$deps/usr"
      step dispatch-timing-build2 180 cmake --build build-gpu-probes --target amp_bench
      step dispatch-timing 90 build-gpu-probes/bench/amp_bench --only dispatch \
        --out "$out/dispatch-timing" ;;
    dispatch-ab)
      # Both trees in Release on the same machine, run by run in turns.
      if [ ! -f "${AB_BASE:-}/CMakeLists.txt" ]; then
        log "dispatch-ab: AB_BASE must name a copy of the sources to compare with"
        continue
      fi
      base=$(cd "$AB_BASE" && pwd)
      step dispatch-ab-build 180 cmake -S "$base" -B /tmp/amp-ab-base -G Ninja \
        -DCMAKE_BUILD_TYPE=Release -DAMP_BUILD_TESTS=OFF "${cuda[@]}" \
        -DCMAKE_INCLUDE_PATH="$inc" -DCMAKE_LIBRARY_PATH="$lib" -DCMAKE_PREFIX_PATH="$deps/usr"
      step dispatch-ab-build2 240 cmake --build /tmp/amp-ab-base --target amp_bench
      for i in $(seq 1 "${AB_RUNS:-8}"); do
        sides="base this"
        [ $((i % 2)) = 0 ] && sides="this base"
        for side in $sides; do
          bin=build-gpu/bench/amp_bench
          [ "$side" = base ] && bin=/tmp/amp-ab-base/bench/amp_bench
          if [ "${AB_TIMELINE:-0}" = 2 ]; then
            step "dispatch-ab-$side-$i" 120 "$bin" --only timeline --out "$out/dispatch-ab-$side-$i"
            rm -f "${TMPDIR:-/tmp}"/amp-bench-timeline-*.json
          elif [ "${AB_TIMELINE:-0}" = 1 ]; then
            step "dispatch-ab-$side-off-$i" 60 "$bin" --only dispatch \
              --out "$out/dispatch-ab-$side-off-$i"
            # Some 750,000 events: the file is written aside.
            step "dispatch-ab-$side-on-$i" 120 env AMP_TIMELINE="/tmp/amp-ab-$side.json" \
              "$bin" --only dispatch --out "$out/dispatch-ab-$side-on-$i"
            rm -f "/tmp/amp-ab-$side.json"
          else
            step "dispatch-ab-$side-$i" 60 "$bin" --only dispatch --out "$out/dispatch-ab-$side-$i"
          fi
        done
      done
      # The pipelined amp / raw ratio of each run (the table's fourth
      # column), sorted, for each side (and with AB_TIMELINE, each way).
      # With AB_TIMELINE=2, the ratio timeline on / off (the twelfth
      # column) of each run, pipelined and with a wait each.
      kinds="base this"
      [ "${AB_TIMELINE:-0}" = 1 ] && kinds="base-off base-on this-off this-on"
      for side in $kinds; do
        if [ "${AB_TIMELINE:-0}" = 2 ]; then
          for mode in pipelined "wait each"; do
            echo "$side, timeline on / off, $mode: $(grep -h "^| $mode" \
              "$out"/dispatch-ab-"$side"-[0-9]*.md |
              awk -F'|' '{split($12, r, " "); print r[1]}' | sort -n | tr '\n' ' ')"
          done
          continue
        fi
        echo "$side: $(grep -h '^| pipelined' "$out"/dispatch-ab-"$side"-[0-9]*.md |
          awk -F'|' '{split($5, r, " "); print r[1]}' | sort -n | tr '\n' ' ')"
      done | tee "$out/dispatch-ab.md" | tee -a "$out/steps.log"
      pack ;;
    pocl)
      step pocl-tune 150 env AMP_DEVICE="$pocl" build-gpu/bench/sgemm_tune --repeat 3
      step pocl-matmul 240 env AMP_DEVICE="$pocl" build-gpu/bench/amp_bench --only matmul \
        --kernels 6 --out "$out/pocl"
      step pocl-other 200 env AMP_DEVICE="$pocl" build-gpu/bench/amp_bench \
        --only tile,dispatch,transfers --out "$out/pocl-other" ;;
    timeline)
      mkdir -p "$out/timeline"
      for i in 1 2 3 4 5; do
        step "timeline-$i" 120 build-gpu/bench/amp_bench --only timeline --out "$out/timeline/run-$i"
      done
      # A run cut short by its time limit leaves its timeline's file behind.
      rm -f "${TMPDIR:-/tmp}"/amp-bench-timeline-*.json
      step timeline-overlap 120 env AMP_TIMELINE="$out/timeline/overlap.json" \
        build-gpu/bench/amp_bench --only overlap --out "$out/timeline/overlap"
      step timeline-overlap-report 60 python3 bench/timeline-overlap.py --expect-overlap \
        "$out/timeline/overlap.json"
      step timeline-overlap-page 60 python3 tools/amp-draw/amp_draw.py \
        "$out/timeline/overlap.json" -o "$out/timeline/overlap.html"
      # The runs' pipelined rows, each column sorted: amp us per launch
      # without the timeline and with it, and the ratio on / off.
      for col in "3 amp us, timeline off" "11 amp us, timeline on" "12 timeline on / off"; do
        echo "${col#* }: $(grep -h '^| pipelined' "$out"/timeline-[0-9]*.md |
          awk -F'|' -v c="${col%% *}" '{split($c, a, " "); print a[1]}' | sort -n | tr '\n' ' ')"
      done | tee "$out/timeline.md" | tee -a "$out/steps.log"
      pack ;;
    transfers)
      step test-staging 200 env FAULT_STRIDE=5 AMP_CACHE=0 build-gpu/tests/test_staging
      step transfers 200 build-gpu/bench/amp_bench --only transfers,tile --out "$out/transfers"
      bench/targets.sh "$out/transfers" >"$out/targets.md" 2>&1 || true
      pack ;;
    *) log "unknown step $s" ;;
    esac
  done
  if command -v gnuplot >/dev/null; then
    for d in "$out"/*/; do bench/plot.sh "$d" >/dev/null 2>&1 || true; done
    pack
  fi
  log "done in $((SECONDS - start)) s"
  exit 0
fi
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cuda[@]}" \
  -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_INCLUDE_PATH="$inc" -DCMAKE_LIBRARY_PATH="$lib" >/dev/null
if [ "$bench" = 1 ]; then
  cmake --build build-gpu --target amp_bench sgemm_tune sgemm_progression
elif [ "$transfers" = 1 ]; then
  cmake --build build-gpu --target amp_bench test_staging
else
  cmake --build build-gpu
fi
if [ "$bench" = 1 ]; then
  clinfo -l 2>/dev/null || true
  exec build-gpu/bench/amp_bench "$@"
fi
if [ "$transfers" = 1 ]; then
  clinfo -l 2>/dev/null || true
  echo "== test_staging on AMP_DEVICE=$AMP_DEVICE"
  tested=0
  # Every 5th call of the fault loops: each restarts the library, and a
  # GPU's context takes longer to make than PoCL's.
  FAULT_STRIDE=5 AMP_CACHE=0 build-gpu/tests/test_staging || tested=$?
  [ "$tested" = 0 ] || echo "== test_staging FAILED: a transfer path is wrong on this device"
  echo "== amp_bench --only transfers,tile"
  mkdir -p "$out"
  build-gpu/bench/amp_bench --only transfers,tile --out "$out" | tee "$out/amp_bench.md"
  if command -v gnuplot >/dev/null; then bench/plot.sh "$out"; fi
  echo
  echo "== targets ($out)"
  bench/targets.sh "$out" | tee "$out/targets.md"
  exit "$tested"
fi

echo "== devices"
clinfo -l 2>/dev/null || true
echo "== samples on AMP_DEVICE=$AMP_DEVICE"
failed_samples=()
for s in build-gpu/samples/*; do
  [ -x "$s" ] && [ -f "$s" ] || continue
  echo "-- $(basename "$s")"
  # Go on past a failing sample, so that one run shows every result.
  AMP_TRACE=kernels "$s" || failed_samples+=("$(basename "$s")")
done
[ ${#failed_samples[@]} -eq 0 ] || echo "== samples that failed: ${failed_samples[*]}"
echo "== tests on AMP_DEVICE=$AMP_DEVICE"
ctest --test-dir build-gpu --output-on-failure "$@"
[ ${#failed_samples[@]} -eq 0 ]
