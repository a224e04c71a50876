#!/usr/bin/env bash
# Build the .deb packages (cmake/ampPackage.cmake): libamp<SOVERSION> (the
# shared library), libamp-dev (headers, static library, amp.pc, the CMake
# package, docs) and amp-tools (amp-info, amp-draw).
#   scripts/package/build-deb.sh [BUILD_DIR [-DVAR=VALUE ...]]   default: build-deb
# The build is its own, configured for the prefix /usr (so that the
# libraries go to Debian's lib/<multiarch>/) without tests, samples or
# benchmarks, in RelWithDebInfo like the suite's, stripped by CPack. The
# packages are left in BUILD_DIR; the last lines printed are their paths.
# Install them with: apt install ./BUILD_DIR/*.deb (docs/install.md).
# The -D options go to CMake: where uthash and the OpenCL headers are, on
# a machine that has them outside the system's directories.
# Environment: CC, as CMake reads it.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-deb}
shift $(($# > 0 ? 1 : 0))

for tool in cmake cpack dpkg-shlibdeps; do
  if ! command -v "$tool" >/dev/null; then
    echo "build-deb.sh: $tool is missing (scripts/setup.sh --deps installs it)" >&2
    exit 1
  fi
done

cmake -S . -B "$build" -G Ninja -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DAMP_BUILD_TESTS=OFF -DAMP_BUILD_SAMPLES=OFF -DAMP_BUILD_BENCH=OFF "$@" >/dev/null
cmake --build "$build"
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB >/dev/null)
ls "$build"/*.deb
