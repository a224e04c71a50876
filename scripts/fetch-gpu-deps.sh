#!/usr/bin/env bash
# Download, on a Debian machine with network access, the .deb files that the
# GPU machine lacks (it has no package access): uthash and cmocka, and CLBlast
# for the benchmark's baseline (bench/, docs/performance.md). They land
# in .deps/ (ignored by git); pass it along with the working tree, then run
# scripts/gpu-run.sh there.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps
cd .deps
apt-get download uthash-dev libcmocka-dev libcmocka0 libclblast-dev libclblast1 >/dev/null
ls -1 *.deb
