#!/usr/bin/env bash
# Check that the runtime's layers run one way (docs/architecture.md): a file
# in runtime/<layer>/ includes only headers of its own layer or of the
# layers below it, and the modules of one layer include each other without
# a cycle. Prints each violation and exits 1 when there is one.
#   scripts/check/layers.sh [runtime-dir]
set -euo pipefail
runtime=${1:-"$(dirname "$0")/../../runtime"}
layers=(core translate device data kernel check api)

rank() {
    local i
    for i in "${!layers[@]}"; do
        [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }
    done
    echo -1
}

# A module may be split into parts named after it: parse.c with
# parse_stmt.c and parse_expr.h is one module, "parse".
family() {
    local dir=$1 name=$2 base=${2%%_*}
    if [ "$base" != "$name" ] && { [ -e "$dir$base.c" ] || [ -e "$dir$base.h" ]; }; then
        echo "$base"
    else
        echo "$name"
    fi
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
    for file in "$dir"*.[ch]; do
        module=$(family "$dir" "$(basename "${file%.*}")")
        while read -r header; do
            target=${header%%/*}
            other=$(rank "$target")
            if [ "$other" -lt 0 ]; then
                echo "runtime/$layer/$(basename "$file") includes \"$header\": name the layer (\"core/error.h\")"
                status=1
            elif [ "$other" -gt "$own" ]; then
                echo "runtime/$layer/$(basename "$file") includes \"$header\": $target is a layer above $layer"
                status=1
            elif [ "$target" = "$layer" ]; then
                included=$(family "$dir" "$(basename "${header%.h}")")
                [ "$included" != "$module" ] && echo "$layer/$module $layer/$included" >>"$edges"
            fi
        done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file" | grep -v '^amp/' || true)
    done
done
# A module's own pair: modules that include each other form a loop.
for m in $(awk '{print $1; print $2}' "$edges" | sort -u); do echo "$m $m"; done >>"$edges"
if ! tsort "$edges" >/dev/null 2>&1; then
    echo "modules of one layer include each other in a loop:"
    tsort "$edges" 2>&1 >/dev/null | sed 's/^/  /'
    status=1
fi
[ "$status" -eq 0 ] && echo "layers: $(printf '%s < ' "${layers[@]}" | sed 's/ < $//'), no include upward or in a loop"
exit "$status"
