#!/usr/bin/env bash
# Draw GFLOP/s against size from amp_bench's matmul.csv: one line per kernel
# of the SGEMM progression and per baseline, square sizes only (M = N = K),
# median figures, logarithmic GFLOP/s so that the naive kernel and the BLAS
# libraries fit on one plot.
#
#   bench/plot.sh [DIR] [FORMAT]
#
# DIR holds matmul.csv (default bench-results); FORMAT is svg (default) or
# png. Writes DIR/matmul.FORMAT. Needs gnuplot (Debian: gnuplot-nox).
set -euo pipefail
dir="${1:-bench-results}"
format="${2:-svg}"
csv="$dir/matmul.csv"
out="$dir/matmul.$format"
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -f "$csv" ] || { echo "plot.sh: no $csv; run amp_bench --out $dir first" >&2; exit 1; }

data="$(mktemp)"
trap 'rm -f "$data"' EXIT
# One block per implementation, in the order they first appear:
# "n gflops" lines, blocks separated by two blank lines (gnuplot's index).
awk -F, 'NR > 1 {
    gsub(/"/, "")
    if ($3 != $4 || $4 != $5) next
    if (!($2 in seen)) { seen[$2] = ++count; name[count] = $2 }
    rows[$2] = rows[$2] $3 " " $8 "\n"
    device = $1
}
END {
    for (i = 1; i <= count; i++) printf "# %s\n%s\n\n", name[i], rows[name[i]]
    printf "# device %s\n", device
}' "$csv" > "$data"

device="$(sed -n 's/^# device //p' "$data")"
mapfile -t names < <(sed -n 's/^# \(.*\)$/\1/p' "$data" | grep -v '^device ')
[ "${#names[@]}" -gt 0 ] || { echo "plot.sh: no square sizes in $csv" >&2; exit 1; }

plot=""
for i in "${!names[@]}"; do
  plot+="${plot:+, }'$data' index $i using 1:2 with linespoints title '${names[$i]}'"
done

case "$format" in
  png) terminal="pngcairo size 1000,600" ;;
  *) terminal="svg size 1000,600 dynamic" ;;
esac
gnuplot <<EOF
set terminal $terminal
set output '$out'
set title "SGEMM on ${device//_/\\\\_}"
set xlabel 'n (M = N = K)'
set ylabel 'GFLOP/s (median)'
set logscale y
set grid
set key outside right
plot $plot
EOF
echo "$out"
