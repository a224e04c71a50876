#!/usr/bin/env bash
# Compile and run every ```c block of the given Markdown files, so that the
# code in the documentation cannot rot. Blocks of other languages (sh, text,
# cmake, opencl, cpp, none) are left alone.
#
#   scripts/docs/doc-blocks.sh [options] FILE.md...
#     --build=DIR   the build tree whose library to link (default: build)
#     --cc=CC       the C compiler (default: cc)
#     --cflags=F    extra compiler flags, one string (the sanitizer flags of
#                   an ASan build, say)
#     --lib=PATH    the library (default: DIR/runtime/libamp.a)
#     --include=D   the build's generated headers, amp/version.h
#                   (default: DIR/include)
#     --libs=L      what the library needs, one string
#                   (default: -lOpenCL -pthread -ldl -lm)
#     --work=DIR    where the generated sources and programs go
#                   (default: DIR/doc-blocks)
# Run it from the project root: the #line directives name the Markdown
# files by the paths given, and the runtime reads them back to put kernel
# build errors at their lines. tests/docs/CMakeLists.txt runs it as one CTest
# test per file (label "docs").
#
# The convention (docs/api.md, "Code in the documentation", says the same to
# writers):
# - A block that defines main() is a whole program: compiled as it is with
#   -std=c11 -Wall -Wextra -Werror, run, and it must exit with status 0.
# - Any other block is a fragment: the statements of main(), after
#   <amp/amp.h> and the standard headers <math.h>, <stdint.h>, <stdio.h>,
#   <stdlib.h> and <string.h>. Its #include lines go to file scope. It
#   passes when it compiles (unused variables aside: a fragment may show a
#   declaration alone), runs to its end, and no library call failed on the
#   way: amp_last_error() must still be "" at the end.
# - An HTML comment right before a block (blank lines between are allowed)
#   changes that, and does not show in the rendered page:
#     <!-- doc-test: skip REASON -->  not compiled; say why (a block that
#                                     cannot run anywhere, kept rare)
#     <!-- doc-test: continue -->     the fragment goes on from the previous
#                                     ```c block of the file: one program
#     <!-- doc-test: expect-error --> the fragment shows a failure: it
#                                     passes only if a call failed
#     <!-- doc-test: setup            code run before the fragment, the
#     ...C statements...              declarations it assumes
#     -->
# - <!-- doc-test: check ... --> right after a fragment (same form as setup)
#   runs after it; doc_check(condition) there fails the block, naming the
#   condition and its line, when the condition is false.
# A compile error names the Markdown file and line of the code at fault; a
# failure at run time names the block's first line. Every block of a file
# is tried, and the failures are listed at the end.
set -uo pipefail

build=build
cc=cc
cflags=""
lib=""
include=""
libs="-lOpenCL -pthread -ldl -lm"
work=""
files=()
for arg in "$@"; do
  case "$arg" in
    --build=*) build=${arg#*=} ;;
    --cc=*) cc=${arg#*=} ;;
    --cflags=*) cflags=${arg#*=} ;;
    --lib=*) lib=${arg#*=} ;;
    --include=*) include=${arg#*=} ;;
    --libs=*) libs=${arg#*=} ;;
    --work=*) work=${arg#*=} ;;
    -*) echo "doc-blocks.sh: unknown option $arg" >&2; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done
[ -n "$lib" ] || lib="$build/runtime/libamp.a"
[ -n "$work" ] || work="$build/doc-blocks"
[ -n "$include" ] || include="$build/include"
if [ ${#files[@]} -eq 0 ]; then
  echo "usage: scripts/docs/doc-blocks.sh [--build=DIR] FILE.md..." >&2
  exit 2
fi
if [ ! -e "$lib" ]; then
  echo "doc-blocks.sh: no library at $lib (build the project first)" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
read -ra cflag_list <<< "$cflags"
read -ra lib_list <<< "$libs"

# What every fragment sees, besides its own lines. Written to a temporary
# file and renamed: the tests of several pages share the folder and may run
# at once.
mkdir -p "$work"
cat > "$work/doc_harness.h.$$" <<'EOF'
/* Included by every fragment of the documentation (scripts/docs/doc-blocks.sh). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amp/amp.h>

static int doc_failures;

/* A check of a <!-- doc-test: check --> comment: on failure, name it and
 * its line in the Markdown file, and fail the block. */
#define doc_check(cond)                                                                      \
    ((cond) ? (void)0                                                                        \
            : (void)(fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond), \
                     doc_failures++))

/* The end of a fragment: it passes when its checks held and its calls did
 * what the block meant (all succeeded, or one failed for an expect-error
 * block). */
static inline int doc_end(int expect_error)
{
    const char *error = amp_last_error();
    int failed = 0;
    if (expect_error && error[0] == '\0') {
        fprintf(stderr, "the block should show a failure, but every call succeeded\n");
        failed = 1;
    }
    if (!expect_error && error[0] != '\0') {
        fprintf(stderr, "a call failed: %s\n", error);
        failed = 1;
    }
    /* A fragment may leave kernels queued; they finish before main()
     * returns (PoCL aborts in a process that exits while it compiles). */
    amp_shutdown();
    return failed || doc_failures ? 1 : 0;
}
EOF
mv -f "$work/doc_harness.h.$$" "$work/doc_harness.h"

# Split one Markdown file into programs: $work/<stem>_<n>.c and
# $work/<stem>.manifest (scripts/docs/doc-blocks.awk).
extract() {
  local md=$1 stem=$2
  awk -v md="$md" -v out="$work/$stem" -f "$root/scripts/docs/doc-blocks.awk" "$md"
}

failed=()
passed=0
skipped=0
for md in "${files[@]}"; do
  if [ ! -r "$md" ]; then
    echo "$md: cannot read it"
    failed+=("$md")
    continue
  fi
  stem=$(printf '%s' "$md" | tr -c 'A-Za-z0-9_\n' '_')
  rm -f "$work/$stem"_*.c "$work/$stem"_*.out
  if ! extract "$md" "$stem"; then
    failed+=("$md (its doc-test comments)")
    continue
  fi
  while IFS=$'\t' read -r what a b c; do
    if [ "$what" = skip ]; then
      echo "$md:$a: skipped: $b"
      skipped=$((skipped + 1))
      continue
    fi
    n=$a kind=$b line=$c
    src="$work/${stem}_$n.c"
    exe="$work/${stem}_$n"
    warn=(-Wall -Wextra -Werror)
    [ "$kind" = fragment ] && warn+=(-Wno-unused-variable -Wno-unused-but-set-variable)
    if ! "$cc" -std=c11 "${warn[@]}" "${cflag_list[@]}" -g -I"$root" -I"$include" -I"$work" \
         "$src" "$lib" "${lib_list[@]}" -o "$exe" > "$exe.out" 2>&1; then
      echo "$md:$line: the block does not compile:"
      cat "$exe.out"
      failed+=("$md:$line (compile)")
      continue
    fi
    rc=0
    timeout 300 "$exe" > "$exe.out" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then
      echo "$md:$line: the block exited with status $rc; its output:"
      cat "$exe.out"
      failed+=("$md:$line (exit $rc)")
      continue
    fi
    passed=$((passed + 1))
  done < "$work/$stem.manifest"
done

echo "doc blocks: $passed passed, ${#failed[@]} failed, $skipped skipped"
if [ ${#failed[@]} -gt 0 ]; then
  printf '  failed: %s\n' "${failed[@]}"
  exit 1
fi
