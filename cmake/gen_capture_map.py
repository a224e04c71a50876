#!/usr/bin/env python3
"""Print amp/capture_map.h's macro block for up to N captures (default 32)."""
import sys

N = int(sys.argv[1]) if len(sys.argv) > 1 else 32
print("/* The number of arguments, 1 to %d. */" % N)
print("#define AMP__NARGS(...) AMP__NARGS_(__VA_ARGS__, %s)" % ", ".join(str(i) for i in range(N, 0, -1)))
print("#define AMP__NARGS_(%s, n, ...) n" % ", ".join("_%d" % i for i in range(1, N + 1)))
print("#define AMP__CAT(a, b) AMP__CAT_(a, b)")
print("#define AMP__CAT_(a, b) a##b")
print("/* f(x) for each argument, separated by commas. */")
print("#define AMP__MAP(f, ...) AMP__CAT(AMP__MAP_, AMP__NARGS(__VA_ARGS__))(f, __VA_ARGS__)")
print("#define AMP__MAP_1(f, x) f(x)")
for i in range(2, N + 1):
    print("#define AMP__MAP_%d(f, x, ...) f(x), AMP__MAP_%d(f, __VA_ARGS__)" % (i, i - 1))
