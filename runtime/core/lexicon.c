/*
 * runtime/core/lexicon.c - the words of OpenCL C: which strings are
 * identifiers, and which identifiers a kernel cannot take as names.
 */
#include "core/lexicon.h"

#include <ctype.h>
#include <string.h>

int amp__lexicon_is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return 0;
    return 1;
}

/* OpenCL C's vector types: a scalar type and 2, 3, 4, 8 or 16 lanes
 * (float4; C++ AMP's are float_4), the length bytes at s. */
static int is_vector_type(const char *s, size_t length)
{
    static const char *const bases[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                        "long", "ulong", "float", "double", "half", "bool"};
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
        size_t n = strlen(bases[i]);
        if (length <= n || memcmp(s, bases[i], n) != 0)
            continue;
        const char *lanes = s + n;
        size_t k = length - n;
        if ((k == 1 &&
             (lanes[0] == '2' || lanes[0] == '3' || lanes[0] == '4' || lanes[0] == '8')) ||
            (k == 2 && lanes[0] == '1' && lanes[1] == '6'))
            return 1;
    }
    return 0;
}

/* The words of OpenCL C that are not free names: C99's keywords, OpenCL
 * C's qualifiers and built-in types (scalar; the vector types are
 * is_vector_type's), and the kernel vocabulary's own tile_static. A capture
 * or an index named like one of them makes a kernel that fails to compile
 * with a message about something else. opencl_only marks the words that C
 * and C++ leave free, which a body may therefore declare (half, uint,
 * kernel ...); global and local are free as well, but the kernel's prelude
 * makes them plain names (t_idx.global), so they need no new name. */
static const struct {
    const char *text;
    int opencl_only;
} words[] = {
    {"auto", 0},
    {"break", 0},
    {"case", 0},
    {"char", 0},
    {"const", 0},
    {"continue", 0},
    {"default", 0},
    {"do", 0},
    {"double", 0},
    {"else", 0},
    {"enum", 0},
    {"extern", 0},
    {"float", 0},
    {"for", 0},
    {"goto", 0},
    {"if", 0},
    {"inline", 0},
    {"int", 0},
    {"long", 0},
    {"register", 0},
    {"restrict", 0},
    {"return", 0},
    {"short", 0},
    {"signed", 0},
    {"sizeof", 0},
    {"static", 0},
    {"struct", 0},
    {"switch", 0},
    {"typedef", 0},
    {"union", 0},
    {"unsigned", 0},
    {"void", 0},
    {"volatile", 0},
    {"while", 0},
    {"_Bool", 0},
    {"_Complex", 0},
    {"_Imaginary", 0},
    {"bool", 0},
    {"true", 0},
    {"false", 0},
    {"uchar", 1},
    {"ushort", 1},
    {"uint", 1},
    {"ulong", 1},
    {"half", 1},
    {"size_t", 0},
    {"ptrdiff_t", 0},
    {"intptr_t", 0},
    {"uintptr_t", 0},
    {"image1d_t", 1},
    {"image1d_array_t", 1},
    {"image1d_buffer_t", 1},
    {"image2d_t", 1},
    {"image2d_array_t", 1},
    {"image3d_t", 1},
    {"sampler_t", 1},
    {"event_t", 1},
    {"image2d_depth_t", 1},
    {"image2d_array_depth_t", 1},
    {"queue_t", 1},
    {"clk_event_t", 1},
    {"ndrange_t", 1},
    {"reserve_id_t", 1},
    {"pipe", 1},
    {"generic", 1},
    {"vec_step", 1},
    {"__global", 0},
    {"global", 0},
    {"__local", 0},
    {"local", 0},
    {"__constant", 0},
    {"constant", 1},
    {"__private", 0},
    {"private", 1},
    {"__kernel", 0},
    {"kernel", 1},
    {"__read_only", 0},
    {"read_only", 1},
    {"__write_only", 0},
    {"write_only", 1},
    {"__read_write", 0},
    {"read_write", 1},
    {"tile_static", 0},
};

/* The index in words of the length bytes at s, or -1. */
static int find_word(const char *s, size_t length)
{
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].text) == length && memcmp(s, words[i].text, length) == 0)
            return (int)i;
    return -1;
}

int amp__lexicon_is_keyword(const char *s)
{
    if (!s)
        return 0;
    size_t length = strlen(s);
    return find_word(s, length) >= 0 || is_vector_type(s, length);
}

int amp__lexicon_is_opencl_only(const char *s, size_t length)
{
    if (!s)
        return 0;
    int i = find_word(s, length);
    return i >= 0 ? words[i].opencl_only : is_vector_type(s, length);
}

/* OpenCL C 1.2's built-in functions (chapter 6.12): a function of the
 * user's named like one would be a second declaration of an overloaded
 * built-in, which the compiler refuses with a message about attributes. */
int amp__lexicon_is_builtin_function(const char *s)
{
    static const char *const names[] = {"abs",
                                        "abs_diff",
                                        "acos",
                                        "acosh",
                                        "acospi",
                                        "add_sat",
                                        "all",
                                        "any",
                                        "asin",
                                        "asinh",
                                        "asinpi",
                                        "async_work_group_copy",
                                        "async_work_group_strided_copy",
                                        "atan",
                                        "atan2",
                                        "atan2pi",
                                        "atanh",
                                        "atanpi",
                                        "atom_add",
                                        "atomic_add",
                                        "atomic_and",
                                        "atomic_cmpxchg",
                                        "atomic_dec",
                                        "atomic_inc",
                                        "atomic_max",
                                        "atomic_min",
                                        "atomic_or",
                                        "atomic_sub",
                                        "atomic_xchg",
                                        "atomic_xor",
                                        "barrier",
                                        "bitselect",
                                        "cbrt",
                                        "ceil",
                                        "clamp",
                                        "clz",
                                        "copysign",
                                        "cos",
                                        "cosh",
                                        "cospi",
                                        "cross",
                                        "degrees",
                                        "distance",
                                        "dot",
                                        "erf",
                                        "erfc",
                                        "exp",
                                        "exp10",
                                        "exp2",
                                        "expm1",
                                        "fabs",
                                        "fast_distance",
                                        "fast_length",
                                        "fast_normalize",
                                        "fdim",
                                        "floor",
                                        "fma",
                                        "fmax",
                                        "fmin",
                                        "fmod",
                                        "fract",
                                        "frexp",
                                        "get_global_id",
                                        "get_global_offset",
                                        "get_global_size",
                                        "get_group_id",
                                        "get_image_depth",
                                        "get_image_height",
                                        "get_image_width",
                                        "get_local_id",
                                        "get_local_size",
                                        "get_num_groups",
                                        "get_work_dim",
                                        "hadd",
                                        "hypot",
                                        "ilogb",
                                        "isequal",
                                        "isfinite",
                                        "isgreater",
                                        "isgreaterequal",
                                        "isinf",
                                        "isless",
                                        "islessequal",
                                        "islessgreater",
                                        "isnan",
                                        "isnormal",
                                        "isnotequal",
                                        "isordered",
                                        "isunordered",
                                        "ldexp",
                                        "length",
                                        "lgamma",
                                        "lgamma_r",
                                        "log",
                                        "log10",
                                        "log1p",
                                        "log2",
                                        "logb",
                                        "mad",
                                        "mad24",
                                        "mad_hi",
                                        "mad_sat",
                                        "max",
                                        "maxmag",
                                        "mem_fence",
                                        "min",
                                        "minmag",
                                        "mix",
                                        "modf",
                                        "mul24",
                                        "mul_hi",
                                        "nan",
                                        "native_cos",
                                        "native_divide",
                                        "native_exp",
                                        "native_exp10",
                                        "native_exp2",
                                        "native_log",
                                        "native_log10",
                                        "native_log2",
                                        "native_powr",
                                        "native_recip",
                                        "native_rsqrt",
                                        "native_sin",
                                        "native_sqrt",
                                        "native_tan",
                                        "nextafter",
                                        "normalize",
                                        "popcount",
                                        "pow",
                                        "pown",
                                        "powr",
                                        "prefetch",
                                        "printf",
                                        "radians",
                                        "read_imagef",
                                        "read_imagei",
                                        "read_imageui",
                                        "read_mem_fence",
                                        "remainder",
                                        "remquo",
                                        "rhadd",
                                        "rint",
                                        "rootn",
                                        "rotate",
                                        "round",
                                        "rsqrt",
                                        "select",
                                        "shuffle",
                                        "shuffle2",
                                        "sign",
                                        "signbit",
                                        "sin",
                                        "sincos",
                                        "sinh",
                                        "sinpi",
                                        "smoothstep",
                                        "sqrt",
                                        "step",
                                        "sub_sat",
                                        "tan",
                                        "tanh",
                                        "tanpi",
                                        "tgamma",
                                        "trunc",
                                        "upsample",
                                        "vload16",
                                        "vload2",
                                        "vload3",
                                        "vload4",
                                        "vload8",
                                        "vstore16",
                                        "vstore2",
                                        "vstore3",
                                        "vstore4",
                                        "vstore8",
                                        "wait_group_events",
                                        "write_imagef",
                                        "write_imagei",
                                        "write_imageui",
                                        "write_mem_fence"};
    size_t lo = 0, hi = sizeof names / sizeof names[0];
    while (s && lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(s, names[mid]);
        if (c == 0)
            return 1;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return 0;
}
