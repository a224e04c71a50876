#!/usr/bin/env bash
# Check that the runtime's layers run one way (docs/architecture.md): a file
# under runtime/<layer>/ (in a folder of it too) includes only headers of
# its own layer or of the layers below it, and no modules include each
# other in a circle, inside a layer or across its folders. A module is a
# source with the header of the same name (x.c and x.h); a header without
# a source of its own is a module alone, so a header that its own
# implementer includes closes a circle with every module behind it. Prints
# each violation and exits 1 when there is one.
#   scripts/check/layers.sh [runtime-dir]
set -euo pipefail
runtime=${1:-"$(dirname "$0")/../../runtime"}
runtime=${runtime%/}
layers=(core translate device data kernel check api)
# Circles known and not yet taken apart, one per line as "A B ..." (the
# modules of the circle, sorted). Each must still be a circle: one that is
# gone fails the check until its line goes, so the list only shrinks.
open_circles=()

rank() {
    local i
    for i in "${!layers[@]}"; do
        [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }
    done
    echo -1
}

status=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for dir in "$runtime"/*/; do
    layer=$(basename "$dir")
    own=$(rank "$layer")
    if [ "$own" -lt 0 ]; then
        echo "runtime/$layer/: not a layer (${layers[*]})"
        status=1
        continue
    fi
    while read -r file; do
        rel=${file#"$runtime"/}
        module=${rel%.*}
        echo "$module $module" >>"$edges"
        while read -r header; do
            target=${header%%/*}
            other=$(rank "$target")
            if [ "$other" -lt 0 ]; then
                echo "runtime/$rel includes \"$header\": name the layer (\"core/error.h\")"
                status=1
            elif [ "$other" -gt "$own" ]; then
                echo "runtime/$rel includes \"$header\": $target is a layer above $layer"
                status=1
            elif [ "${header%.h}" != "$module" ]; then
                echo "$module ${header%.h}" >>"$edges"
            fi
        done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file" | grep -v '^amp/' || true)
    done < <(find "$dir" -name '*.[ch]' | sort)
done

# The circles, each as its modules sorted on one line. tsort names the
# modules of one circle at a time, and breaks it to go on; an edge of each
# circle it named is taken out, and it runs again until it finds none.
circles=()
while :; do
    found=$(tsort "$edges" 2>&1 >/dev/null |
        awk '/input contains a loop/ { n++; next } n == 1 && sub(/^tsort: /, "") { print }' || true)
    [ -z "$found" ] && break
    circles+=("$(echo "$found" | sort -u | tr '\n' ' ' | sed 's/ $//')")
    # Take out every edge between two modules of the circle, and look again.
    awk -v names="$found" 'BEGIN { n = split(names, m, "\n"); for (i = 1; i <= n; i++) in_c[m[i]] = 1 }
        !($1 != $2 && ($1 in in_c) && ($2 in in_c))' "$edges" >"$edges.next"
    mv "$edges.next" "$edges"
done
for circle in ${circles[@]+"${circles[@]}"}; do
    known=0
    for open in ${open_circles[@]+"${open_circles[@]}"}; do
        [ "$circle" = "$open" ] && known=1
    done
    if [ "$known" = 0 ]; then
        echo "modules that include each other in a circle (a module is x.c with x.h): $circle"
        status=1
    fi
done
for open in ${open_circles[@]+"${open_circles[@]}"}; do
    gone=1
    for circle in ${circles[@]+"${circles[@]}"}; do
        [ "$circle" = "$open" ] && gone=0
    done
    if [ "$gone" = 1 ]; then
        echo "no longer a circle: $open (delete its line in open_circles)"
        status=1
    fi
done
if [ "$status" -eq 0 ]; then
    open=""
    [ ${#open_circles[@]} -gt 0 ] &&
        open=" but the ${#open_circles[@]} open: $(printf '(%s) ' "${open_circles[@]}" | sed 's/ $//')"
    echo "layers: $(printf '%s < ' "${layers[@]}" | sed 's/ < $//'), no include upward or in a circle$open"
fi
exit "$status"
