#!/usr/bin/env bash
# The C sources against .clang-format, with clang-format 14 (Debian 12's;
# another version formats differently, so it is not used).
#   scripts/check-format.sh          list the files clang-format would
#                                    change, with how many lines; exit 1 if any
#   scripts/check-format.sh --count  the same, and the total, without failing
#   scripts/check-format.sh --fix    format them in place
# The files: *.c and *.h under runtime/ amp/ tests/ samples/ bench/ tools/,
# but amp/capture_map.h (written by cmake/gen_capture_map.py) and
# tests/docs/ (fixtures whose line numbers tests check).
# Environment: CLANG_FORMAT, the program (default: clang-format-14, else
# clang-format if it is version 14). Without it the check skips (exit 77),
# unless CI=true. The ctest format_check runs it when the build is
# configured with -DAMP_CHECK_FORMAT=ON.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=check
case "${1:-}" in
  "") ;;
  --count) mode=count ;;
  --fix) mode=fix ;;
  *) echo "usage: scripts/check-format.sh [--count | --fix]" >&2; exit 2 ;;
esac

cf=${CLANG_FORMAT:-}
if [ -z "$cf" ]; then
  if command -v clang-format-14 >/dev/null; then
    cf=clang-format-14
  elif command -v clang-format >/dev/null && clang-format --version | grep -q 'version 14\.'; then
    cf=clang-format
  fi
fi
if [ -z "$cf" ]; then
  if [ "${CI:-}" = true ]; then
    echo "check-format.sh: clang-format 14 is missing (scripts/setup.sh --deps installs it)" >&2
    exit 1
  fi
  echo "skipped: clang-format 14 is not installed (apt-get install clang-format)"
  exit 77
fi

dirs=(runtime amp tests samples bench tools)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- "${dirs[@]/%//*.c}" "${dirs[@]/%//*.h}")
else
  mapfile -t files < <(find "${dirs[@]}" -name '*.[ch]' | sort)
fi
selected=()
for f in "${files[@]}"; do
  case "$f" in
    amp/capture_map.h|tests/docs/*) ;;
    *) [ -f "$f" ] && selected+=("$f") ;;
  esac
done

if [ "$mode" = fix ]; then
  "$cf" --style=file -i "${selected[@]}"
  echo "formatted ${#selected[@]} files with $("$cf" --version)"
  exit 0
fi

total=0
changed=0
for f in "${selected[@]}"; do
  # The lines of the file that formatting would replace or remove.
  n=$("$cf" --style=file "$f" |
      diff --unchanged-line-format= --old-line-format='%L' --new-line-format= "$f" - | wc -l || true)
  if [ "$n" -gt 0 ]; then
    echo "$f: $n lines"
    total=$((total + n))
    changed=$((changed + 1))
  fi
done
lines=$(cat "${selected[@]}" | wc -l)
if [ "$changed" -eq 0 ]; then
  echo "check-format.sh: ${#selected[@]} files formatted as .clang-format says"
  exit 0
fi
echo "check-format.sh: $changed of ${#selected[@]} files, $total of $lines lines, differ from .clang-format" \
     "(scripts/check-format.sh --fix formats them)"
[ "$mode" = count ] && exit 0
exit 1
