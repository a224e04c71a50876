/*
 * amp/capture_map.h - preprocessor helpers behind AMP_CAPTURE(). Internal:
 * the names start with AMP__ and may change. Generated for up to 32
 * captures; regenerate with the script in cmake/gen_capture_map.py.
 */
#ifndef AMP_CAPTURE_MAP_H
#define AMP_CAPTURE_MAP_H

/* The number of arguments, 1 to 32. */
#define AMP__NARGS(...) AMP__NARGS_(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define AMP__NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, n, ...) n
#define AMP__CAT(a, b) AMP__CAT_(a, b)
#define AMP__CAT_(a, b) a##b
/* f(x) for each argument, separated by commas. */
#define AMP__MAP(f, ...) AMP__CAT(AMP__MAP_, AMP__NARGS(__VA_ARGS__))(f, __VA_ARGS__)
#define AMP__MAP_1(f, x) f(x)
#define AMP__MAP_2(f, x, ...) f(x), AMP__MAP_1(f, __VA_ARGS__)
#define AMP__MAP_3(f, x, ...) f(x), AMP__MAP_2(f, __VA_ARGS__)
#define AMP__MAP_4(f, x, ...) f(x), AMP__MAP_3(f, __VA_ARGS__)
#define AMP__MAP_5(f, x, ...) f(x), AMP__MAP_4(f, __VA_ARGS__)
#define AMP__MAP_6(f, x, ...) f(x), AMP__MAP_5(f, __VA_ARGS__)
#define AMP__MAP_7(f, x, ...) f(x), AMP__MAP_6(f, __VA_ARGS__)
#define AMP__MAP_8(f, x, ...) f(x), AMP__MAP_7(f, __VA_ARGS__)
#define AMP__MAP_9(f, x, ...) f(x), AMP__MAP_8(f, __VA_ARGS__)
#define AMP__MAP_10(f, x, ...) f(x), AMP__MAP_9(f, __VA_ARGS__)
#define AMP__MAP_11(f, x, ...) f(x), AMP__MAP_10(f, __VA_ARGS__)
#define AMP__MAP_12(f, x, ...) f(x), AMP__MAP_11(f, __VA_ARGS__)
#define AMP__MAP_13(f, x, ...) f(x), AMP__MAP_12(f, __VA_ARGS__)
#define AMP__MAP_14(f, x, ...) f(x), AMP__MAP_13(f, __VA_ARGS__)
#define AMP__MAP_15(f, x, ...) f(x), AMP__MAP_14(f, __VA_ARGS__)
#define AMP__MAP_16(f, x, ...) f(x), AMP__MAP_15(f, __VA_ARGS__)
#define AMP__MAP_17(f, x, ...) f(x), AMP__MAP_16(f, __VA_ARGS__)
#define AMP__MAP_18(f, x, ...) f(x), AMP__MAP_17(f, __VA_ARGS__)
#define AMP__MAP_19(f, x, ...) f(x), AMP__MAP_18(f, __VA_ARGS__)
#define AMP__MAP_20(f, x, ...) f(x), AMP__MAP_19(f, __VA_ARGS__)
#define AMP__MAP_21(f, x, ...) f(x), AMP__MAP_20(f, __VA_ARGS__)
#define AMP__MAP_22(f, x, ...) f(x), AMP__MAP_21(f, __VA_ARGS__)
#define AMP__MAP_23(f, x, ...) f(x), AMP__MAP_22(f, __VA_ARGS__)
#define AMP__MAP_24(f, x, ...) f(x), AMP__MAP_23(f, __VA_ARGS__)
#define AMP__MAP_25(f, x, ...) f(x), AMP__MAP_24(f, __VA_ARGS__)
#define AMP__MAP_26(f, x, ...) f(x), AMP__MAP_25(f, __VA_ARGS__)
#define AMP__MAP_27(f, x, ...) f(x), AMP__MAP_26(f, __VA_ARGS__)
#define AMP__MAP_28(f, x, ...) f(x), AMP__MAP_27(f, __VA_ARGS__)
#define AMP__MAP_29(f, x, ...) f(x), AMP__MAP_28(f, __VA_ARGS__)
#define AMP__MAP_30(f, x, ...) f(x), AMP__MAP_29(f, __VA_ARGS__)
#define AMP__MAP_31(f, x, ...) f(x), AMP__MAP_30(f, __VA_ARGS__)
#define AMP__MAP_32(f, x, ...) f(x), AMP__MAP_31(f, __VA_ARGS__)

#endif
