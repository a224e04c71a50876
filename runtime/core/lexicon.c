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
 * C's qualifiers and built-in types (scalar and vector), and the kernel
 * vocabulary's own tile_static. A capture or an index named like one of
 * them makes a kernel that fails to compile with a message about something
 * else. */
int amp__lexicon_is_keyword(const char *s)
{
    static const char *const words[] = {"auto",
                                        "break",
                                        "case",
                                        "char",
                                        "const",
                                        "continue",
                                        "default",
                                        "do",
                                        "double",
                                        "else",
                                        "enum",
                                        "extern",
                                        "float",
                                        "for",
                                        "goto",
                                        "if",
                                        "inline",
                                        "int",
                                        "long",
                                        "register",
                                        "restrict",
                                        "return",
                                        "short",
                                        "signed",
                                        "sizeof",
                                        "static",
                                        "struct",
                                        "switch",
                                        "typedef",
                                        "union",
                                        "unsigned",
                                        "void",
                                        "volatile",
                                        "while",
                                        "_Bool",
                                        "_Complex",
                                        "_Imaginary",
                                        "bool",
                                        "true",
                                        "false",
                                        "uchar",
                                        "ushort",
                                        "uint",
                                        "ulong",
                                        "half",
                                        "size_t",
                                        "ptrdiff_t",
                                        "intptr_t",
                                        "uintptr_t",
                                        "image1d_t",
                                        "image1d_array_t",
                                        "image1d_buffer_t",
                                        "image2d_t",
                                        "image2d_array_t",
                                        "image3d_t",
                                        "sampler_t",
                                        "event_t",
                                        "__global",
                                        "global",
                                        "__local",
                                        "local",
                                        "__constant",
                                        "constant",
                                        "__private",
                                        "private",
                                        "__kernel",
                                        "kernel",
                                        "__read_only",
                                        "read_only",
                                        "__write_only",
                                        "write_only",
                                        "__read_write",
                                        "read_write",
                                        "tile_static"};
    if (!s)
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(s, words[i]) == 0)
            return 1;
    return is_vector_type(s, strlen(s));
}

int amp__lexicon_is_opencl_only(const char *s, size_t length)
{
    static const char *const words[] = {"uchar",
                                        "ushort",
                                        "uint",
                                        "ulong",
                                        "half",
                                        "kernel",
                                        "constant",
                                        "private",
                                        "read_only",
                                        "write_only",
                                        "read_write",
                                        "image1d_t",
                                        "image1d_array_t",
                                        "image1d_buffer_t",
                                        "image2d_t",
                                        "image2d_array_t",
                                        "image3d_t",
                                        "sampler_t",
                                        "event_t"};
    if (!s)
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i]) == length && memcmp(s, words[i], length) == 0)
            return 1;
    return is_vector_type(s, length);
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
