#!/usr/bin/env bash
# Install a build into a fresh temporary prefix, as `cmake --install BUILD
# --prefix DIR` does for a user, and check it there with
# scripts/package/check-install.sh (layout, SONAME, versions, amp-info, programs
# built with pkg-config and with find_package, and run).
#   scripts/package/test-install.sh --build=BUILD --work=DIR [check-install.sh options]
# Run by the test install_prefix (tests/packaging/CMakeLists.txt).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build="" work=""
passthrough=()
for a in "$@"; do
  case "$a" in
    --build=*) build=${a#*=} ;;
    --work=*) work=${a#*=} ;;
    *) passthrough+=("$a") ;;
  esac
done
if [ -z "$build" ] || [ -z "$work" ]; then
  echo "test-install.sh: --build and --work are needed" >&2
  exit 2
fi
rm -rf "$work"
mkdir -p "$work"
echo "== cmake --install $build --prefix $work/prefix"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
"$root/scripts/package/check-install.sh" --prefix="$work/prefix" --work="$work/check" "${passthrough[@]}"
