#!/usr/bin/env bash
# Check what a program that links the library can see of it.
#   scripts/check/symbols.sh LIBAMP_A LIBAMP_SO HEADERS_DIR
# - libamp.a: every symbol it defines for other objects starts with amp_
#   (public) or amp__ (internal, the reserved prefix), so that a program's
#   own sha256 or err_set never collides with one of the library's;
# - libamp.so: it exports only functions declared in the public headers.
set -euo pipefail
static_lib=$1
shared_lib=$2
headers=$3
status=0

# Sanitizers add symbols of their own beside each global (ASan's
# __odr_asan.NAME, __asan_*): they are the compiler's, not the library's names.
bad=$(nm -g --defined-only "$static_lib" |
    awk 'NF == 3 && $3 !~ /^amp_/ && $3 !~ /^__(odr_)?asan/ && $3 !~ /^__(tsan|ubsan)/ {print "  " $3}' | sort -u)
if [ -n "$bad" ]; then
    echo "libamp.a defines symbols outside the amp_/amp__ names:"
    echo "$bad"
    status=1
fi

exported=$(nm -D --defined-only "$shared_lib" | awk 'NF == 3 && $2 != "A" {sub(/@.*/, "", $3); print $3}' | sort -u)
count=0
for sym in $exported; do
    count=$((count + 1))
    if ! grep -qw -- "$sym" "$headers"/*.h; then
        echo "libamp.so exports $sym, which no public header declares"
        status=1
    fi
done
# The internal functions that public macros call are exported too; docs/install.md names
# each of them, and only them.
root=$(cd "$headers/.." && pwd)
mapped=$(sed -n 's/^ *\(amp__[a-z_]*\);$/\1/p' "$root/runtime/amp.map" | sort -u)
documented=$(sed -n '/exports only the public/,/^$/p' "$root/docs/install.md" | grep -o 'amp__[a-z_]*' | sort -u)
if [ "$mapped" != "$documented" ]; then
    echo "runtime/amp.map exports the internal functions" $mapped
    echo "but docs/install.md names" $documented
    status=1
fi
internal=$(nm -g --defined-only "$static_lib" | awk 'NF == 3 && $3 ~ /^amp__/' | wc -l)
[ "$status" -eq 0 ] && echo "libamp.a: every symbol amp_ or amp__ ($internal internal); libamp.so: $count exports, each declared in amp/"
exit "$status"
