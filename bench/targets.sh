#!/usr/bin/env bash
# Say, in one Markdown table, whether amp_bench's figures in DIR meet the
# transfer and memory-bound targets of docs/performance.md:
#
#   - a view over amp_host_alloc memory moves at >= 0.9x pinned cudaMemcpy,
#     each way (where CUDA was not measured: >= 0.9x clEnqueueWrite/ReadBuffer
#     from pinned memory);
#   - a view over malloc memory moves at least as fast as pageable cudaMemcpy
#     (or clEnqueueWrite/ReadBuffer from malloc memory), aiming for 2x;
#   - tile averaging reaches >= 0.85x the device's own copy, at every T, with
#     the better of its two kernels;
#   - the library's untiled copy kernel reaches >= 0.9x the device's copy.
#
# Transfers are judged at the largest size in transfers.csv (1 GiB on a GPU).
#   bench/targets.sh [DIR]      DIR holds transfers.csv and tile_average.csv
#                               (amp_bench --only transfers,tile --out DIR)
set -euo pipefail
dir="${1:-bench-results}"
transfers="$dir/transfers.csv"
tile="$dir/tile_average.csv"
[ -f "$transfers" ] || [ -f "$tile" ] ||
  { echo "targets.sh: no transfers.csv or tile_average.csv in $dir" >&2; exit 1; }

echo "| target | the library | the reference | ratio | met |"
echo "|---|---:|---:|---:|---|"

if [ -f "$transfers" ]; then
  awk -F, '
    NR > 1 {
      gsub(/"/, "")
      gbps[$2 "," $3 "," $4] = $7
      ok[$2 "," $3 "," $4] = $10
      if ($4 + 0 > largest) largest = $4 + 0
      have[$2] = 1
    }
    function row(what, lib, ref, dir, need, aim,    l, r, ratio, verdict, key) {
      key = "," dir "," largest
      if (!((lib key) in gbps) || !((ref key) in gbps)) {
        printf "| %s | - | - | - | not measured |\n", what
        return
      }
      l = gbps[lib key]; r = gbps[ref key]
      ratio = (r > 0) ? l / r : 0
      verdict = (ok[lib key] != 1) ? "**no**: a wrong result" : ((ratio >= need) ? "yes" : "**no**")
      if (aim > 0 && ok[lib key] == 1 && ratio >= need)
        verdict = verdict ((ratio >= aim) ? sprintf(" (and the aim, %.1fx)", aim) : sprintf(" (the aim is %.1fx)", aim))
      printf "| %s | %.2f GB/s | %.2f GB/s (%s) | %.2f | %s |\n", what, l, r, label[ref], ratio, verdict
    }
    END {
      label["cuda_pinned"] = "cudaMemcpy, pinned"
      label["cuda_pageable"] = "cudaMemcpy, pageable"
      label["cl_pinned"] = "clEnqueueWrite/ReadBuffer, pinned"
      label["cl_malloc"] = "clEnqueueWrite/ReadBuffer, malloc"
      pin = ("cuda_pinned" in have) ? "cuda_pinned" : "cl_pinned"
      page = ("cuda_pageable" in have) ? "cuda_pageable" : "cl_malloc"
      mib = largest / 1048576
      row(sprintf("upload of a view over amp_host_alloc memory, %d MiB: >= 0.9x pinned", mib),
          "amp_pinned", pin, "upload", 0.9, 0)
      row(sprintf("download into amp_host_alloc memory, %d MiB: >= 0.9x pinned", mib),
          "amp_pinned", pin, "download", 0.9, 0)
      row(sprintf("upload of a view over malloc memory, %d MiB: >= 1x pageable", mib),
          "amp_malloc", page, "upload", 1.0, 2.0)
      row(sprintf("download into malloc memory, %d MiB: >= 1x pageable", mib),
          "amp_malloc", page, "download", 1.0, 2.0)
    }' "$transfers"
fi

if [ -f "$tile" ]; then
  awk -F, '
    NR == 1 { next }
    {
      gsub(/"/, "")
      kernel = $2; T = $4; g = $7
      if (kernel ~ /^device_copy/) {
        if (g > device) { device = g; device_name = kernel }
      } else if (kernel ~ /^copy_/) {
        if (g > copy) { copy = g; copy_name = kernel }
      } else {
        if (!(T in best) || g > best[T]) { best[T] = g; best_name[T] = kernel }
        tiles[T] = 1
      }
    }
    END {
      if (device == 0) {
        print "| tile averaging: >= 0.85x the device copy | - | - | - | not measured: no device copy |"
        print "| the untiled copy kernel: >= 0.9x the device copy | - | - | - | not measured: no device copy |"
        exit
      }
      ref = (device_name == "device_copy_cuda") ? "cudaMemcpy device to device" : "clEnqueueCopyBuffer"
      least = -1
      for (T in tiles) {
        r = best[T] / device
        if (least < 0 || r < least) { least = r; leastT = T; leastg = best[T]; leastk = best_name[T] }
      }
      if (least >= 0)
        printf "| tile averaging, the better kernel at every T: >= 0.85x the device copy | %.1f GB/s (T = %d, %s, the weakest) | %.1f GB/s (%s) | %.2f | %s |\n",
               leastg, leastT, leastk, device, ref, least, ((least >= 0.85) ? "yes" : "**no**")
      r = copy / device
      printf "| the untiled copy kernel (the fastest of 2D, 1D and 1D float4): >= 0.9x the device copy | %.1f GB/s (%s) | %.1f GB/s (%s) | %.2f | %s |\n",
             copy, copy_name, device, ref, r, ((r >= 0.9) ? "yes" : "**no**")
    }' "$tile"
fi
