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
# AMP_DEVICE defaults to "NVIDIA"; set it to run elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
bench=0
transfers=0
if [ "${1:-}" = "--bench" ]; then
  bench=1
  shift
elif [ "${1:-}" = "--transfers" ]; then
  transfers=1
  out="${2:-bench-results/transfers}"
  shift $(( $# > 1 ? 2 : 1 ))
fi

icd=/etc/OpenCL/vendors/nvidia.icd
if [ ! -f "$icd" ]; then
  for lib in /usr/lib/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1; do
    if [ -f "$lib" ]; then
      mkdir -p /etc/OpenCL/vendors
      echo "$lib" > "$icd"
      break
    fi
  done
fi

deps=/tmp/deps
if [ -d .deps ]; then
  for f in .deps/*.deb; do dpkg -x "$f" "$deps"; done
fi
inc="$deps/usr/include"
lib="$deps/usr/lib/x86_64-linux-gnu"

export AMP_DEVICE="${AMP_DEVICE:-NVIDIA}"
cuda=()
[ -d /usr/local/cuda ] && cuda=(-DCUDAToolkit_ROOT=/usr/local/cuda)
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cuda[@]}" \
  -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_INCLUDE_PATH="$inc" -DCMAKE_LIBRARY_PATH="$lib" >/dev/null
if [ "$bench" = 1 ]; then
  cmake --build build-gpu --target amp_bench sgemm_tune sgemm_progression
elif [ "$transfers" = 1 ]; then
  cmake --build build-gpu --target amp_bench test_staging
else
  cmake --build build-gpu
fi
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
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
