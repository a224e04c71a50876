#!/usr/bin/env bash
# The C sources against .clang-format, with clang-format 14 (Debian 12's;
# another version formats differently, so it is not used).
#   scripts/check/format.sh          list the files clang-format would
#                                    change, with how many lines; exit 1 if any
#   scripts/check/format.sh --count  the same, and the total, without failing
#   scripts/check/format.sh --fix    format them in place
# A file where formatting would change the text of a kernel body or another
# stringified macro argument is never formatted: it is named with the line
# to protect with /* clang-format off */ ... /* clang-format on */, and the
# run fails (scripts/check/stringified-args.py).
# The files: *.c and *.h under runtime/ amp/ bench/ tools/ (the library and
# its programs). Not tests/ and samples/: nearly every statement there is a
# kernel macro call, which clang-format 14 can only keep on lines longer than
# the limit (it may not break inside a kernel body), and some tests check the
# lines and columns of their own text. And not amp/capture_map.h (written
# by cmake/gen_capture_map.py).
# Environment: CLANG_FORMAT, the program (default: clang-format-14, else
# clang-format if it is version 14). Without it the check skips (exit 77),
# unless CI=true. The ctest format_check runs it when the build is
# configured with -DAMP_CHECK_FORMAT=ON.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=check
case "${1:-}" in
  "") ;;
  --count) mode=count ;;
  --fix) mode=fix ;;
  *) echo "usage: scripts/check/format.sh [--count | --fix]" >&2; exit 2 ;;
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
    echo "check/format.sh: clang-format 14 is missing (scripts/setup.sh --deps installs it)" >&2
    exit 1
  fi
  echo "skipped: clang-format 14 is not installed (apt-get install clang-format)"
  exit 77
fi

dirs=(runtime amp bench tools)
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- "${dirs[@]/%//*.c}" "${dirs[@]/%//*.h}")
else
  mapfile -t files < <(find "${dirs[@]}" -name '*.[ch]' | sort)
fi
selected=()
for f in "${files[@]}"; do
  case "$f" in
    amp/capture_map.h|tests/lint/*) ;;
    *) [ -f "$f" ] && selected+=("$f") ;;
  esac
done

# Each file is formatted into a temporary copy. Formatting must not change
# what # makes of a kernel body or another stringified argument
# (scripts/check/stringified-args.py): a file where it would is left as it is and
# named, with the line to put between /* clang-format off */ and
# /* clang-format on */.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "${selected[@]}"; do
  mkdir -p "$tmp/$(dirname "$f")"
  "$cf" --style=file "$f" > "$tmp/$f"
done
unsafe_files=" "
if ! python3 scripts/check/stringified-args.py "$tmp" "${selected[@]}" > "$tmp/report"; then
  sed '/^unsafe:$/,$d' "$tmp/report" >&2
  unsafe_files+="$(sed '1,/^unsafe:$/d' "$tmp/report" | tr '\n' ' ')"
fi
total=0
changed=0
unsafe=0
for f in "${selected[@]}"; do
  if [[ $unsafe_files == *" $f "* ]]; then
    unsafe=$((unsafe + 1))
    continue
  fi
  # The lines of the file that formatting would replace or remove.
  n=$(diff --unchanged-line-format= --old-line-format='%L' --new-line-format= "$f" "$tmp/$f" | wc -l || true)
  [ "$n" -gt 0 ] || continue
  total=$((total + n))
  changed=$((changed + 1))
  if [ "$mode" = fix ]; then
    cat "$tmp/$f" > "$f"
  else
    echo "$f: $n lines"
  fi
done
if [ "$unsafe" -gt 0 ]; then
  echo "check/format.sh: $unsafe files are left as they are, where formatting would change a" \
       "stringified argument (above): put /* clang-format off */ and /* clang-format on */" \
       "around those statements" >&2
fi
if [ "$mode" = fix ]; then
  echo "check/format.sh: formatted $changed of ${#selected[@]} files ($total lines) with $("$cf" --version)"
  [ "$unsafe" -eq 0 ]
  exit
fi
lines=$(cat "${selected[@]}" | wc -l)
if [ "$changed" -eq 0 ] && [ "$unsafe" -eq 0 ]; then
  echo "check/format.sh: ${#selected[@]} files formatted as .clang-format says"
  exit 0
fi
if [ "$changed" -gt 0 ]; then
  echo "check/format.sh: $changed of ${#selected[@]} files, $total of $lines lines, differ from" \
       ".clang-format (scripts/check/format.sh --fix formats them)"
fi
[ "$mode" = count ] && [ "$unsafe" -eq 0 ] && exit 0
exit 1
