#!/usr/bin/env bash
# Run the README's "Your own program" commands as a user would copy them:
# the cc line, and the CMake snippet in a project of its own that adds the
# library with add_subdirectory. Both build tests/docs/my_program.c (the
# README's first example, whole) and run it. The commands are read from
# README.md, so that the test fails when they stop working.
#   scripts/readme-build.sh --lib=LIBAMP --work=DIR [--cc=CC] [--cflags=FLAGS]
#                           [--generator=G] [-DVAR=VALUE ...]
# -D options go to the CMake project: where this build found its
# dependencies (CMAKE_PREFIX_PATH and the like, as scripts/gpu-run.sh sets
# them on a machine where they were unpacked rather than installed).
# What is changed in them: /path/to/amp becomes this tree, the library's
# path the one of this build (LIBAMP), and CFLAGS are added to cc and to the
# CMake project (the sanitizer flags of build-asan, which its library needs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cc=cc cflags="" lib="" work="" generator=Ninja
defines=()
for a in "$@"; do
  case "$a" in
    -D*=) ;;  # a variable this build left empty
    -D*) defines+=("$a") ;;
    --cc=*) cc=${a#--cc=} ;;
    --cflags=*) cflags=${a#--cflags=} ;;
    --lib=*) lib=${a#--lib=} ;;
    --work=*) work=${a#--work=} ;;
    --generator=*) generator=${a#--generator=} ;;
    *) echo "readme-build.sh: unknown argument $a" >&2; exit 2 ;;
  esac
done
[ -n "$lib" ] && [ -n "$work" ] || { echo "readme-build.sh: --lib and --work are needed" >&2; exit 2; }

# The first block of the given language after "## Your own program".
block() {
  awk -v lang="$1" '
    /^## Your own program/ { in_section = 1; next }
    in_section && /^## / { exit }
    in_section && !inside && $0 == "```" lang { inside = 1; next }
    inside && /^```/ { exit }
    inside { print }
  ' "$root/README.md"
}
sh_block=$(block sh)
cmake_block=$(block cmake)
if [ -z "$sh_block" ] || [ -z "$cmake_block" ]; then
  echo "README.md: no \`\`\`sh or \`\`\`cmake block under '## Your own program'" >&2
  exit 1
fi

rm -rf "$work"
mkdir -p "$work/cc" "$work/cmake"

echo "== the cc line"
cp "$root/tests/docs/my_program.c" "$work/cc/"
cmd=${sh_block//\/path\/to\/amp\/build\/runtime\/libamp.a/$lib}
cmd=${cmd//\/path\/to\/amp/$root}
cmd=$(printf '%s\n' "$cmd" | sed "1s|^cc |$cc $cflags |")
printf '%s\n' "$cmd"
(cd "$work/cc" && bash -euo pipefail -c "$cmd" && ./my_program)

echo "== the CMake snippet, in a project of its own"
cp "$root/tests/docs/my_program.c" "$work/cmake/"
{
  echo "cmake_minimum_required(VERSION 3.16)"
  echo "project(my_program C)"
  echo "add_executable(my_program my_program.c)"
  printf '%s\n' "${cmake_block//\/path\/to\/amp/$root}"
} > "$work/cmake/CMakeLists.txt"
cat "$work/cmake/CMakeLists.txt"
cmake -S "$work/cmake" -B "$work/cmake/build" -G "$generator" -DCMAKE_C_COMPILER="$cc" \
  "-DCMAKE_C_FLAGS=$cflags" "${defines[@]}" >/dev/null
cmake --build "$work/cmake/build" >/dev/null
"$work/cmake/build/my_program"
echo "both built and ran"
