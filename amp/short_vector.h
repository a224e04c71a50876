/*
 * amp/short_vector.h - C++ AMP's short vectors (concurrency::graphics's
 * int_2 ... double_4) on the host: their types, laid out as C++ AMP lays
 * them out, and C++ AMP's operators as functions.
 *
 * A short vector is an element type of views and arrays (AMP_FLOAT_3 ...,
 * amp/array_view.h), a value a kernel captures (AMP_CAPTURE(v, gravity)
 * with an amp_float_3 gravity), a member of an AMP_STRUCT, and a value in
 * AMP_SHARED_FUNCTION code, which runs on both sides:
 *
 *     AMP_SHARED_FUNCTION(float_3, drift, (float_3 p, float_3 v, float dt),
 *                         { return amp_float_3_add(p, amp_float_3_scale(v, dt)); });
 *
 * Inside kernels float_3 is OpenCL's float3, with C++ AMP's operators
 * (a + b, v * 2.0f, v.x, v.xy, v.rgb); the functions below work there too,
 * under the same names, so that code written once means the same on both
 * sides.
 *
 * Layout: an amp_T_N is N values of T, as C++ AMP's T_N: amp_float_3 is 12
 * bytes, so an array of them is what a float_3 array is in C++ AMP (OpenCL's
 * float3 is 16 bytes; kernels read views of 3-vectors as 12 bytes each). A
 * vector of 2 or 4 values is aligned to its size, as OpenCL aligns it (to
 * 16 bytes at most), so that a struct holding one is laid out alike on
 * both sides (amp_struct_register checks it).
 *
 * Names: every name here starts with amp_, except C++ AMP's own type names
 * (int_2, uint_3, float_4, double_2 ...), which are typedefs of the amp_
 * types so that ported code keeps them. A program that has names of its own
 * like those defines AMP_NO_SHORT_VECTOR_NAMES before including any amp/
 * header, and writes amp_float_3 (which kernels know too).
 *
 * The operations of each type T_N (T int, uint, float, double; N 2, 3, 4),
 * as static inline functions; a and b are amp_T_N values, s a T:
 *
 *   amp_T_N_make(x, y[, z[, w]])   T_N(x, y, z): from its components
 *   amp_T_N_splat(s)               T_N(s): every component s
 *   amp_T_N_from_U_N(v)            explicit T_N(U_N): each component
 *                                  converted as C converts (U another type)
 *   amp_T_N_add(a, b), _sub, _mul, _div       a + b, a - b, a * b, a / b
 *   amp_T_N_scale(a, s)            a * s
 *   amp_T_N_neg(a)                 -a (not for uint)
 *   amp_T_N_eq(a, b), _ne          a == b, a != b: 1 or 0
 *   for int and uint also:
 *   amp_T_N_mod(a, b), _and, _or, _xor, _shl, _shr, _not (~a)
 *
 * Compound assignments are these with the result stored: a += b is
 * a = amp_float_3_add(a, b). Components are members: v.x, v.y, v.z, v.w
 * (C++ AMP's .r .g .b .a and swizzles like .xy are kernels' spellings; on
 * the host write the members).
 */
#ifndef AMP_SHORT_VECTOR_H
#define AMP_SHORT_VECTOR_H

#include "array_view.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The types ---- */

#ifdef __cplusplus
#define AMP__SV_ALIGNED(n) alignas(n)
#else
#define AMP__SV_ALIGNED(n) _Alignas(n)
#endif

/* N values of int, unsigned, float or double, in order x, y, z, w. */
typedef struct amp_int_2 {
    AMP__SV_ALIGNED(8) int x;
    int y;
} amp_int_2;
typedef struct amp_int_3 {
    int x, y, z;
} amp_int_3;
typedef struct amp_int_4 {
    AMP__SV_ALIGNED(16) int x;
    int y, z, w;
} amp_int_4;
typedef struct amp_uint_2 {
    AMP__SV_ALIGNED(8) unsigned x;
    unsigned y;
} amp_uint_2;
typedef struct amp_uint_3 {
    unsigned x, y, z;
} amp_uint_3;
typedef struct amp_uint_4 {
    AMP__SV_ALIGNED(16) unsigned x;
    unsigned y, z, w;
} amp_uint_4;
typedef struct amp_float_2 {
    AMP__SV_ALIGNED(8) float x;
    float y;
} amp_float_2;
typedef struct amp_float_3 {
    float x, y, z;
} amp_float_3;
typedef struct amp_float_4 {
    AMP__SV_ALIGNED(16) float x;
    float y, z, w;
} amp_float_4;
typedef struct amp_double_2 {
    AMP__SV_ALIGNED(16) double x;
    double y;
} amp_double_2;
typedef struct amp_double_3 {
    double x, y, z;
} amp_double_3;
/* OpenCL aligns a double4 to 32 bytes; C's allocators promise 16, so this
 * one is aligned to 16, and a struct whose double_4 member OpenCL would
 * place elsewhere is refused by amp_struct_register (put it first). */
typedef struct amp_double_4 {
    AMP__SV_ALIGNED(16) double x;
    double y, z, w;
} amp_double_4;

#ifndef AMP_NO_SHORT_VECTOR_NAMES
/* C++ AMP's names (concurrency::graphics), as kernels spell them too. */
typedef amp_int_2 int_2;
typedef amp_int_3 int_3;
typedef amp_int_4 int_4;
typedef amp_uint_2 uint_2;
typedef amp_uint_3 uint_3;
typedef amp_uint_4 uint_4;
typedef amp_float_2 float_2;
typedef amp_float_3 float_3;
typedef amp_float_4 float_4;
typedef amp_double_2 double_2;
typedef amp_double_3 double_3;
typedef amp_double_4 double_4;
#endif

/* ---- Internals: the functions, written once for each type ---- */

/* Each component of a vector of N, as an expression of the component c. */
#define AMP__SV_EACH_2(f) f(x), f(y)
#define AMP__SV_EACH_3(f) f(x), f(y), f(z)
#define AMP__SV_EACH_4(f) f(x), f(y), f(z), f(w)
#define AMP__SV_ALL_2(f) (f(x) && f(y))
#define AMP__SV_ALL_3(f) (f(x) && f(y) && f(z))
#define AMP__SV_ALL_4(f) (f(x) && f(y) && f(z) && f(w))
#define AMP__SV_PARAMS_2(T) T x, T y
#define AMP__SV_PARAMS_3(T) T x, T y, T z
#define AMP__SV_PARAMS_4(T) T x, T y, T z, T w
#define AMP__SV_ME(c) c
#define AMP__SV_S(c) s
#define AMP__SV_ADD(c) a.c + b.c
#define AMP__SV_SUB(c) a.c - b.c
#define AMP__SV_MUL(c) a.c *b.c
#define AMP__SV_DIV(c) a.c / b.c
#define AMP__SV_SCALE(c) a.c *s
#define AMP__SV_NEG(c) -a.c
#define AMP__SV_EQ(c) a.c == b.c
#define AMP__SV_MOD(c) a.c % b.c
#define AMP__SV_AND(c) a.c &b.c
#define AMP__SV_OR(c) a.c | b.c
#define AMP__SV_XOR(c) a.c ^ b.c
#define AMP__SV_SHL(c) a.c << b.c
#define AMP__SV_SHR(c) a.c >> b.c
#define AMP__SV_NOT(c) ~a.c

/* A function of name returning V, whose value is V{each component as f}. */
#define AMP__SV_FN1(V, N, name, f)                                                                 \
    static inline V name(V a)                                                                      \
    {                                                                                              \
        V r = {AMP__SV_EACH_##N(f)};                                                               \
        return r;                                                                                  \
    }
#define AMP__SV_FN2(V, N, name, f)                                                                 \
    static inline V name(V a, V b)                                                                 \
    {                                                                                              \
        V r = {AMP__SV_EACH_##N(f)};                                                               \
        return r;                                                                                  \
    }

/* The operations every short vector has. */
#define AMP__SV_COMMON(V, T, N)                                                                    \
    static inline V V##_make(AMP__SV_PARAMS_##N(T))                                                \
    {                                                                                              \
        V r = {AMP__SV_EACH_##N(AMP__SV_ME)};                                                      \
        return r;                                                                                  \
    }                                                                                              \
    static inline V V##_splat(T s)                                                                 \
    {                                                                                              \
        V r = {AMP__SV_EACH_##N(AMP__SV_S)};                                                       \
        return r;                                                                                  \
    }                                                                                              \
    AMP__SV_FN2(V, N, V##_add, AMP__SV_ADD)                                                        \
    AMP__SV_FN2(V, N, V##_sub, AMP__SV_SUB)                                                        \
    AMP__SV_FN2(V, N, V##_mul, AMP__SV_MUL)                                                        \
    AMP__SV_FN2(V, N, V##_div, AMP__SV_DIV)                                                        \
    static inline V V##_scale(V a, T s)                                                            \
    {                                                                                              \
        V r = {AMP__SV_EACH_##N(AMP__SV_SCALE)};                                                   \
        return r;                                                                                  \
    }                                                                                              \
    static inline int V##_eq(V a, V b)                                                             \
    {                                                                                              \
        return AMP__SV_ALL_##N(AMP__SV_EQ);                                                        \
    }                                                                                              \
    static inline int V##_ne(V a, V b)                                                             \
    {                                                                                              \
        return !V##_eq(a, b);                                                                      \
    }

/* The operations of int and uint vectors besides. */
#define AMP__SV_INTEGER(V, N)                                                                      \
    AMP__SV_FN2(V, N, V##_mod, AMP__SV_MOD)                                                        \
    AMP__SV_FN2(V, N, V##_and, AMP__SV_AND)                                                        \
    AMP__SV_FN2(V, N, V##_or, AMP__SV_OR)                                                          \
    AMP__SV_FN2(V, N, V##_xor, AMP__SV_XOR)                                                        \
    AMP__SV_FN2(V, N, V##_shl, AMP__SV_SHL)                                                        \
    AMP__SV_FN2(V, N, V##_shr, AMP__SV_SHR)                                                        \
    AMP__SV_FN1(V, N, V##_not, AMP__SV_NOT)

/* V_from_U_N(v): each component converted to T, as a C cast converts it. */
#define AMP__SV_CAST(c) (T_) v.c
#define AMP__SV_FROM(V, T, U, N)                                                                   \
    static inline V V##_from_##U##_##N(amp_##U##_##N v)                                            \
    {                                                                                              \
        typedef T T_;                                                                              \
        V r = {AMP__SV_EACH_##N(AMP__SV_CAST)};                                                    \
        return r;                                                                                  \
    }

/* clang-format off */
#define AMP__SV_TYPE(S, T, N, A, B, C)                                                             \
    AMP__SV_COMMON(amp_##S##_##N, T, N)                                                            \
    AMP__SV_FROM(amp_##S##_##N, T, A, N)                                                           \
    AMP__SV_FROM(amp_##S##_##N, T, B, N)                                                           \
    AMP__SV_FROM(amp_##S##_##N, T, C, N)

#define AMP__SV_SIZES(S, T, A, B, C) AMP__SV_TYPE(S, T, 2, A, B, C) AMP__SV_TYPE(S, T, 3, A, B, C) \
    AMP__SV_TYPE(S, T, 4, A, B, C)

AMP__SV_SIZES(int, int, uint, float, double)
AMP__SV_SIZES(uint, unsigned, int, float, double)
AMP__SV_SIZES(float, float, int, uint, double)
AMP__SV_SIZES(double, double, int, uint, float)
AMP__SV_FN1(amp_int_2, 2, amp_int_2_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_int_3, 3, amp_int_3_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_int_4, 4, amp_int_4_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_float_2, 2, amp_float_2_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_float_3, 3, amp_float_3_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_float_4, 4, amp_float_4_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_double_2, 2, amp_double_2_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_double_3, 3, amp_double_3_neg, AMP__SV_NEG)
AMP__SV_FN1(amp_double_4, 4, amp_double_4_neg, AMP__SV_NEG)
AMP__SV_INTEGER(amp_int_2, 2)
AMP__SV_INTEGER(amp_int_3, 3)
AMP__SV_INTEGER(amp_int_4, 4)
AMP__SV_INTEGER(amp_uint_2, 2)
AMP__SV_INTEGER(amp_uint_3, 3)
AMP__SV_INTEGER(amp_uint_4, 4)
/* clang-format on */

#ifdef __cplusplus
}
#endif

#endif
