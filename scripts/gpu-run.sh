#!/usr/bin/env bash
# Build and test on a machine with an NVIDIA GPU and NVIDIA's OpenCL driver,
# where nothing can be installed (docs/gpu.md):
#   1. register NVIDIA's OpenCL driver with the ICD loader (needs root);
#   2. unpack the .deb files from .deps/ (scripts/fetch-gpu-deps.sh) into
#      /tmp/deps, for uthash and cmocka;
#   3. build into build-gpu/, list the devices, run the samples on the GPU,
#      then the whole test suite on the GPU.
# Usage: scripts/gpu-run.sh [ctest arguments...]
# AMP_DEVICE defaults to "NVIDIA"; set it to run elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."

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
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$deps/usr" -DCMAKE_INCLUDE_PATH="$inc" -DCMAKE_LIBRARY_PATH="$lib" >/dev/null
cmake --build build-gpu
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

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
