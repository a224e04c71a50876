#!/usr/bin/env bash
# Draw amp_bench's figures from its CSV files in DIR:
#   matmul.csv     -> matmul.FORMAT: GFLOP/s against size, one line per kernel
#                     of the SGEMM progression and per baseline, square sizes
#                     only (M = N = K), logarithmic GFLOP/s so that the naive
#                     kernel and the BLAS libraries fit on one plot;
#   transfers.csv  -> transfers.FORMAT: GB/s against size, one line per
#                     implementation, uploads and downloads side by side;
#   tile_average.csv -> tile_average.FORMAT: GB/s of each memory-bound
#                     kernel, one bar each, beside the device's own copy;
#   dispatch.csv   -> dispatch.FORMAT: microseconds per launch through the
#                     library and through raw OpenCL, pipelined and with a
#                     wait after each.
# Median figures throughout.
#
#   bench/plot.sh [DIR] [FORMAT]
#
# DIR defaults to bench-results; FORMAT is svg (default) or png. Each plot is
# drawn when its CSV file is there.
#
#   bench/plot.sh --docs RUN
#
# draws the plots of docs/performance.md, one per section, from one run of
# `scripts/gpu-run.sh --perf RUN tune,matmul,dispatch,transfers` (its folders
# matmul/, dispatch-1/ and transfers/), into docs/: performance-sgemm.svg,
# performance-memory-bound.svg, performance-dispatch.svg and
# performance-transfers.svg.
#
# Needs gnuplot (Debian: gnuplot-nox; scripts/setup.sh --bench installs it).
set -euo pipefail
command -v gnuplot >/dev/null ||
  { echo "plot.sh: gnuplot is not installed (scripts/setup.sh --bench, or apt-get install gnuplot-nox)" >&2; exit 1; }

docs=""
if [ "${1:-}" = --docs ]; then
  [ $# -eq 2 ] || { echo "usage: bench/plot.sh --docs RUN" >&2; exit 2; }
  docs="$(cd "$(dirname "$0")/../docs" && pwd)"
  run="$2"
  format=svg
else
  dir="${1:-bench-results}"
  format="${2:-svg}"
  [ -f "$dir/matmul.csv" ] || [ -f "$dir/transfers.csv" ] || [ -f "$dir/tile_average.csv" ] ||
    [ -f "$dir/dispatch.csv" ] ||
    { echo "plot.sh: no amp_bench CSV files in $dir; run amp_bench --out $dir first" >&2; exit 1; }
fi

case "$format" in
  png) terminal="pngcairo size 1000,600"; wide="pngcairo size 1400,600" ;;
  *) terminal="svg size 1000,600 dynamic background rgb 'white'"
     wide="svg size 1400,600 dynamic background rgb 'white'" ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# gnuplot's title text: underscores are not subscripts.
escape() { printf '%s' "${1//_/\\\\_}"; }

# Each plot_KIND CSV OUT draws OUT from CSV.
plot_matmul() {
  local csv=$1 out=$2 data="$tmp/matmul.dat"
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
  local device names=() plot="" i
  device="$(sed -n 's/^# device //p' "$data")"
  mapfile -t names < <(sed -n 's/^# \(.*\)$/\1/p' "$data" | grep -v '^device ')
  [ "${#names[@]}" -gt 0 ] || { echo "plot.sh: no square sizes in $csv" >&2; return 1; }
  for i in "${!names[@]}"; do
    plot+="${plot:+, }'$data' index $i using 1:2 with linespoints title '${names[$i]}'"
  done
  gnuplot <<EOF
set terminal $terminal
set output '$out'
set title "SGEMM on $(escape "$device")"
set xlabel 'n (M = N = K)'
set ylabel 'GFLOP/s (median)'
set logscale y
set grid
set key outside right
plot $plot
EOF
  echo "$out"
}

plot_transfers() {
  local csv=$1 out=$2 direction data device
  local plots=() names=() plot i
  for direction in upload download; do
    data="$tmp/$direction.dat"
    # One block per implementation: "MiB gbps" lines.
    awk -F, -v want="$direction" 'NR > 1 {
        gsub(/"/, "")
        if ($3 != want) next
        if (!($2 in seen)) { seen[$2] = ++count; name[count] = $2 }
        rows[$2] = rows[$2] ($4 / 1048576) " " $7 "\n"
        device = $1
    }
    END {
        for (i = 1; i <= count; i++) printf "# %s\n%s\n\n", name[i], rows[name[i]]
        printf "# device %s\n", device
    }' "$csv" > "$data"
    device="$(sed -n 's/^# device //p' "$data")"
    mapfile -t names < <(sed -n 's/^# \(.*\)$/\1/p' "$data" | grep -v '^device ')
    [ "${#names[@]}" -gt 0 ] || { echo "plot.sh: no $direction rows in $csv" >&2; return 1; }
    plot=""
    for i in "${!names[@]}"; do
      plot+="${plot:+, }'$data' index $i using 1:2 with linespoints title '${names[$i]//_/ }'"
    done
    plots+=("set title '$direction'; plot $plot")
  done
  gnuplot <<EOF
set terminal $wide
set output '$out'
set multiplot layout 1,2 title "Transfers on $(escape "$device") (GB/s, median)"
set xlabel 'MiB'
set ylabel 'GB/s'
set logscale x 2
set grid
set key top left
${plots[0]}
${plots[1]}
unset multiplot
EOF
  echo "$out"
}

plot_tile() {
  local csv=$1 out=$2 data="$tmp/tile.dat" device
  # "label gbps" lines, in the file's order.
  awk -F, 'NR > 1 {
      gsub(/"/, "")
      label = $2
      if ($4 + 0 > 0) label = label ", T=" $4
      gsub(/_/, " ", label)
      printf "\"%s\" %s\n", label, $7
      device = $1
  }
  END { printf "# device %s\n", device }' "$csv" > "$data"
  device="$(sed -n 's/^# device //p' "$data")"
  gnuplot <<EOF
set terminal $wide
set output '$out'
set title "Memory-bound kernels on $(escape "$device") (GB/s, median)"
set ylabel 'GB/s'
set style data histograms
set style fill solid 0.6
set boxwidth 0.8
set xtics rotate by -35 left
set grid ytics
set yrange [0:*]
set key off
plot '$data' using 2:xtic(1) title 'GB/s (median)'
EOF
  echo "$out"
}

plot_dispatch() {
  local csv=$1 out=$2 data="$tmp/dispatch.dat" device
  # The mode, with the ratio amp / raw where the file has it (the median of
  # the block-by-block ratios).
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ratio_median") ratio = i }
    NR > 1 {
      gsub(/"/, "")
      label = $2
      if (ratio) label = sprintf("%s (amp / raw %.3f)", $2, $ratio)
      printf "\"%s\" %s %s\n", label, $4, $5
      device = $1
  }
  END { printf "# device %s\n", device }' "$csv" > "$data"
  device="$(sed -n 's/^# device //p' "$data")"
  gnuplot <<EOF
set terminal $terminal
set output '$out'
set title "Dispatch on $(escape "$device") (microseconds per launch, median)"
set ylabel 'us per launch'
set style data histograms
set style histogram clustered
set style fill solid 0.6
set grid ytics
set yrange [0:*]
set key top left
plot '$data' using 2:xtic(1) title 'amp\\_parallel\\_for\\_each', '' using 3 title 'raw clEnqueueNDRangeKernel'
EOF
  echo "$out"
}

status=0
if [ -n "$docs" ]; then
  # The memory-bound kernels: the transfers step measures them too; the
  # tile step's run is the other place.
  tile="$run/transfers/tile_average.csv"
  [ -f "$tile" ] || tile="$run/tile/tile_average.csv"
  for plot in "matmul $run/matmul/matmul.csv sgemm" "tile $tile memory-bound" \
              "dispatch $run/dispatch-1/dispatch.csv dispatch" \
              "transfers $run/transfers/transfers.csv transfers"; do
    read -r kind csv name <<<"$plot"
    if [ -f "$csv" ]; then
      "plot_$kind" "$csv" "$docs/performance-$name.svg" || status=1
    else
      echo "plot.sh: no $csv: docs/performance-$name.svg is left as it is" >&2
      status=1
    fi
  done
  exit $status
fi
if [ -f "$dir/matmul.csv" ]; then plot_matmul "$dir/matmul.csv" "$dir/matmul.$format" || status=1; fi
if [ -f "$dir/transfers.csv" ]; then
  plot_transfers "$dir/transfers.csv" "$dir/transfers.$format" || status=1
fi
if [ -f "$dir/tile_average.csv" ]; then
  plot_tile "$dir/tile_average.csv" "$dir/tile_average.$format" || status=1
fi
if [ -f "$dir/dispatch.csv" ]; then
  plot_dispatch "$dir/dispatch.csv" "$dir/dispatch.$format" || status=1
fi
exit $status
