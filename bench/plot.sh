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
# drawn when its CSV file is there. Needs gnuplot (Debian: gnuplot-nox).
set -euo pipefail
dir="${1:-bench-results}"
format="${2:-svg}"
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot is not installed (apt-get install gnuplot-nox)" >&2; exit 1; }
[ -f "$dir/matmul.csv" ] || [ -f "$dir/transfers.csv" ] || [ -f "$dir/tile_average.csv" ] ||
  [ -f "$dir/dispatch.csv" ] ||
  { echo "plot.sh: no amp_bench CSV files in $dir; run amp_bench --out $dir first" >&2; exit 1; }

case "$format" in
  png) terminal="pngcairo size 1000,600"; wide="pngcairo size 1400,600" ;;
  *) terminal="svg size 1000,600 dynamic"; wide="svg size 1400,600 dynamic" ;;
esac
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# gnuplot's title text: underscores are not subscripts.
escape() { printf '%s' "${1//_/\\\\_}"; }

plot_matmul() {
  local csv="$dir/matmul.csv" out="$dir/matmul.$format" data="$tmp/matmul.dat"
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
  local csv="$dir/transfers.csv" out="$dir/transfers.$format" direction data device
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
  local csv="$dir/tile_average.csv" out="$dir/tile_average.$format" data="$tmp/tile.dat" device
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
plot '$data' using 2:xtic(1)
EOF
  echo "$out"
}

plot_dispatch() {
  local csv="$dir/dispatch.csv" out="$dir/dispatch.$format" data="$tmp/dispatch.dat" device
  awk -F, 'NR > 1 {
      gsub(/"/, "")
      printf "\"%s\" %s %s\n", $2, $4, $5
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
if [ -f "$dir/matmul.csv" ]; then plot_matmul || status=1; fi
if [ -f "$dir/transfers.csv" ]; then plot_transfers || status=1; fi
if [ -f "$dir/tile_average.csv" ]; then plot_tile || status=1; fi
if [ -f "$dir/dispatch.csv" ]; then plot_dispatch || status=1; fi
exit $status
