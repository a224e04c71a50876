#!/usr/bin/env bash
# What a repeated launch costs the library, in instructions: one tiny
# kernel launched LAUNCHES times under callgrind on the default device, and
# the instructions per launch inside amp_parallel_for_each and inside the
# driver's clEnqueueNDRangeKernel (the library's own is the difference),
# and those of libamp.so's own code.
# Unlike a time, the count is the same on a busy machine; run it on two
# builds to compare them (docs/performance.md, "Dispatch").
#   bench/launch-instructions.sh BUILD_DIR [LAUNCHES] [set|turns]
# With "set", the same launches go over a set of one view, the default
# (amp/accelerator_set.h), counted inside amp_parallel_for_each_set: what a
# set of one costs against the plain launch of the run without it. With
# "turns", two tiny kernels take turns, the second reading what the first
# wrote (b = a + 1, then c = 2 b), as a product and its packing kernel do.
# BUILD_DIR is a Release build of any tree of this library, with its shared
# library built (cmake --build BUILD_DIR --target amp_shared). Needs
# valgrind and a C compiler.
set -euo pipefail
build=$(cd "$1" && pwd)
n=${2:-3000}
mode=${3:-plain}
entry=amp_parallel_for_each
[ "$mode" = set ] && entry=amp_parallel_for_each_set
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/launch_loop.c" <<'EOF'
#include <amp/amp.h>
#include <stdio.h>
#include <stdlib.h>
/* tiny(i, domain, v): launch i of the loop. */
#ifdef ON_SET
static amp_accelerator_set *set;
static amp_status tiny(int i, amp_extent domain, amp_array_view *v)
{
    (void)i;
    return AMP_PARALLEL_FOR_EACH_ON(set, domain, idx, AMP_CAPTURE(v), { v(idx[0]) += 1.0f; });
}
#elif defined(IN_TURNS)
static amp_array_view *b, *c;
static amp_status first(amp_extent domain, amp_array_view *a)
{
    return AMP_PARALLEL_FOR_EACH(domain, idx, AMP_CAPTURE(a, b), { b(idx[0]) = a(idx[0]) + 1.0f; });
}
static amp_status second(amp_extent domain)
{
    return AMP_PARALLEL_FOR_EACH(domain, idx, AMP_CAPTURE(b, c), { c(idx[0]) = 2.0f * b(idx[0]); });
}
static amp_status tiny(int i, amp_extent domain, amp_array_view *v)
{
    return i % 2 ? second(domain) : first(domain, v);
}
#else
static amp_status tiny(int i, amp_extent domain, amp_array_view *v)
{
    (void)i;
    return AMP_PARALLEL_FOR_EACH(domain, idx, AMP_CAPTURE(v), { v(idx[0]) += 1.0f; });
}
#endif
/* The repeated launches, the only ones callgrind counts. */
__attribute__((noinline)) static int loop_launches(amp_array_view *v, int n)
{
    for (int i = 0; i < n; i++)
        if (tiny(i, amp_extent_1d(256), v) != AMP_OK) {
            printf("%s\n", amp_last_error());
            return 1;
        }
    return 0;
}
int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2000;
    static float data[256];
    amp_array_view *v = NULL;
    if (amp_array_view_create(AMP_FLOAT, amp_extent_1d(256), data, &v) != AMP_OK)
        return 1;
#ifdef IN_TURNS
    if (amp_array_view_create_extent(AMP_FLOAT, amp_extent_1d(256), &b) != AMP_OK ||
        amp_array_view_create_extent(AMP_FLOAT, amp_extent_1d(256), &c) != AMP_OK)
        return 1;
#endif
#ifdef ON_SET
    amp_accelerator_view *av;
    if (amp_accelerator_get_default_view(NULL, &av) != AMP_OK ||
        amp_accelerator_set_create(&av, 1, NULL, &set) != AMP_OK)
        return 1;
#endif
    if (tiny(0, amp_extent_1d(256), v) != AMP_OK || tiny(1, amp_extent_1d(256), v) != AMP_OK ||
        loop_launches(v, n))
        return 1;
    amp_accelerator_view_wait(NULL);
    amp_array_view_release(v);
    printf("ok %g\n", data[0]);
    return 0;
}
EOF
defines=""
[ "$mode" = set ] && defines=-DON_SET
[ "$mode" = turns ] && defines=-DIN_TURNS
cc -O2 $defines -I"$src" -I"$build/include" "$work/launch_loop.c" -L"$build/runtime" -lamp \
  -Wl,-rpath,"$build/runtime" -o "$work/launch_loop"
AMP_CACHE=0 "$work/launch_loop" 10 >/dev/null # the driver's own cache, filled once
AMP_CACHE=0 valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
  --toggle-collect=loop_launches "$work/launch_loop" "$n" >/dev/null 2>"$work/vg.log"
callgrind_annotate --inclusive=yes "$work/cg.out" 2>/dev/null |
  grep -E ":($entry|clEnqueueNDRangeKernel) " |
  awk -v n="$n" -v entry="$entry" '{gsub(",", "", $1); split($3, f, ":"); v[f[2]] = $1 / n}
    END {printf "%8.1f instructions per launch in %s\n", v[entry], entry;
         printf "%8.1f of them in clEnqueueNDRangeKernel\n", v["clEnqueueNDRangeKernel"];
         printf "%8.1f the library'"'"'s own\n", v[entry] - v["clEnqueueNDRangeKernel"]}'
# The library's own code alone, without the C library's mutex, whose
# count moves from run to run with the driver's threads.
callgrind_annotate "$work/cg.out" 2>/dev/null | grep "libamp\.so" |
  awk -v n="$n" '{gsub(",", "", $1); s += $1} END {printf "%8.1f in libamp.so itself\n", s / n}'
