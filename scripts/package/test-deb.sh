#!/usr/bin/env bash
# Build the .deb packages from this tree (scripts/package/build-deb.sh), check what
# they declare, install them into a scratch root and use them there: the
# machine itself is left as it was.
#   scripts/package/test-deb.sh --work=DIR --version=X.Y.Z --soversion=S [--cc=CC]
#                       [--generator=G] [-DVAR=VALUE ...]
# 1. the three packages exist, with their fields: libamp<S> depends on the
#    OpenCL ICD loader and recommends PoCL, libamp-dev depends on the same
#    libamp version and on the OpenCL development files, amp-tools
#    depends on python3 (amp-draw) and recommends PoCL; no file is in two
#    packages (dpkg would refuse the second);
# 2. apt-get, simulating, can install all three here: every dependency is
#    met or can be;
# 3. dpkg -x unpacks them into DIR/root, and scripts/package/check-install.sh checks
#    DIR/root/usr as installed: layout, SONAME, versions, amp-info, a
#    program built with pkg-config and run, the CMake package.
# Without cpack, dpkg-deb or dpkg-shlibdeps (dpkg-dev) it skips (exit 77),
# unless CI=true. Run by the test deb_package (tests/packaging/CMakeLists.txt).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work="" version="" soversion="" cc=""
passthrough=() defines=()
for a in "$@"; do
  case "$a" in
    -D*=) passthrough+=("$a") ;;  # a variable the build left empty
    -D*) passthrough+=("$a") defines+=("$a") ;;
    --generator=*) passthrough+=("$a") ;;
    --work=*) work=${a#*=} ;;
    --version=*) version=${a#*=} ;;
    --soversion=*) soversion=${a#*=} ;;
    --cc=*) cc=${a#*=} ;;
    *) echo "test-deb.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
if [ -z "$work" ] || [ -z "$version" ] || [ -z "$soversion" ]; then
  echo "test-deb.sh: --work, --version and --soversion are needed" >&2
  exit 2
fi
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  if ! command -v "$tool" >/dev/null; then
    if [ "${CI:-}" = true ]; then
      echo "test-deb.sh: $tool is missing (scripts/setup.sh --deps installs it)" >&2
      exit 1
    fi
    echo "skipped: $tool is not installed"
    exit 77
  fi
done

rm -rf "$work"
mkdir -p "$work"
echo "== scripts/package/build-deb.sh"
[ -n "$cc" ] && export CC="$cc"
if ! "$root/scripts/package/build-deb.sh" "$work/build" "${defines[@]}" > "$work/build-deb.log" 2>&1; then
  cat "$work/build-deb.log" >&2
  echo "FAIL: scripts/package/build-deb.sh" >&2
  exit 1
fi
arch=$(dpkg --print-architecture)
runtime="$work/build/libamp${soversion}_${version}_$arch.deb"
dev="$work/build/libamp-dev_${version}_$arch.deb"
tools="$work/build/amp-tools_${version}_$arch.deb"
debs=("$runtime" "$dev" "$tools")

failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
for deb in "${debs[@]}"; do
  if [ ! -f "$deb" ]; then
    echo "FAIL: $deb was not made; there are: $(ls "$work"/build/*.deb 2>/dev/null)" >&2
    exit 1
  fi
done

echo "== what the packages declare"
# field DEB NAME: the control field, on one line.
field() { dpkg-deb -f "$1" "$2" | tr '\n' ' '; }
for deb in "${debs[@]}"; do
  printf '%s\n  Depends: %s\n  Recommends: %s\n' "$(basename "$deb")" \
    "$(field "$deb" Depends)" "$(field "$deb" Recommends)"
done
# expect DEB NAME TEXT: the field names TEXT.
expect() {
  [[ " $(field "$1" "$2") " == *"$3"* ]] || fail "$(basename "$1"): $2 does not name '$3'"
}
expect "$runtime" Package "libamp$soversion"
expect "$runtime" Depends "ocl-icd-libopencl1"
expect "$runtime" Recommends "pocl-opencl-icd"
expect "$dev" Depends "libamp$soversion (= $version)"
expect "$dev" Depends "ocl-icd-opencl-dev"
expect "$tools" Depends "ocl-icd-libopencl1"
expect "$tools" Depends "python3"
expect "$tools" Recommends "pocl-opencl-icd"
[ "$(dpkg-deb -I "$runtime" shlibs 2>/dev/null)" = "libamp $soversion libamp$soversion (>= $version)" ] ||
  fail "libamp$soversion: no shlibs file for libamp.so.$soversion"
# No file (directories aside) in two packages.
for deb in "${debs[@]}"; do
  dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }'
done | sort | uniq -d > "$work/shared-files"
[ ! -s "$work/shared-files" ] || fail "files in two packages: $(tr '\n' ' ' < "$work/shared-files")"

echo "== apt-get install --simulate"
if ! command -v apt-get >/dev/null; then
  fail "apt-get is missing"
elif ! apt-get install --simulate "${debs[@]}" > "$work/apt.log" 2>&1; then
  cat "$work/apt.log" >&2
  if [ "${CI:-}" != true ] && ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
    # A machine without package lists (scripts/gpu-run.sh's) knows only what
    # is installed; CI runs apt-get update in scripts/setup.sh.
    echo "skipped: apt-get has no package lists here to find the dependencies in"
  else
    fail "apt-get cannot install the packages here"
  fi
else
  grep -E '^(Inst|Conf) ' "$work/apt.log" | sed 's/^/  /'
fi

echo "== dpkg -x into $work/root"
for deb in "${debs[@]}"; do
  dpkg -x "$deb" "$work/root"
done
"$root/scripts/package/check-install.sh" --prefix="$work/root/usr" --sysroot="$work/root" \
  --version="$version" --soversion="$soversion" --work="$work/check" \
  ${cc:+"--cc=$cc"} "${passthrough[@]}" || failures=$((failures + 1))

if [ "$failures" -gt 0 ]; then
  echo "test-deb.sh: $failures failures" >&2
  exit 1
fi
echo "the .deb packages of amp $version: ok"
