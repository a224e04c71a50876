/*
 * runtime/translate/vocabulary.c - the OpenCL C spelling of C++ AMP's kernel
 * language.
 */
#include "translate/vocabulary.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lexer.h"

#include <stdint.h>

/* Every generated kernel starts with this: what C++ AMP's kernel language
 * has and OpenCL C spells differently. */
static const char prelude[] =
    "/* ---- C++ AMP's kernel vocabulary in OpenCL C ---- */\n"
    "\n"
    "/* tile_static: memory shared by the threads of one tile. */\n"
    "#define tile_static __local\n"
    "\n"
    "/* Every captured view's pointer and extent are set up, whether the body\n"
    "   uses them or not: no warning for those it does not. */\n"
    "#define AMP_MAYBE_UNUSED __attribute__((unused))\n"
    "\n"
    "/* global and local are OpenCL C keywords; renaming them lets the tiled\n"
    "   index have members of those names, as in C++ AMP. Write __global and\n"
    "   __local for the address spaces. */\n"
    "#define global amp_global\n"
    "#define local amp_local\n"
    "\n"
    "/* The barrier. C has no member functions, so t_idx.barrier.wait() expands\n"
    "   to an assignment to a dummy member of a comma expression that calls\n"
    "   barrier() right there, on the body's own line (where a checker's\n"
    "   report of a barrier not every thread reaches should point). */\n"
    "typedef struct amp_tile_barrier {\n"
    "    int done;\n"
    "} amp_tile_barrier;\n"
    "#define wait() done = (barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE), 1)\n"
    "#define wait_with_all_memory_fence() done = (barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE), 1)\n"
    "#define wait_with_global_memory_fence() done = (barrier(CLK_GLOBAL_MEM_FENCE), 1)\n"
    "#define wait_with_tile_static_memory_fence() done = (barrier(CLK_LOCAL_MEM_FENCE), 1)\n"
    "\n"
    "/* index<N> and extent<N>: an int for rank 1, int vectors for ranks 2 to 4,\n"
    "   int8 for ranks 5 to 8 (with unused lanes). + - * / work on them as on\n"
    "   C++ AMP's; the body's == and contains() become the functions below. */\n"
    "typedef int amp_index_1;\ntypedef int amp_extent_1;\n"
    "typedef int2 amp_index_2;\ntypedef int2 amp_extent_2;\n"
    "typedef int3 amp_index_3;\ntypedef int3 amp_extent_3;\n"
    "typedef int4 amp_index_4;\ntypedef int4 amp_extent_4;\n"
    "typedef int8 amp_index_5;\ntypedef int8 amp_extent_5;\n"
    "typedef int8 amp_index_6;\ntypedef int8 amp_extent_6;\n"
    "typedef int8 amp_index_7;\ntypedef int8 amp_extent_7;\n"
    "typedef int8 amp_index_8;\ntypedef int8 amp_extent_8;\n"
    "\n"
    "/* Element access: v(i), v(i, j), v(i, j, k), or v(index), where an index\n"
    "   (index<N>, idx, t_idx.global) is an int for rank 1 and an int vector\n"
    "   for ranks 2 to 4 (int8 up to rank 8). A rank-1 view's one argument is an\n"
    "   integer of any width; the overloads of amp_index_1 take each. */\n"
    "int __attribute__((overloadable)) amp_to_index_1(int i) { return i; }\n"
    "uint __attribute__((overloadable)) amp_to_index_1(uint i) { return i; }\n"
    "long __attribute__((overloadable)) amp_to_index_1(long i) { return i; }\n"
    "ulong __attribute__((overloadable)) amp_to_index_1(ulong i) { return i; }\n"
    "int __attribute__((overloadable)) amp_to_index_1(const int *index) { return index[0]; }\n"
    "int2 __attribute__((overloadable)) amp_to_index_2(int2 index) { return index; }\n"
    "int2 __attribute__((overloadable)) amp_to_index_2(const int *index) { return (int2)(index[0], index[1]); }\n"
    "int3 __attribute__((overloadable)) amp_to_index_3(int3 index) { return index; }\n"
    "int3 __attribute__((overloadable)) amp_to_index_3(const int *index) { return (int3)(index[0], index[1], index[2]); }\n"
    "/* An index must have its view's rank: the overloads below (declared only,\n"
    "   for sizeof) take an index of that rank, and another stops the build with\n"
    "   an error that names the function, on the line of the access. An array\n"
    "   of ints is taken as an index of any rank. One integer, which OpenCL\n"
    "   would widen to a vector, gives an incomplete type, whose sizeof is an\n"
    "   error that names it. */\n"
    "#define AMP_RANK_TAKES(n, vector) \\\n"
    "    char __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(vector); \\\n"
    "    char __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(const int *); \\\n"
    "    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \\\n"
    "        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(int); \\\n"
    "    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \\\n"
    "        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(uint); \\\n"
    "    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \\\n"
    "        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(long); \\\n"
    "    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \\\n"
    "        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(ulong);\n"
    "char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(int);\n"
    "char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(uint);\n"
    "char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(long);\n"
    "char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(ulong);\n"
    "char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(const int *);\n"
    "AMP_RANK_TAKES(2, int2)\n"
    "AMP_RANK_TAKES(3, int3)\n"
    "#define AMP_INDEX_OF_RANK(ix, n) \\\n"
    "    ((void)sizeof(view_of_rank_##n##_given_an_index_of_another_rank(ix)), (ix))\n"
    "#define AMP_INDEX_1(i) AMP_INDEX_OF_RANK(i, 1)\n"
    "/* An element is AMP_PLACE(view, offset): the element itself, except in\n"
    "   padded domains, where an access outside the view lands on a sink. The\n"
    "   offset of an index is computed once, by a function. */\n"
    "#define AMP_PLACE(v, offset) amp_##v##_ptr[offset]\n"
    "amp_off_t amp_offset_2(int2 x, amp_off_t stride0) { return (amp_off_t)x.s0 * stride0 + x.s1; }\n"
    "amp_off_t amp_offset_3(int3 x, amp_off_t stride0, amp_off_t stride1)\n"
    "{\n"
    "    return (amp_off_t)x.s0 * stride0 + (amp_off_t)x.s1 * stride1 + x.s2;\n"
    "}\n"
    "#define AMP_OFFSET_1(v, i) ((amp_off_t)(i))\n"
    "#define AMP_OFFSET_2(v, x) amp_offset_2(x, amp_##v##_stride0)\n"
    "#define AMP_OFFSET_3(v, x) amp_offset_3(x, amp_##v##_stride0, amp_##v##_stride1)\n"
    "#define AMP_PICK2(_1, _2, which, ...) which\n"
    "#define AMP_PICK3(_1, _2, _3, which, ...) which\n"
    "#define AMP_ELEMENT_1(v, i) AMP_PLACE(v, AMP_OFFSET_1(v, amp_to_index_1(i)))\n"
    "#define AMP_ELEMENT_2(v, i, j) AMP_PLACE(v, AMP_OFFSET_2(v, (int2)((i), (j))))\n"
    "#define AMP_ELEMENT_3(v, i, j, k) AMP_PLACE(v, AMP_OFFSET_3(v, (int3)((i), (j), (k))))\n"
    "/* The elements of a view the kernel only reads are values, not places. */\n"
    "#define AMP_READ_ONLY(element) ((void)0, (element))\n"
    "#define AMP_INDEXED_2(v, ix) AMP_PLACE(v, AMP_OFFSET_2(v, amp_to_index_2(AMP_INDEX_OF_RANK(ix, 2))))\n"
    "#define AMP_INDEXED_3(v, ix) AMP_PLACE(v, AMP_OFFSET_3(v, amp_to_index_3(AMP_INDEX_OF_RANK(ix, 3))))\n"
    "#define AMP_ACCESS_1(v, ...) AMP_ELEMENT_1(v, AMP_INDEX_1(__VA_ARGS__))\n"
    "#define AMP_ACCESS_2(v, ...) AMP_PICK2(__VA_ARGS__, AMP_ELEMENT_2, AMP_INDEXED_2, )(v, __VA_ARGS__)\n"
    "#define AMP_ACCESS_3(v, ...) \\\n"
    "    AMP_PICK3(__VA_ARGS__, AMP_ELEMENT_3, AMP_ACCESS_3_TAKES_1_OR_3, AMP_INDEXED_3, )(v, __VA_ARGS__)\n";

const char *amp__vocab_prelude(void)
{
    return prelude;
}

enum { ATOMICS, FENCES, FAST_MATH, PRECISE_MATH, SHORT_VECTORS, GROUPS };

/* What a group needs once, before its first entry. */
static const char *const group_heading[GROUPS] = {
    "\n/* Atomics, as C++ AMP names them: on int and unsigned in __global or\n"
    "   tile_static memory, returning the old value; atomic_exchange also takes\n"
    "   float. Some OpenCL headers define these names for OpenCL 2.0: ours win. */\n"
    "/* OpenCL's atomics take a pointer to any element with only a warning,\n"
    "   and would change the first bytes of a struct: the operand's type is\n"
    "   checked (the overloads are declared only, for sizeof), and any other\n"
    "   element stops the build with an error that names it, on its line. */\n"
    "char __attribute__((overloadable)) amp_atomic_operand(volatile __global int *);\n"
    "char __attribute__((overloadable)) amp_atomic_operand(volatile __global uint *);\n"
    "char __attribute__((overloadable)) amp_atomic_operand(volatile __local int *);\n"
    "char __attribute__((overloadable)) amp_atomic_operand(volatile __local uint *);\n"
    "char __attribute__((overloadable)) amp_atomic_operand(volatile __global float *);\n"
    "char __attribute__((overloadable)) amp_atomic_operand(volatile __local float *);\n"
    "int __attribute__((overloadable)) amp_atomic_operand(const volatile __global void *);\n"
    "int __attribute__((overloadable)) amp_atomic_operand(const volatile __local void *);\n"
    "#define AMP_ATOMIC_OPERAND(p) \\\n"
    "    ((void)sizeof(struct { char atomic_on_an_element_that_is_not_int_unsigned_or_float \\\n"
    "                            [sizeof(amp_atomic_operand(p)) == 1 ? 1 : -1]; }), (p))\n",
    "\n/* Memory fences without a barrier (C++ AMP's free fence functions). */\n",
    "\n/* fast_math: native_ built-ins where OpenCL has them (faster, less precise). */\n"
    "#define AMP_SINCOS_FAST(x, s, c) (*(s) = native_sin(x), *(c) = native_cos(x))\n",
    "\n/* precise_math: OpenCL's built-ins, within their specified precision. */\n"
    "#define AMP_SINCOS(x, s, c) (*(s) = sincos((x), (c)))\n"
    "#define AMP_PHI(x) (0.5f * erfc(-(x) * M_SQRT1_2_F))\n",
    "\n/* C++ AMP's short vectors (graphics::float_4 ...): OpenCL's vectors, made\n"
    "   with float_4(x, y, z, w) as in C++ AMP or (float4)(x, y, z, w). */\n",
};

typedef struct vocab_entry {
    int group;
    const char *name;
    const char *definition;
} vocab_entry;

static const vocab_entry entries[] = {
    {ATOMICS, "atomic_fetch_add",
     "#undef atomic_fetch_add\n#define atomic_fetch_add(p, v) atomic_add(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_fetch_sub",
     "#undef atomic_fetch_sub\n#define atomic_fetch_sub(p, v) atomic_sub(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_fetch_inc",
     "#undef atomic_fetch_inc\n#define atomic_fetch_inc(p) atomic_inc(AMP_ATOMIC_OPERAND(p))\n"},
    {ATOMICS, "atomic_fetch_dec",
     "#undef atomic_fetch_dec\n#define atomic_fetch_dec(p) atomic_dec(AMP_ATOMIC_OPERAND(p))\n"},
    {ATOMICS, "atomic_fetch_max",
     "#undef atomic_fetch_max\n#define atomic_fetch_max(p, v) atomic_max(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_fetch_min",
     "#undef atomic_fetch_min\n#define atomic_fetch_min(p, v) atomic_min(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_fetch_and",
     "#undef atomic_fetch_and\n#define atomic_fetch_and(p, v) atomic_and(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_fetch_or",
     "#undef atomic_fetch_or\n#define atomic_fetch_or(p, v) atomic_or(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_fetch_xor",
     "#undef atomic_fetch_xor\n#define atomic_fetch_xor(p, v) atomic_xor(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_exchange",
     "#undef atomic_exchange\n#define atomic_exchange(p, v) atomic_xchg(AMP_ATOMIC_OPERAND(p), (v))\n"},
    {ATOMICS, "atomic_compare_exchange",
     "/* Swap in v if *p equals *expected; else store *p's value in *expected.\n"
     "   Returns whether it swapped. expected must point at a private variable. */\n"
     "bool amp_compare_exchange_result(__private int *expected, int old)\n"
     "{\n"
     "    bool swapped = old == *expected;\n"
     "    *expected = old;\n"
     "    return swapped;\n"
     "}\n"
     "#undef atomic_compare_exchange\n"
     "#define atomic_compare_exchange(p, expected, v) \\\n"
     "    amp_compare_exchange_result((__private int *)(expected), \\\n"
     "                                (int)atomic_cmpxchg(AMP_ATOMIC_OPERAND(p), *(expected), (v)))\n"},
    {FENCES, "all_memory_fence",
     "#define all_memory_fence(barrier) mem_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)\n"},
    {FENCES, "global_memory_fence",
     "#define global_memory_fence(barrier) mem_fence(CLK_GLOBAL_MEM_FENCE)\n"},
    {FENCES, "tile_static_memory_fence",
     "#define tile_static_memory_fence(barrier) mem_fence(CLK_LOCAL_MEM_FENCE)\n"},
    {2, "fast_math_acos", "#define fast_math_acos(...) acos(__VA_ARGS__)\n"},
    {2, "fast_math_acosf", "#define fast_math_acosf(...) acos(__VA_ARGS__)\n"},
    {2, "fast_math_asin", "#define fast_math_asin(...) asin(__VA_ARGS__)\n"},
    {2, "fast_math_asinf", "#define fast_math_asinf(...) asin(__VA_ARGS__)\n"},
    {2, "fast_math_atan", "#define fast_math_atan(...) atan(__VA_ARGS__)\n"},
    {2, "fast_math_atanf", "#define fast_math_atanf(...) atan(__VA_ARGS__)\n"},
    {2, "fast_math_atan2", "#define fast_math_atan2(...) atan2(__VA_ARGS__)\n"},
    {2, "fast_math_atan2f", "#define fast_math_atan2f(...) atan2(__VA_ARGS__)\n"},
    {2, "fast_math_ceil", "#define fast_math_ceil(...) ceil(__VA_ARGS__)\n"},
    {2, "fast_math_ceilf", "#define fast_math_ceilf(...) ceil(__VA_ARGS__)\n"},
    {2, "fast_math_cos", "#define fast_math_cos(...) native_cos(__VA_ARGS__)\n"},
    {2, "fast_math_cosf", "#define fast_math_cosf(...) native_cos(__VA_ARGS__)\n"},
    {2, "fast_math_cosh", "#define fast_math_cosh(...) cosh(__VA_ARGS__)\n"},
    {2, "fast_math_coshf", "#define fast_math_coshf(...) cosh(__VA_ARGS__)\n"},
    {2, "fast_math_exp", "#define fast_math_exp(...) native_exp(__VA_ARGS__)\n"},
    {2, "fast_math_expf", "#define fast_math_expf(...) native_exp(__VA_ARGS__)\n"},
    {2, "fast_math_exp2", "#define fast_math_exp2(...) native_exp2(__VA_ARGS__)\n"},
    {2, "fast_math_exp2f", "#define fast_math_exp2f(...) native_exp2(__VA_ARGS__)\n"},
    {2, "fast_math_fabs", "#define fast_math_fabs(...) fabs(__VA_ARGS__)\n"},
    {2, "fast_math_fabsf", "#define fast_math_fabsf(...) fabs(__VA_ARGS__)\n"},
    {2, "fast_math_floor", "#define fast_math_floor(...) floor(__VA_ARGS__)\n"},
    {2, "fast_math_floorf", "#define fast_math_floorf(...) floor(__VA_ARGS__)\n"},
    {2, "fast_math_fmax", "#define fast_math_fmax(...) fmax(__VA_ARGS__)\n"},
    {2, "fast_math_fmaxf", "#define fast_math_fmaxf(...) fmax(__VA_ARGS__)\n"},
    {2, "fast_math_fmin", "#define fast_math_fmin(...) fmin(__VA_ARGS__)\n"},
    {2, "fast_math_fminf", "#define fast_math_fminf(...) fmin(__VA_ARGS__)\n"},
    {2, "fast_math_fmod", "#define fast_math_fmod(...) fmod(__VA_ARGS__)\n"},
    {2, "fast_math_fmodf", "#define fast_math_fmodf(...) fmod(__VA_ARGS__)\n"},
    {2, "fast_math_frexp", "#define fast_math_frexp(...) frexp(__VA_ARGS__)\n"},
    {2, "fast_math_frexpf", "#define fast_math_frexpf(...) frexp(__VA_ARGS__)\n"},
    {2, "fast_math_isfinite", "#define fast_math_isfinite(...) isfinite(__VA_ARGS__)\n"},
    {2, "fast_math_isfinitef", "#define fast_math_isfinitef(...) isfinite(__VA_ARGS__)\n"},
    {2, "fast_math_isinf", "#define fast_math_isinf(...) isinf(__VA_ARGS__)\n"},
    {2, "fast_math_isinff", "#define fast_math_isinff(...) isinf(__VA_ARGS__)\n"},
    {2, "fast_math_isnan", "#define fast_math_isnan(...) isnan(__VA_ARGS__)\n"},
    {2, "fast_math_isnanf", "#define fast_math_isnanf(...) isnan(__VA_ARGS__)\n"},
    {2, "fast_math_ldexp", "#define fast_math_ldexp(...) ldexp(__VA_ARGS__)\n"},
    {2, "fast_math_ldexpf", "#define fast_math_ldexpf(...) ldexp(__VA_ARGS__)\n"},
    {2, "fast_math_log", "#define fast_math_log(...) native_log(__VA_ARGS__)\n"},
    {2, "fast_math_logf", "#define fast_math_logf(...) native_log(__VA_ARGS__)\n"},
    {2, "fast_math_log10", "#define fast_math_log10(...) native_log10(__VA_ARGS__)\n"},
    {2, "fast_math_log10f", "#define fast_math_log10f(...) native_log10(__VA_ARGS__)\n"},
    {2, "fast_math_log2", "#define fast_math_log2(...) native_log2(__VA_ARGS__)\n"},
    {2, "fast_math_log2f", "#define fast_math_log2f(...) native_log2(__VA_ARGS__)\n"},
    {2, "fast_math_modf", "#define fast_math_modf(...) modf(__VA_ARGS__)\n"},
    {2, "fast_math_modff", "#define fast_math_modff(...) modf(__VA_ARGS__)\n"},
    {2, "fast_math_pow", "#define fast_math_pow(...) native_powr(__VA_ARGS__)\n"},
    {2, "fast_math_powf", "#define fast_math_powf(...) native_powr(__VA_ARGS__)\n"},
    {2, "fast_math_round", "#define fast_math_round(...) round(__VA_ARGS__)\n"},
    {2, "fast_math_roundf", "#define fast_math_roundf(...) round(__VA_ARGS__)\n"},
    {2, "fast_math_rsqrt", "#define fast_math_rsqrt(...) native_rsqrt(__VA_ARGS__)\n"},
    {2, "fast_math_rsqrtf", "#define fast_math_rsqrtf(...) native_rsqrt(__VA_ARGS__)\n"},
    {2, "fast_math_signbit", "#define fast_math_signbit(...) signbit(__VA_ARGS__)\n"},
    {2, "fast_math_signbitf", "#define fast_math_signbitf(...) signbit(__VA_ARGS__)\n"},
    {2, "fast_math_sin", "#define fast_math_sin(...) native_sin(__VA_ARGS__)\n"},
    {2, "fast_math_sinf", "#define fast_math_sinf(...) native_sin(__VA_ARGS__)\n"},
    {2, "fast_math_sinh", "#define fast_math_sinh(...) sinh(__VA_ARGS__)\n"},
    {2, "fast_math_sinhf", "#define fast_math_sinhf(...) sinh(__VA_ARGS__)\n"},
    {2, "fast_math_sqrt", "#define fast_math_sqrt(...) native_sqrt(__VA_ARGS__)\n"},
    {2, "fast_math_sqrtf", "#define fast_math_sqrtf(...) native_sqrt(__VA_ARGS__)\n"},
    {2, "fast_math_tan", "#define fast_math_tan(...) native_tan(__VA_ARGS__)\n"},
    {2, "fast_math_tanf", "#define fast_math_tanf(...) native_tan(__VA_ARGS__)\n"},
    {2, "fast_math_tanh", "#define fast_math_tanh(...) tanh(__VA_ARGS__)\n"},
    {2, "fast_math_tanhf", "#define fast_math_tanhf(...) tanh(__VA_ARGS__)\n"},
    {2, "fast_math_trunc", "#define fast_math_trunc(...) trunc(__VA_ARGS__)\n"},
    {2, "fast_math_truncf", "#define fast_math_truncf(...) trunc(__VA_ARGS__)\n"},
    {2, "fast_math_sincos", "#define fast_math_sincos(...) AMP_SINCOS_FAST(__VA_ARGS__)\n"},
    {2, "fast_math_sincosf", "#define fast_math_sincosf(...) AMP_SINCOS_FAST(__VA_ARGS__)\n"},
    {3, "precise_math_acos", "#define precise_math_acos(...) acos(__VA_ARGS__)\n"},
    {3, "precise_math_acosf", "#define precise_math_acosf(...) acos(__VA_ARGS__)\n"},
    {3, "precise_math_acosh", "#define precise_math_acosh(...) acosh(__VA_ARGS__)\n"},
    {3, "precise_math_acoshf", "#define precise_math_acoshf(...) acosh(__VA_ARGS__)\n"},
    {3, "precise_math_asin", "#define precise_math_asin(...) asin(__VA_ARGS__)\n"},
    {3, "precise_math_asinf", "#define precise_math_asinf(...) asin(__VA_ARGS__)\n"},
    {3, "precise_math_asinh", "#define precise_math_asinh(...) asinh(__VA_ARGS__)\n"},
    {3, "precise_math_asinhf", "#define precise_math_asinhf(...) asinh(__VA_ARGS__)\n"},
    {3, "precise_math_atan", "#define precise_math_atan(...) atan(__VA_ARGS__)\n"},
    {3, "precise_math_atanf", "#define precise_math_atanf(...) atan(__VA_ARGS__)\n"},
    {3, "precise_math_atan2", "#define precise_math_atan2(...) atan2(__VA_ARGS__)\n"},
    {3, "precise_math_atan2f", "#define precise_math_atan2f(...) atan2(__VA_ARGS__)\n"},
    {3, "precise_math_atanh", "#define precise_math_atanh(...) atanh(__VA_ARGS__)\n"},
    {3, "precise_math_atanhf", "#define precise_math_atanhf(...) atanh(__VA_ARGS__)\n"},
    {3, "precise_math_cbrt", "#define precise_math_cbrt(...) cbrt(__VA_ARGS__)\n"},
    {3, "precise_math_cbrtf", "#define precise_math_cbrtf(...) cbrt(__VA_ARGS__)\n"},
    {3, "precise_math_ceil", "#define precise_math_ceil(...) ceil(__VA_ARGS__)\n"},
    {3, "precise_math_ceilf", "#define precise_math_ceilf(...) ceil(__VA_ARGS__)\n"},
    {3, "precise_math_copysign", "#define precise_math_copysign(...) copysign(__VA_ARGS__)\n"},
    {3, "precise_math_copysignf", "#define precise_math_copysignf(...) copysign(__VA_ARGS__)\n"},
    {3, "precise_math_cos", "#define precise_math_cos(...) cos(__VA_ARGS__)\n"},
    {3, "precise_math_cosf", "#define precise_math_cosf(...) cos(__VA_ARGS__)\n"},
    {3, "precise_math_cosh", "#define precise_math_cosh(...) cosh(__VA_ARGS__)\n"},
    {3, "precise_math_coshf", "#define precise_math_coshf(...) cosh(__VA_ARGS__)\n"},
    {3, "precise_math_cospi", "#define precise_math_cospi(...) cospi(__VA_ARGS__)\n"},
    {3, "precise_math_cospif", "#define precise_math_cospif(...) cospi(__VA_ARGS__)\n"},
    {3, "precise_math_erf", "#define precise_math_erf(...) erf(__VA_ARGS__)\n"},
    {3, "precise_math_erff", "#define precise_math_erff(...) erf(__VA_ARGS__)\n"},
    {3, "precise_math_erfc", "#define precise_math_erfc(...) erfc(__VA_ARGS__)\n"},
    {3, "precise_math_erfcf", "#define precise_math_erfcf(...) erfc(__VA_ARGS__)\n"},
    {3, "precise_math_exp", "#define precise_math_exp(...) exp(__VA_ARGS__)\n"},
    {3, "precise_math_expf", "#define precise_math_expf(...) exp(__VA_ARGS__)\n"},
    {3, "precise_math_exp10", "#define precise_math_exp10(...) exp10(__VA_ARGS__)\n"},
    {3, "precise_math_exp10f", "#define precise_math_exp10f(...) exp10(__VA_ARGS__)\n"},
    {3, "precise_math_exp2", "#define precise_math_exp2(...) exp2(__VA_ARGS__)\n"},
    {3, "precise_math_exp2f", "#define precise_math_exp2f(...) exp2(__VA_ARGS__)\n"},
    {3, "precise_math_expm1", "#define precise_math_expm1(...) expm1(__VA_ARGS__)\n"},
    {3, "precise_math_expm1f", "#define precise_math_expm1f(...) expm1(__VA_ARGS__)\n"},
    {3, "precise_math_fabs", "#define precise_math_fabs(...) fabs(__VA_ARGS__)\n"},
    {3, "precise_math_fabsf", "#define precise_math_fabsf(...) fabs(__VA_ARGS__)\n"},
    {3, "precise_math_fdim", "#define precise_math_fdim(...) fdim(__VA_ARGS__)\n"},
    {3, "precise_math_fdimf", "#define precise_math_fdimf(...) fdim(__VA_ARGS__)\n"},
    {3, "precise_math_floor", "#define precise_math_floor(...) floor(__VA_ARGS__)\n"},
    {3, "precise_math_floorf", "#define precise_math_floorf(...) floor(__VA_ARGS__)\n"},
    {3, "precise_math_fma", "#define precise_math_fma(...) fma(__VA_ARGS__)\n"},
    {3, "precise_math_fmaf", "#define precise_math_fmaf(...) fma(__VA_ARGS__)\n"},
    {3, "precise_math_fmax", "#define precise_math_fmax(...) fmax(__VA_ARGS__)\n"},
    {3, "precise_math_fmaxf", "#define precise_math_fmaxf(...) fmax(__VA_ARGS__)\n"},
    {3, "precise_math_fmin", "#define precise_math_fmin(...) fmin(__VA_ARGS__)\n"},
    {3, "precise_math_fminf", "#define precise_math_fminf(...) fmin(__VA_ARGS__)\n"},
    {3, "precise_math_fmod", "#define precise_math_fmod(...) fmod(__VA_ARGS__)\n"},
    {3, "precise_math_fmodf", "#define precise_math_fmodf(...) fmod(__VA_ARGS__)\n"},
    {3, "precise_math_frexp", "#define precise_math_frexp(...) frexp(__VA_ARGS__)\n"},
    {3, "precise_math_frexpf", "#define precise_math_frexpf(...) frexp(__VA_ARGS__)\n"},
    {3, "precise_math_hypot", "#define precise_math_hypot(...) hypot(__VA_ARGS__)\n"},
    {3, "precise_math_hypotf", "#define precise_math_hypotf(...) hypot(__VA_ARGS__)\n"},
    {3, "precise_math_ilogb", "#define precise_math_ilogb(...) ilogb(__VA_ARGS__)\n"},
    {3, "precise_math_ilogbf", "#define precise_math_ilogbf(...) ilogb(__VA_ARGS__)\n"},
    {3, "precise_math_isfinite", "#define precise_math_isfinite(...) isfinite(__VA_ARGS__)\n"},
    {3, "precise_math_isfinitef", "#define precise_math_isfinitef(...) isfinite(__VA_ARGS__)\n"},
    {3, "precise_math_isinf", "#define precise_math_isinf(...) isinf(__VA_ARGS__)\n"},
    {3, "precise_math_isinff", "#define precise_math_isinff(...) isinf(__VA_ARGS__)\n"},
    {3, "precise_math_isnan", "#define precise_math_isnan(...) isnan(__VA_ARGS__)\n"},
    {3, "precise_math_isnanf", "#define precise_math_isnanf(...) isnan(__VA_ARGS__)\n"},
    {3, "precise_math_isnormal", "#define precise_math_isnormal(...) isnormal(__VA_ARGS__)\n"},
    {3, "precise_math_isnormalf", "#define precise_math_isnormalf(...) isnormal(__VA_ARGS__)\n"},
    {3, "precise_math_ldexp", "#define precise_math_ldexp(...) ldexp(__VA_ARGS__)\n"},
    {3, "precise_math_ldexpf", "#define precise_math_ldexpf(...) ldexp(__VA_ARGS__)\n"},
    {3, "precise_math_lgamma", "#define precise_math_lgamma(...) lgamma(__VA_ARGS__)\n"},
    {3, "precise_math_lgammaf", "#define precise_math_lgammaf(...) lgamma(__VA_ARGS__)\n"},
    {3, "precise_math_log", "#define precise_math_log(...) log(__VA_ARGS__)\n"},
    {3, "precise_math_logf", "#define precise_math_logf(...) log(__VA_ARGS__)\n"},
    {3, "precise_math_log10", "#define precise_math_log10(...) log10(__VA_ARGS__)\n"},
    {3, "precise_math_log10f", "#define precise_math_log10f(...) log10(__VA_ARGS__)\n"},
    {3, "precise_math_log1p", "#define precise_math_log1p(...) log1p(__VA_ARGS__)\n"},
    {3, "precise_math_log1pf", "#define precise_math_log1pf(...) log1p(__VA_ARGS__)\n"},
    {3, "precise_math_log2", "#define precise_math_log2(...) log2(__VA_ARGS__)\n"},
    {3, "precise_math_log2f", "#define precise_math_log2f(...) log2(__VA_ARGS__)\n"},
    {3, "precise_math_logb", "#define precise_math_logb(...) logb(__VA_ARGS__)\n"},
    {3, "precise_math_logbf", "#define precise_math_logbf(...) logb(__VA_ARGS__)\n"},
    {3, "precise_math_modf", "#define precise_math_modf(...) modf(__VA_ARGS__)\n"},
    {3, "precise_math_modff", "#define precise_math_modff(...) modf(__VA_ARGS__)\n"},
    {3, "precise_math_nan", "#define precise_math_nan(...) nan(__VA_ARGS__)\n"},
    {3, "precise_math_nanf", "#define precise_math_nanf(...) nan(__VA_ARGS__)\n"},
    {3, "precise_math_nextafter", "#define precise_math_nextafter(...) nextafter(__VA_ARGS__)\n"},
    {3, "precise_math_nextafterf", "#define precise_math_nextafterf(...) nextafter(__VA_ARGS__)\n"},
    {3, "precise_math_pow", "#define precise_math_pow(...) pow(__VA_ARGS__)\n"},
    {3, "precise_math_powf", "#define precise_math_powf(...) pow(__VA_ARGS__)\n"},
    {3, "precise_math_remainder", "#define precise_math_remainder(...) remainder(__VA_ARGS__)\n"},
    {3, "precise_math_remainderf", "#define precise_math_remainderf(...) remainder(__VA_ARGS__)\n"},
    {3, "precise_math_remquo", "#define precise_math_remquo(...) remquo(__VA_ARGS__)\n"},
    {3, "precise_math_remquof", "#define precise_math_remquof(...) remquo(__VA_ARGS__)\n"},
    {3, "precise_math_round", "#define precise_math_round(...) round(__VA_ARGS__)\n"},
    {3, "precise_math_roundf", "#define precise_math_roundf(...) round(__VA_ARGS__)\n"},
    {3, "precise_math_rsqrt", "#define precise_math_rsqrt(...) rsqrt(__VA_ARGS__)\n"},
    {3, "precise_math_rsqrtf", "#define precise_math_rsqrtf(...) rsqrt(__VA_ARGS__)\n"},
    {3, "precise_math_signbit", "#define precise_math_signbit(...) signbit(__VA_ARGS__)\n"},
    {3, "precise_math_signbitf", "#define precise_math_signbitf(...) signbit(__VA_ARGS__)\n"},
    {3, "precise_math_sin", "#define precise_math_sin(...) sin(__VA_ARGS__)\n"},
    {3, "precise_math_sinf", "#define precise_math_sinf(...) sin(__VA_ARGS__)\n"},
    {3, "precise_math_sinh", "#define precise_math_sinh(...) sinh(__VA_ARGS__)\n"},
    {3, "precise_math_sinhf", "#define precise_math_sinhf(...) sinh(__VA_ARGS__)\n"},
    {3, "precise_math_sinpi", "#define precise_math_sinpi(...) sinpi(__VA_ARGS__)\n"},
    {3, "precise_math_sinpif", "#define precise_math_sinpif(...) sinpi(__VA_ARGS__)\n"},
    {3, "precise_math_sqrt", "#define precise_math_sqrt(...) sqrt(__VA_ARGS__)\n"},
    {3, "precise_math_sqrtf", "#define precise_math_sqrtf(...) sqrt(__VA_ARGS__)\n"},
    {3, "precise_math_tan", "#define precise_math_tan(...) tan(__VA_ARGS__)\n"},
    {3, "precise_math_tanf", "#define precise_math_tanf(...) tan(__VA_ARGS__)\n"},
    {3, "precise_math_tanh", "#define precise_math_tanh(...) tanh(__VA_ARGS__)\n"},
    {3, "precise_math_tanhf", "#define precise_math_tanhf(...) tanh(__VA_ARGS__)\n"},
    {3, "precise_math_tanpi", "#define precise_math_tanpi(...) tanpi(__VA_ARGS__)\n"},
    {3, "precise_math_tanpif", "#define precise_math_tanpif(...) tanpi(__VA_ARGS__)\n"},
    {3, "precise_math_tgamma", "#define precise_math_tgamma(...) tgamma(__VA_ARGS__)\n"},
    {3, "precise_math_tgammaf", "#define precise_math_tgammaf(...) tgamma(__VA_ARGS__)\n"},
    {3, "precise_math_trunc", "#define precise_math_trunc(...) trunc(__VA_ARGS__)\n"},
    {3, "precise_math_truncf", "#define precise_math_truncf(...) trunc(__VA_ARGS__)\n"},
    {3, "precise_math_nearbyint", "#define precise_math_nearbyint(...) rint(__VA_ARGS__)\n"},
    {3, "precise_math_nearbyintf", "#define precise_math_nearbyintf(...) rint(__VA_ARGS__)\n"},
    {3, "precise_math_rcbrt", "#define precise_math_rcbrt(...) rootn(__VA_ARGS__, -3)\n"},
    {3, "precise_math_rcbrtf", "#define precise_math_rcbrtf(...) rootn(__VA_ARGS__, -3)\n"},
    {3, "precise_math_scalbn", "#define precise_math_scalbn(...) ldexp(__VA_ARGS__)\n"},
    {3, "precise_math_scalbnf", "#define precise_math_scalbnf(...) ldexp(__VA_ARGS__)\n"},
    {3, "precise_math_phi", "#define precise_math_phi(...) AMP_PHI(__VA_ARGS__)\n"},
    {3, "precise_math_phif", "#define precise_math_phif(...) AMP_PHI(__VA_ARGS__)\n"},
    {3, "precise_math_sincos", "#define precise_math_sincos(...) AMP_SINCOS(__VA_ARGS__)\n"},
    {3, "precise_math_sincosf", "#define precise_math_sincosf(...) AMP_SINCOS(__VA_ARGS__)\n"},
    {SHORT_VECTORS, "int_2", "typedef int2 int_2;\n#define int_2(...) ((int2)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "int_3", "typedef int3 int_3;\n#define int_3(...) ((int3)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "int_4", "typedef int4 int_4;\n#define int_4(...) ((int4)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "uint_2",
     "typedef uint2 uint_2;\n#define uint_2(...) ((uint2)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "uint_3",
     "typedef uint3 uint_3;\n#define uint_3(...) ((uint3)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "uint_4",
     "typedef uint4 uint_4;\n#define uint_4(...) ((uint4)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "float_2",
     "typedef float2 float_2;\n#define float_2(...) ((float2)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "float_3",
     "typedef float3 float_3;\n#define float_3(...) ((float3)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "float_4",
     "typedef float4 float_4;\n#define float_4(...) ((float4)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "double_2",
     "typedef double2 double_2;\n#define double_2(...) ((double2)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "double_3",
     "typedef double3 double_3;\n#define double_3(...) ((double3)(__VA_ARGS__))\n"},
    {SHORT_VECTORS, "double_4",
     "typedef double4 double_4;\n#define double_4(...) ((double4)(__VA_ARGS__))\n"},
};

int amp__vocab_append_used(strbuf *out, size_t ntexts, const char *const *texts,
                           const size_t *lengths)
{
    int headed[GROUPS] = {0};
    int appended = 0;
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        const vocab_entry *e = &entries[i];
        int used = 0;
        for (size_t t = 0; t < ntexts && !used; t++)
            used = amp__lex_text_uses(texts[t], lengths[t], e->name, 0);
        if (!used)
            continue;
        if (!headed[e->group]) {
            amp__sb_append(out, group_heading[e->group]);
            headed[e->group] = 1;
        }
        amp__sb_append(out, e->definition);
        appended++;
    }
    return appended;
}

/* ---- Index and extent functions ---- */

/* Lane d of a value of rank n: the int itself for rank 1. */
static void index_lane(strbuf *out, const char *name, int rank, int d)
{
    if (rank == 1)
        amp__sb_append(out, name);
    else
        amp__sb_printf(out, "%s.s%d", name, d);
}

void amp__vocab_append_index_functions(strbuf *out, uint32_t ranks)
{
    if (!(ranks & 0x1feu))
        return;
    amp__sb_append(out,
                   "\n/* index<N> and extent<N>: the body's p == q, e.contains(p), e.size() and\n"
                   "   v.extent, for the ranks it uses. */\n");
    for (int n = 1; n <= 8; n++) {
        if (!(ranks & (1u << n)))
            continue;
        amp__sb_printf(out, "int amp_equal_%d(amp_index_%d a, amp_index_%d b)\n{\n    return ", n,
                       n, n);
        for (int d = 0; d < n; d++) {
            amp__sb_append(out, d ? " && " : "");
            index_lane(out, "a", n, d);
            amp__sb_append(out, " == ");
            index_lane(out, "b", n, d);
        }
        amp__sb_printf(out,
                       ";\n}\nint amp_contains_%d(amp_extent_%d e, amp_index_%d p)\n{\n    return ",
                       n, n, n);
        for (int d = 0; d < n; d++) {
            amp__sb_append(out, d ? " && " : "");
            index_lane(out, "p", n, d);
            amp__sb_append(out, " >= 0 && ");
            index_lane(out, "p", n, d);
            amp__sb_append(out, " < ");
            index_lane(out, "e", n, d);
        }
        amp__sb_printf(out, ";\n}\nuint amp_size_%d(amp_extent_%d e)\n{\n    return ", n, n);
        for (int d = 0; d < n; d++) {
            amp__sb_append(out, d ? " * " : "(uint)");
            index_lane(out, "e", n, d);
        }
        amp__sb_printf(out, ";\n}\namp_extent_%d amp_extent_of_%d(const int *e)\n{\n    return ", n,
                       n);
        if (n == 1) {
            amp__sb_append(out, "e[0]");
        } else {
            amp__sb_printf(out, "(amp_extent_%d)(", n);
            int lanes = n <= 4 ? n : 8;
            for (int d = 0; d < lanes; d++) {
                amp__sb_append(out, d ? ", " : "");
                if (d < n)
                    amp__sb_printf(out, "e[%d]", d);
                else
                    amp__sb_append(out, "0");
            }
            amp__sb_append(out, ")");
        }
        amp__sb_append(out, ";\n}\n");
    }
}

/* ---- Element access for ranks 4 to 8 ---- */

/* The vector type of an index of rank n (4 to 8): int4, or int8 with lanes
 * past the rank unused. */
static int lanes_of(int n)
{
    return n <= 4 ? 4 : 8;
}

void amp__vocab_append_access_rank(strbuf *out, int n)
{
    int k = lanes_of(n);
    amp__sb_printf(
        out,
        "\n/* Views of rank %d: v(i0, ..., i%d) or v(index), an index being an int%d%s. */\n"
        "int%d __attribute__((overloadable)) amp_to_index_%d(int%d index) { return index; }\n"
        "int%d __attribute__((overloadable)) amp_to_index_%d(const int *index)\n{\n"
        "    return (int%d)(",
        n, n - 1, k, n < k ? " (its last lanes unused)" : "", k, n, k, k, n, k);
    for (int d = 0; d < k; d++) {
        if (d < n)
            amp__sb_printf(out, "%sindex[%d]", d ? ", " : "", d);
        else
            amp__sb_append(out, ", 0");
    }
    amp__sb_append(out, ");\n}\n");
    amp__sb_printf(
        out,
        "AMP_RANK_TAKES(%d, int%d)\n#define AMP_INDEX_OF_RANK_%d(ix) AMP_INDEX_OF_RANK(ix, %d)\n",
        n, k, n, n);
    amp__sb_printf(out, "amp_off_t amp_offset_%d(int%d x", n, k);
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(out, ", amp_off_t stride%d", d);
    amp__sb_append(out, ")\n{\n    return ");
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(out, "(amp_off_t)x.s%d * stride%d + ", d, d);
    amp__sb_printf(out, "x.s%d;\n}\n#define AMP_OFFSET_%d(v, x) amp_offset_%d(x", n - 1, n, n);
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(out, ", amp_##v##_stride%d", d);
    amp__sb_printf(out, ")\n#define AMP_PICK%d(", n);
    for (int d = 1; d <= n; d++)
        amp__sb_printf(out, "_%d, ", d);
    amp__sb_printf(out, "which, ...) which\n#define AMP_ELEMENT_%d(v", n);
    for (int d = 0; d < n; d++)
        amp__sb_printf(out, ", i%d", d);
    amp__sb_printf(out, ") AMP_PLACE(v, AMP_OFFSET_%d(v, (int%d)(", n, k);
    for (int d = 0; d < k; d++) {
        if (d < n)
            amp__sb_printf(out, "%s(i%d)", d ? ", " : "", d);
        else
            amp__sb_append(out, ", 0");
    }
    amp__sb_printf(out,
                   ")))\n"
                   "#define AMP_INDEXED_%d(v, ix) \\\n"
                   "    AMP_PLACE(v, AMP_OFFSET_%d(v, amp_to_index_%d(AMP_INDEX_OF_RANK_%d(ix))))\n"
                   "#define AMP_ACCESS_%d(v, ...) AMP_PICK%d(__VA_ARGS__, AMP_ELEMENT_%d, ",
                   n, n, n, n, n, n, n);
    for (int d = 0; d + 2 < n; d++)
        amp__sb_printf(out, "AMP_ACCESS_%d_TAKES_1_OR_%d, ", n, n);
    amp__sb_printf(out, "AMP_INDEXED_%d, )(v, __VA_ARGS__)\n", n);
}

/* ---- Names the generated kernel uses ---- */

/* Names the generated code around a body uses besides the prelude's and
 * the vocabulary's: the index set-up, the kernel's own declarations. */
static const char *const generated_names[] = {"get_global_id",
                                              "get_local_id",
                                              "get_group_id",
                                              "get_global_size",
                                              "get_local_size",
                                              "get_num_groups",
                                              "get_work_dim",
                                              "barrier",
                                              "mem_fence",
                                              "read_imagei",
                                              "read_imageui",
                                              "read_imagef",
                                              "get_image_width",
                                              "get_image_height",
                                              "atomic_cmpxchg",
                                              "printf",
                                              "tile_static",
                                              "global",
                                              "local",
                                              "wait",
                                              NULL};

static const char **reserved;
static size_t nreserved;
static pthread_once_t reserved_once = PTHREAD_ONCE_INIT;

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Collect into reserved (capacity cap) the names text defines or calls:
 * #define names, names followed by '(' (functions, built-ins, macros),
 * and OpenCL's CLK_ and M_ constants. A macro's parameters and a
 * function's locals are not the kernel's names. */
static void collect(const char *text, size_t cap)
{
    lex_tokens toks;
    if (amp__lex(text, strlen(text), &toks) != AMP_OK)
        return;
    const lex_token *t = toks.items;
    for (size_t i = 0; i < toks.count && nreserved < cap; i++) {
        if (t[i].kind != LEX_IDENT)
            continue;
        int defined = i >= 2 && amp__lex_is(&t[i - 1], "define") && amp__lex_is(&t[i - 2], "#");
        int called = i + 1 < toks.count && amp__lex_is(&t[i + 1], "(");
        int constant = (t[i].length > 4 && memcmp(t[i].text, "CLK_", 4) == 0) ||
                       (t[i].length > 2 && memcmp(t[i].text, "M_", 2) == 0);
        if (!defined && !called && !constant)
            continue;
        char *word = malloc(t[i].length + 1);
        if (!word)
            break;
        memcpy(word, t[i].text, t[i].length);
        word[t[i].length] = '\0';
        reserved[nreserved++] = word;
    }
    amp__lex_free(&toks);
}

static void build_reserved(void)
{
    size_t cap = 16384;
    reserved = malloc(cap * sizeof *reserved);
    if (!reserved)
        return;
    for (const char *const *w = generated_names; *w && nreserved < cap; w++)
        reserved[nreserved++] = *w;
    collect(prelude, cap);
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++) {
        if (nreserved < cap)
            reserved[nreserved++] = entries[i].name;
        collect(entries[i].definition, cap);
    }
    for (int g = 0; g < GROUPS; g++)
        collect(group_heading[g], cap);
    qsort(reserved, nreserved, sizeof *reserved, by_name);
}

int amp__vocab_reserves(const char *name, size_t length)
{
    pthread_once(&reserved_once, build_reserved);
    char word[128];
    if (length >= sizeof word)
        return 0;
    memcpy(word, name, length);
    word[length] = '\0';
    const char *key = word;
    return reserved && bsearch(&key, reserved, nreserved, sizeof *reserved, by_name) != NULL;
}
