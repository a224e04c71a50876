#!/usr/bin/env bash
# Download, on a Debian machine with network access, the .deb files that the
# GPU machine lacks (it has no package access): uthash and cmocka, CLBlast
# for the benchmark's GPU baseline, and OpenBLAS (pthreads build, with the
# Fortran runtime it links) for its CPU baseline (bench/,
# docs/performance.md). They land in .deps/ (ignored by git); pass it along
# with the working tree, then run scripts/gpu-run.sh there, which unpacks
# them with dpkg -x into /tmp/deps.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps
cd .deps
apt-get download uthash-dev libcmocka-dev libcmocka0 libclblast-dev libclblast1 \
  libopenblas0-pthread libopenblas-pthread-dev libgfortran5 libquadmath0 >/dev/null
ls -1 *.deb
