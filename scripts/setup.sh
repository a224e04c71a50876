#!/usr/bin/env bash
# Install what the project needs on Debian 12 (as root, or with sudo), build
# it, and run the documents' samples on the default device.
#   scripts/setup.sh            install, build, run the samples
#   scripts/setup.sh --deps     install the packages only
#   scripts/setup.sh --bench    also the benchmark's baselines (CLBlast,
#                               OpenBLAS) and gnuplot for its plot
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build pkg-config ocl-icd-opencl-dev opencl-c-headers
          pocl-opencl-icd clinfo uthash-dev libcmocka-dev oclgrind
          valgrind clang-format clang libclang-rt-14-dev python3 chromium openmpi-bin libopenmpi-dev)
if [ "${1:-}" = "--bench" ]; then
  packages+=(libclblast-dev libopenblas-dev gnuplot-nox)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ "${1:-}" = "--deps" ] && exit 0

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build
for sample in matrix_multiply tile_average transfer_ledger; do
  echo "== $sample"
  "build/samples/$sample"
done
