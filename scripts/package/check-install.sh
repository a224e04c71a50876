#!/usr/bin/env bash
# Check an installed amp as its users meet it: the layout, the shared
# library's name and SONAME, the version everywhere, amp-info, amp-draw,
# amp.pc, and the CMake package (its version check, amp::amp as libamp.so
# by default and libamp.a with AMP_USE_STATIC_LIBS). Programs are built
# against it and run, and each must have loaded this libamp.so, not another
# one.
#   scripts/package/check-install.sh --prefix=DIR --version=X.Y.Z --soversion=S --work=DIR
#                            [--sysroot=ROOT] [--cc=CC] [--cflags=FLAGS]
#                            [--generator=G] [-DVAR=VALUE ...]
# --prefix is the installed prefix as found on disk; with --sysroot it is a
# staged root's prefix (a .deb unpacked with dpkg -x: ROOT/usr), whose
# amp.pc names the prefix without ROOT. -D options go to the CMake
# projects (where this build found OpenCL). Run by the tests install_prefix
# and deb_package (tests/packaging/CMakeLists.txt).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix="" version="" soversion="" work="" sysroot="" cc=cc cflags="" generator=Ninja
defines=()
for a in "$@"; do
  case "$a" in
    -D*=) ;;  # a variable the build left empty
    -D*) defines+=("$a") ;;
    --prefix=*) prefix=${a#*=} ;;
    --version=*) version=${a#*=} ;;
    --soversion=*) soversion=${a#*=} ;;
    --work=*) work=${a#*=} ;;
    --sysroot=*) sysroot=${a#*=} ;;
    --cc=*) cc=${a#*=} ;;
    --cflags=*) cflags=${a#*=} ;;
    --generator=*) generator=${a#*=} ;;
    *) echo "check-install.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
if [ -z "$prefix" ] || [ -z "$version" ] || [ -z "$soversion" ] || [ -z "$work" ]; then
  echo "check-install.sh: --prefix, --version, --soversion and --work are needed" >&2
  exit 2
fi
read -ra cflag_list <<< "$cflags"
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}
rm -rf "$work"
mkdir -p "$work"

echo "== the layout under $prefix"
# GNUInstallDirs: lib/, or lib/<multiarch>/ for the prefix /usr on Debian.
pc=$(ls "$prefix"/lib/pkgconfig/amp.pc "$prefix"/lib/*/pkgconfig/amp.pc 2>/dev/null | head -1 || true)
if [ -z "$pc" ]; then
  echo "FAIL: no amp.pc under $prefix/lib" >&2
  exit 1
fi
libdir=$(dirname "$(dirname "$pc")")
echo "libdir: $libdir"
for f in bin/amp-info bin/amp-draw share/amp/amp-draw/amp_draw.py \
         share/amp/amp-draw/check_timeline.py include/amp/amp.h include/amp/version.h \
         share/doc/amp/LICENSE share/doc/amp/README.md share/doc/amp/CHANGELOG.md \
         share/doc/amp/docs/api.md; do
  [ -f "$prefix/$f" ] || fail "$prefix/$f is missing"
done
for h in "$root"/amp/*.h; do
  [ -f "$prefix/include/amp/$(basename "$h")" ] || fail "header $(basename "$h") is not installed"
done
for f in libamp.a libamp.so.$version cmake/amp/ampConfig.cmake cmake/amp/ampConfigVersion.cmake \
         cmake/amp/ampTargets.cmake; do
  [ -f "$libdir/$f" ] || fail "$libdir/$f is missing"
done
# libamp.so (the link -lamp finds) and the SONAME link lead to the one file.
for link in libamp.so libamp.so.$soversion; do
  if [ ! -L "$libdir/$link" ] || [ "$(readlink -f "$libdir/$link")" != "$(readlink -f "$libdir/libamp.so.$version")" ]; then
    fail "$libdir/$link is not a link to libamp.so.$version"
  fi
done
soname=$(readelf -d "$libdir/libamp.so.$version" 2>/dev/null |
         sed -n 's/.*Library soname: \[\(.*\)\]/\1/p' || true)
[ "$soname" = "libamp.so.$soversion" ] || fail "SONAME is '$soname', not libamp.so.$soversion"
echo "SONAME: $soname"
IFS=. read -r major minor patch <<< "$version"
for m in "MAJOR $major" "MINOR $minor" "PATCH $patch" "STRING \"$version\""; do
  grep -q "^#define AMP_VERSION_${m}\$" "$prefix/include/amp/version.h" ||
    fail "include/amp/version.h lacks #define AMP_VERSION_$m"
done

echo "== amp-info"
if out=$("$prefix/bin/amp-info" 2>&1); then
  printf '%s\n' "$out" | head -1
  grep -q "(amp $version)" <<< "$out" || fail "amp-info does not report amp $version"
else
  printf '%s\n' "$out" >&2
  fail "amp-info failed"
fi

# amp-draw finds its modules from wherever the prefix is, and draws.
echo "== amp-draw"
if ! command -v python3 >/dev/null; then
  echo "skipped: no python3 here to run amp-draw with"
elif out=$("$prefix/bin/amp-draw" --tiles 4x6 --tile 2x3 -o - 2>&1); then
  tiles=$(grep -o 'class="tile"' <<< "$out" | wc -l)
  [ "$tiles" -eq 4 ] || fail "amp-draw --tiles 4x6 --tile 2x3 drew $tiles tiles, not 4"
  echo "amp-draw --tiles 4x6 --tile 2x3: $tiles tiles"
else
  printf '%s\n' "$out" >&2
  fail "amp-draw failed"
fi

# A program that prints the library's version and the headers', then runs
# the README's first example (tests/docs/my_program.c does the same).
cat > "$work/version_check.c" <<'EOF'
#include <stdio.h>
#include <string.h>

#include <amp/amp.h>

int main(void)
{
    printf("amp_version() %s, AMP_VERSION_STRING %s\n", amp_version(), AMP_VERSION_STRING);
    return strcmp(amp_version(), AMP_VERSION_STRING) != 0;
}
EOF
cp "$root/tests/docs/my_program.c" "$work/"
declare -A expected=(
  [version_check]="amp_version() $version, AMP_VERSION_STRING $version"
  [my_program]=$'47 52 57\n64 71 78\n81 90 99')
# check_program WHAT PROGRAM SHARED: run PROGRAM (version_check or
# my_program), compare its output, and check which libamp.so it loads: this
# prefix's (SHARED=yes) or none (no, linked with libamp.a).
check_program() {
  local what=$1 program=$2 shared=$3 loaded out
  loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$program" | grep 'libamp\.so' || true)
  if [ "$shared" = yes ]; then
    [[ $loaded == *"=> $libdir/libamp.so.$soversion "* ]] ||
      fail "$what: loads '${loaded:-no libamp.so}', not $libdir/libamp.so.$soversion"
  elif [ -n "$loaded" ]; then
    fail "$what: loads $loaded, though linked with libamp.a"
  fi
  if ! out=$("$program" 2>&1); then
    printf '%s\n' "$out" >&2
    fail "$what: exited with an error"
  elif [ "$out" != "${expected[$(basename "$program" | sed 's/^pc_//')]}" ]; then
    printf '%s\n' "$out" >&2
    fail "$what: unexpected output"
  else
    echo "$what: ok ($([ "$shared" = yes ] && echo "$libdir/libamp.so.$soversion" || echo libamp.a))"
  fi
}
# The installed libraries are found at run time through LD_LIBRARY_PATH,
# as for any prefix outside the loader's own list.
export LD_LIBRARY_PATH="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

echo "== pkg-config"
if ! command -v pkg-config >/dev/null; then
  # Where nothing can be installed (scripts/gpu-run.sh's machine); CI has it.
  if [ "${CI:-}" = true ]; then
    fail "pkg-config is not installed (scripts/setup.sh --deps)"
  else
    echo "skipped: pkg-config is not installed"
  fi
else
  export PKG_CONFIG_PATH="$libdir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  [ -n "$sysroot" ] && export PKG_CONFIG_SYSROOT_DIR="$sysroot"
  [ "$(pkg-config --modversion amp)" = "$version" ] || fail "pkg-config --modversion amp is not $version"
  flags=$(pkg-config --cflags --libs amp)
  static_libs=$(pkg-config --static --libs amp)
  echo "pkg-config --cflags --libs amp: $flags"
  echo "pkg-config --static --libs amp: $static_libs"
  [[ " $flags " == *" -lamp "* ]] || fail "pkg-config --libs amp lacks -lamp"
  [[ " $flags " != *" -lOpenCL "* ]] || fail "pkg-config --libs amp names OpenCL, which only libamp.a needs"
  [[ " $static_libs " == *" -lOpenCL "* ]] || fail "pkg-config --static --libs amp lacks -lOpenCL"
  read -ra flag_list <<< "$flags"
  for name in version_check my_program; do
    if "$cc" -std=c11 "${cflag_list[@]}" "$work/$name.c" "${flag_list[@]}" -o "$work/pc_$name"; then
      check_program "pkg-config: $name" "$work/pc_$name" yes
    else
      fail "pkg-config: $name does not compile"
    fi
  done
  unset PKG_CONFIG_SYSROOT_DIR
fi

echo "== the CMake package"
# find_package(amp REQUESTED CONFIG REQUIRED) in a project of its own,
# through CMAKE_PREFIX_PATH; with a build to run when $3 is given.
# $2: AMP_USE_STATIC_LIBS.
cmake_project() {
  local requested=$1 static=$2 dir="$work/cmake_${1//./_}_$2"
  mkdir -p "$dir"
  cp "$work/version_check.c" "$work/my_program.c" "$dir/"
  cat > "$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(check_install C)
find_package(amp $requested CONFIG REQUIRED)
foreach(target amp::amp amp::amp_shared amp::amp_static)
  if(NOT TARGET \${target})
    message(FATAL_ERROR "find_package(amp) gives no \${target}")
  endif()
endforeach()
add_executable(version_check version_check.c)
target_link_libraries(version_check PRIVATE amp::amp)
add_executable(my_program my_program.c)
target_link_libraries(my_program PRIVATE amp::amp)
EOF
  CMAKE_PREFIX_PATH="$prefix" cmake -S "$dir" -B "$dir/build" -G "$generator" \
    -DCMAKE_C_COMPILER="$cc" "-DCMAKE_C_FLAGS=$cflags" -DAMP_USE_STATIC_LIBS="$static" \
    "${defines[@]}" > "$dir/configure.log" 2>&1
}
if ! cmake_project "$version" OFF; then
  cat "$work/cmake_${version//./_}_OFF/configure.log" >&2
  fail "find_package(amp $version) failed"
elif ! cmake --build "$work/cmake_${version//./_}_OFF/build" >/dev/null; then
  fail "the CMake project does not build against amp::amp"
else
  for p in version_check my_program; do
    check_program "find_package: $p" "$work/cmake_${version//./_}_OFF/build/$p" yes
  done
fi
if ! cmake_project "$major.$minor" ON; then
  cat "$work/cmake_${major}_${minor}_ON/configure.log" >&2
  fail "find_package(amp $major.$minor) with AMP_USE_STATIC_LIBS failed"
elif ! cmake --build "$work/cmake_${major}_${minor}_ON/build" >/dev/null; then
  fail "the CMake project does not build against amp::amp with AMP_USE_STATIC_LIBS"
else
  for p in version_check my_program; do
    check_program "find_package, AMP_USE_STATIC_LIBS: $p" "$work/cmake_${major}_${minor}_ON/build/$p" no
  done
fi
# Versions this one does not provide: the next minor before 1.0 (the next
# major after), and a later patch.
if [ "$major" = 0 ]; then
  incompatible="$major.$((minor + 1))"
else
  incompatible="$((major + 1)).0"
fi
for requested in "$incompatible" "$major.$minor.$((patch + 1))"; do
  if cmake_project "$requested" OFF; then
    fail "find_package(amp $requested) accepted amp $version"
  else
    echo "find_package(amp $requested): refused, as it should be"
  fi
done

if [ "$failures" -gt 0 ]; then
  echo "check-install.sh: $failures failures" >&2
  exit 1
fi
echo "the installed amp $version under $prefix: ok"
