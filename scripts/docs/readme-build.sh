#!/usr/bin/env bash
# Run the README's "Your own program" snippets as a user would copy them.
# Each builds tests/docs/my_program.c (the README's first example, whole)
# and runs it:
#   installed  the install block (cmake --install), then the pkg-config
#              line, the CMake snippet with find_package, and the plain cc
#              line, against that install;
#   in-tree    the cc line against the source tree and libamp.a, and the
#              CMake snippet that adds the library with add_subdirectory.
# The snippets are read from README.md (every ```sh and ```cmake block of
# the section), so that the test fails when they stop working; a block the
# script does not recognise fails it too.
#   scripts/docs/readme-build.sh --build=BUILD --work=DIR [--cc=CC] [--cflags=FLAGS]
#                           [--generator=G] [-DVAR=VALUE ...]
# BUILD is this tree's build, already built. -D options go to the CMake
# projects: where this build found its dependencies (CMAKE_PREFIX_PATH and
# the like, as scripts/gpu-run.sh sets them on a machine where they were
# unpacked rather than installed).
# What is changed in the snippets:
# - the install block: its `cmake -S` and `cmake --build` lines are not run
#   (BUILD is that build), `cmake --install build` installs BUILD into
#   DIR/prefix (--prefix), and `ldconfig` is not run. The installed ways
#   then run where that prefix is on the search paths, as /usr/local is:
#   PKG_CONFIG_PATH for pkg-config, CMAKE_PREFIX_PATH for find_package,
#   CPATH and LIBRARY_PATH for the plain cc line, LD_LIBRARY_PATH to run.
#   Each program must load the libamp.so of DIR/prefix;
# - /path/to/amp/build becomes BUILD, /path/to/amp this tree;
# - CFLAGS are added to cc and to the CMake projects (the sanitizer flags
#   of build-asan, which its library needs).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cc=cc cflags="" build="" work="" generator=Ninja
defines=()
for a in "$@"; do
  case "$a" in
    -D*=) ;;  # a variable this build left empty
    -D*) defines+=("$a") ;;
    --cc=*) cc=${a#--cc=} ;;
    --cflags=*) cflags=${a#--cflags=} ;;
    --build=*) build=${a#--build=} ;;
    --work=*) work=${a#--work=} ;;
    --generator=*) generator=${a#--generator=} ;;
    *) echo "readme-build.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
[ -n "$build" ] && [ -n "$work" ] || { echo "readme-build.sh: --build and --work are needed" >&2; exit 2; }
build=$(cd "$build" && pwd)

# Every ```sh and ```cmake block after "## Your own program", up to the
# next section, each as one record: its language, a newline, its text,
# ended by a NUL.
blocks() {
  awk '
    /^## Your own program/ { in_section = 1; next }
    in_section && /^## / { exit }
    in_section && !inside && ($0 == "```sh" || $0 == "```cmake") {
      inside = 1; printf "%s\n", substr($0, 4); next
    }
    inside && /^```/ { inside = 0; printf "%c", 0; next }
    inside { print }
  ' "$root/README.md"
}
install_block="" pkgconfig_line="" find_package_block="" cc_line="" tree_cc_line="" subdirectory_block=""
# set_once NAME TEXT: a snippet of each kind, exactly once.
set_once() {
  if [ -n "${!1}" ]; then
    echo "README.md: two blocks of one kind under '## Your own program':" >&2
    printf '%s\n' "${!1}" "$2" >&2
    exit 1
  fi
  printf -v "$1" '%s' "$2"
}
while IFS= read -r -d '' record; do
  lang=${record%%$'\n'*}
  text=${record#*$'\n'}
  text=${text%$'\n'}
  case "$lang:$text" in
    sh:*"cmake --install"*) set_once install_block "$text" ;;
    sh:*pkg-config*) set_once pkgconfig_line "$text" ;;
    sh:*libamp.a*) set_once tree_cc_line "$text" ;;
    sh:cc*-lamp*) set_once cc_line "$text" ;;
    cmake:*find_package\(amp*) set_once find_package_block "$text" ;;
    cmake:*add_subdirectory\(*) set_once subdirectory_block "$text" ;;
    *) echo "README.md: a block under '## Your own program' that readme-build.sh does not know:" >&2
       printf '%s\n' "$text" >&2
       exit 1 ;;
  esac
done < <(blocks)
for kind in install_block pkgconfig_line find_package_block cc_line tree_cc_line subdirectory_block; do
  if [ -z "${!kind}" ]; then
    echo "README.md: no $kind under '## Your own program'" >&2
    exit 1
  fi
done

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
failures=0

# run_cc DIR COMMAND: the cc COMMAND, with CFLAGS after cc, in DIR.
run_cc() {
  local dir=$1 cmd
  cmd=$(printf '%s\n' "$2" | sed "1s|^cc |$cc $cflags |")
  mkdir -p "$dir"
  cp "$root/tests/docs/my_program.c" "$dir/"
  printf '%s\n' "$cmd"
  (cd "$dir" && bash -euo pipefail -c "$cmd")
}
# cmake_project DIR SNIPPET [ENV=VALUE...]: the SNIPPET in a project of its
# own, configured (in the environment given) and built.
cmake_project() {
  local dir=$1 snippet=$2
  shift 2
  mkdir -p "$dir"
  cp "$root/tests/docs/my_program.c" "$dir/"
  {
    echo "cmake_minimum_required(VERSION 3.16)"
    echo "project(my_program C)"
    echo "add_executable(my_program my_program.c)"
    printf '%s\n' "$snippet"
  } > "$dir/CMakeLists.txt"
  cat "$dir/CMakeLists.txt"
  env "$@" cmake -S "$dir" -B "$dir/build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
    "-DCMAKE_C_FLAGS=$cflags" "${defines[@]}" >/dev/null || return 1
  cmake --build "$dir/build" >/dev/null
}
# run_program NAME PROGRAM SHARED: run it; with SHARED=yes it must load the
# installed libamp.so.
run_program() {
  local name=$1 program=$2 shared=$3 loaded
  if [ "$shared" = yes ]; then
    loaded=$(LD_TRACE_LOADED_OBJECTS=1 "$program" | grep 'libamp\.so' || true)
    if [[ $loaded != *"=> $prefix/"* ]]; then
      echo "FAIL: $name: loads '${loaded:-no libamp.so}', not the one installed in $prefix" >&2
      return 1
    fi
  fi
  "$program"
}
# way NAME COMMAND...: one way, counted as a failure when it fails.
way() {
  local name=$1
  shift
  echo "== $name"
  if ! "$@"; then
    echo "FAIL: $name" >&2
    failures=$((failures + 1))
  fi
}

echo "== the install block, into $prefix"
while IFS= read -r line; do
  case "$line" in
    "cmake -S . -B build"*|"cmake --build build") echo "(not run: $build is that build) $line" ;;
    "cmake --install build")
      echo "$line --prefix $prefix"
      cmake --install "$build" --prefix "$prefix" >/dev/null ;;
    ldconfig) echo "(not run: LD_LIBRARY_PATH instead) $line" ;;
    *) echo "README.md: a line of the install block that readme-build.sh does not know: $line" >&2
       exit 1 ;;
  esac
done <<< "$install_block"
libdir=$(dirname "$(dirname "$(ls "$prefix"/lib/pkgconfig/amp.pc "$prefix"/lib/*/pkgconfig/amp.pc 2>/dev/null | head -1)")")
run_path="$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The dependencies' pkg-config files where this build found them outside
# the default paths (-DCMAKE_PREFIX_PATH=...).
pc_path="$libdir/pkgconfig"
for d in "${defines[@]}"; do
  if [[ $d == -DCMAKE_PREFIX_PATH=* ]]; then
    IFS=';' read -ra dirs <<< "${d#-DCMAKE_PREFIX_PATH=}"
    for p in "${dirs[@]}"; do
      pc_path+=":$p/lib/pkgconfig:$p/lib/$("$cc" -dumpmachine)/pkgconfig"
    done
  fi
done

installed_pkgconfig() {
  # Where nothing can be installed (scripts/gpu-run.sh's machine); CI has it.
  if ! command -v pkg-config >/dev/null && [ "${CI:-}" != true ]; then
    echo "skipped: pkg-config is not installed"
    return 0
  fi
  PKG_CONFIG_PATH="$pc_path${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" run_cc "$work/pkg-config" "$pkgconfig_line" &&
    LD_LIBRARY_PATH="$run_path" run_program pkg-config "$work/pkg-config/my_program" yes
}
installed_find_package() {
  cmake_project "$work/find_package" "$find_package_block" \
    "CMAKE_PREFIX_PATH=$prefix${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}" &&
    run_program find_package "$work/find_package/build/my_program" yes
}
installed_cc() {
  CPATH="$prefix/include${CPATH:+:$CPATH}" LIBRARY_PATH="$libdir${LIBRARY_PATH:+:$LIBRARY_PATH}" \
    run_cc "$work/cc" "$cc_line" &&
    LD_LIBRARY_PATH="$run_path" run_program cc "$work/cc/my_program" yes
}
tree_cc() {
  local cmd=${tree_cc_line//\/path\/to\/amp\/build/$build}
  run_cc "$work/tree-cc" "${cmd//\/path\/to\/amp/$root}" && run_program "cc, in the tree" "$work/tree-cc/my_program" no
}
subdirectory() {
  cmake_project "$work/add_subdirectory" "${subdirectory_block//\/path\/to\/amp/$root}" &&
    run_program add_subdirectory "$work/add_subdirectory/build/my_program" no
}
way "installed: the pkg-config line" installed_pkgconfig
way "installed: the CMake snippet with find_package, in a project of its own" installed_find_package
way "installed: the plain cc line" installed_cc
way "in the tree: the cc line" tree_cc
way "in the tree: the CMake snippet with add_subdirectory, in a project of its own" subdirectory

if [ "$failures" -gt 0 ]; then
  echo "readme-build.sh: $failures of the README's ways failed" >&2
  exit 1
fi
echo "the README's ways built and ran"
