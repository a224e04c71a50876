/*
 * runtime/translate/accessors.c - the macros and functions through which a
 * kernel body reaches its captures: view elements (plain, padded, or
 * checked under AMP_CHECK) and texture texels.
 */
#include "translate/accessors.h"

/* A texel's type: int, uint or float. */
static const char *texel_name(amp_elem_type t)
{
    return t == AMP_INT ? "int" : t == AMP_UINT ? "uint" : "float";
}

/* What a texture read returns: the scalar of one channel, or a vector. */
static const char *channel_suffix(int channels)
{
    return channels == 1 ? ".x" : channels == 2 ? ".xy" : "";
}

/* The read function of the element type: read_imagei, read_imageui or
 * read_imagef. */
static const char *read_function(amp_elem_type t)
{
    return t == AMP_INT ? "read_imagei" : t == AMP_UINT ? "read_imageui" : "read_imagef";
}

/* The definitions every kernel that captures a texture needs, once. */
void amp__accessors_texture_vocabulary(strbuf *sb, const cg_spec *spec)
{
    amp__sb_append(
        sb,
        "\n/* Textures (read only). t(i), t(i, j), t(i, j, k) or t(index) read the texel\n"
        "   at an integer index, 0 outside the texture; amp_sample(t, x[, y[, z]])\n"
        "   samples a float texture at normalized coordinates (0 to 1 across each\n"
        "   side, x across a row), filtering linearly between texels and clamping at\n"
        "   the edges. Both give the scalar of a one-channel texture and a vector for\n"
        "   two or four channels. A texel is a value, not a place: assigning to one\n"
        "   does not compile. */\n"
        "__constant sampler_t amp_texel_sampler =\n"
        "    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;\n"
        "__constant sampler_t amp_linear_sampler =\n"
        "    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;\n"
        "#define amp_sample(t, ...) AMP_SAMPLE_##t(__VA_ARGS__)\n"
        "/* Images are indexed (x, y, z): x is C++ AMP's last dimension. */\n"
        "#define AMP_TEXEL_1(t, i) AMP_READ_##t((int)amp_to_index_1(i))\n"
        "#define AMP_TEXEL_2_AT(t, i, j) AMP_READ_##t((int2)((j), (i)))\n"
        "#define AMP_TEXEL_2_INDEXED(t, ix) AMP_READ_##t(amp_to_index_2(AMP_INDEX_OF_RANK(ix, 2)).yx)\n"
        "#define AMP_TEXEL_3_AT(t, i, j, k) AMP_READ_##t((int4)((k), (j), (i), 0))\n"
        "#define AMP_TEXEL_3_INDEXED(t, ix) \\\n"
        "    AMP_READ_##t((int4)(amp_to_index_3(AMP_INDEX_OF_RANK(ix, 3)).zyx, 0))\n"
        "#define AMP_TEXEL_2(t, ...) \\\n"
        "    AMP_PICK2(__VA_ARGS__, AMP_TEXEL_2_AT, AMP_TEXEL_2_INDEXED, )(t, __VA_ARGS__)\n"
        "#define AMP_TEXEL_3(t, ...) \\\n"
        "    AMP_PICK3(__VA_ARGS__, AMP_TEXEL_3_AT, AMP_TEXEL_3_TAKES_1_OR_3, AMP_TEXEL_3_INDEXED, )(t, __VA_ARGS__)\n");
    /* A rank-1 texture wider than a 1D image is folded into the rows of a
     * 2D image: texel i is at (i % width, i / width). The last row's unused
     * end is inside the image, so reads past the texture are checked here,
     * to give 0 as the other textures' do. */
    static const amp_elem_type types[] = {AMP_INT, AMP_UINT, AMP_FLOAT};
    for (int k = 0; k < 3; k++) {
        int used = 0;
        for (int i = 0; i < spec->ncaptures; i++) {
            const cg_capture *c = &spec->captures[i];
            used |= c->kind == AMP_CAPTURE_TEXTURE && c->image_kind == CG_IMAGE_1D_FOLDED &&
                    c->type == types[k];
        }
        if (!used)
            continue;
        const char *t = texel_name(types[k]);
        amp__sb_printf(sb,
                       "%s4 amp_folded_texel_%s(__read_only image2d_t image, int i, int n)\n"
                       "{\n"
                       "    int width = get_image_width(image);\n"
                       "    return (uint)i < (uint)n\n"
                       "        ? %s(image, amp_texel_sampler, (int2)(i %% width, i / width))\n"
                       "        : (%s4)(0);\n"
                       "}\n",
                       t, t, read_function(types[k]), t);
    }
}

/* The accessor macros of texture c. */
void amp__accessors_texture(strbuf *sb, const cg_capture *c)
{
    static const char *const args[] = {"", "i", "i, j", "i, j, k"};
    static const char *const float_coords[] = {"", "(float)", "(float2)", "(float4)"};
    const char *n = c->name;
    const char *suffix = channel_suffix(c->channels);
    amp__sb_printf(sb, "\n/* %s(%s) or %s(index) is a texel of texture %s (read only). */\n", n,
                   args[c->rank], n, n);
    amp__sb_printf(sb, "#define %s(...) AMP_TEXEL_%d(%s, __VA_ARGS__)\n", n, c->rank, n);
    if (c->image_kind == CG_IMAGE_1D_FOLDED)
        amp__sb_printf(
            sb,
            "#define AMP_READ_%s(coord) (amp_folded_texel_%s(amp_%s_image, coord, %s_extent[0])%s)\n",
            n, texel_name(c->type), n, n, suffix);
    else
        amp__sb_printf(
            sb, "#define AMP_READ_%s(coord) (%s(amp_%s_image, amp_texel_sampler, coord)%s)\n", n,
            read_function(c->type), n, suffix);
    if (c->type != AMP_FLOAT)
        amp__sb_printf(sb, "#define AMP_SAMPLE_%s(...) amp_sample_needs_a_float_texture\n", n);
    else if (c->image_kind == CG_IMAGE_1D_FOLDED)
        amp__sb_printf(
            sb,
            "#define AMP_SAMPLE_%s(...) amp_sample_needs_a_texture_within_the_1d_image_width_limit\n",
            n);
    else
        amp__sb_printf(sb,
                       "#define AMP_SAMPLE_%s(...) \\\n"
                       "    (read_imagef(amp_%s_image, amp_linear_sampler, %s(__VA_ARGS__%s))%s)\n",
                       n, n, float_coords[c->rank], c->rank == 3 ? ", 0.0f" : "", suffix);
}

/* AMP_CHECK's offsets, in place of the prelude's (and of a padded
 * domain's): see codegen.h for the record they fill. */
void amp__accessors_checked(strbuf *sb, int spare_bytes)
{
    amp__sb_printf(
        sb,
        "\n/* AMP_CHECK: every view access is tested against the view's own extent (a\n"
        "   section's, not its parent's), with each index computed once. One\n"
        "   outside it is described in amp_check_record (the first at each line\n"
        "   and view: site, rank, index as low and high words, extent, thread) and\n"
        "   lands past the end of the view's device buffer, where the simulator\n"
        "   reports it at its line. In a padded domain a thread past the original\n"
        "   extent is sent to the sink instead, as without AMP_CHECK: only its\n"
        "   writes are reported, as the race they make there. */\n"
        "long amp_check_outside(__global int *record, int site, const int *extent, int rank,\n"
        "                       long spare, int size, int past_extent, const long *index,\n"
        "                       const int *thread, int thread_rank)\n"
        "{\n"
        "    site += past_extent;\n"
        "    for (int n = 0; n < %d; n++) {\n"
        "        __global int *slot = record + (site + n) %% %d * %d;\n"
        "        int old = atomic_cmpxchg(&slot[%d], 0, site);\n"
        "        if (old == site)\n"
        "            break;\n"
        "        if (old != 0)\n"
        "            continue;\n"
        "        slot[%d] = rank;\n"
        "        for (int d = 0; d < %d; d++) {\n"
        "            slot[%d + 2 * d] = d < rank ? (int)index[d] : 0;\n"
        "            slot[%d + 2 * d] = d < rank ? (int)(index[d] >> 32) : 0;\n"
        "            slot[%d + d] = d < rank ? extent[d] : 0;\n"
        "        }\n"
        "        for (int d = 0; d < thread_rank; d++)\n"
        "            slot[%d + d] = thread[d];\n"
        "        break;\n"
        "    }\n"
        "    if (past_extent)\n"
        "        return -1; /* the sink, a buffer of its own */\n"
        "    /* Past the data and the %d spare bytes after it, whatever the size. */\n"
        "    return spare + %d / size + 2;\n"
        "}\n",
        CG_CHECK_SLOTS, CG_CHECK_SLOTS, CG_CHECK_WORDS, CG_REC_SITE, CG_REC_RANK, AMP_MAX_RANK,
        CG_REC_INDEX, CG_REC_INDEX + 1, CG_REC_EXTENT, CG_REC_THREAD, spare_bytes, spare_bytes);
    amp__sb_append(
        sb,
        "#define AMP_CHECK_ARGS \\\n"
        "    __global int *record, int site, const int *extent, long spare, int size, int past_extent, \\\n"
        "    const int *thread, int thread_rank\n"
        "long amp_checked_1(AMP_CHECK_ARGS, long i)\n"
        "{\n"
        "    if (i >= 0 && i < extent[0])\n"
        "        return i;\n"
        "    long index[1] = {i};\n"
        "    return amp_check_outside(record, site, extent, 1, spare, size, past_extent, index,\n"
        "                             thread, thread_rank);\n"
        "}\n"
        "long amp_checked_2(AMP_CHECK_ARGS, long stride0, int2 x)\n"
        "{\n"
        "    if (x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1])\n"
        "        return x.s0 * stride0 + x.s1;\n"
        "    long index[2] = {x.s0, x.s1};\n"
        "    return amp_check_outside(record, site, extent, 2, spare, size, past_extent, index,\n"
        "                             thread, thread_rank);\n"
        "}\n"
        "long amp_checked_3(AMP_CHECK_ARGS, long stride0, long stride1, int3 x)\n"
        "{\n"
        "    if (x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1] && x.s2 >= 0 &&\n"
        "        x.s2 < extent[2])\n"
        "        return x.s0 * stride0 + x.s1 * stride1 + x.s2;\n"
        "    long index[3] = {x.s0, x.s1, x.s2};\n"
        "    return amp_check_outside(record, site, extent, 3, spare, size, past_extent, index,\n"
        "                             thread, thread_rank);\n"
        "}\n");
    /* __LINE__ of a macro is the line of the body where the accessor is
     * used, the line the simulator reports. */
    amp__sb_printf(
        sb,
        "#define AMP_CHECK_SITE(v) amp_check_record, (__LINE__ * %d + AMP_VIEW_##v) * 2 + 1, v##_extent, \\\n"
        "    (long)amp_##v##_spare, (int)sizeof(*amp_##v##_ptr), amp_past_extent, amp_thread_index, \\\n"
        "    (int)(sizeof amp_thread_index / sizeof amp_thread_index[0])\n",
        AMP_MAX_CAPTURES);
    amp__sb_append(
        sb, "#undef AMP_OFFSET_1\n"
            "#undef AMP_OFFSET_2\n"
            "#undef AMP_OFFSET_3\n"
            "#define AMP_OFFSET_1(v, i) amp_checked_1(AMP_CHECK_SITE(v), i)\n"
            "#define AMP_OFFSET_2(v, x) amp_checked_2(AMP_CHECK_SITE(v), amp_##v##_stride0, x)\n"
            "#define AMP_OFFSET_3(v, x) \\\n"
            "    amp_checked_3(AMP_CHECK_SITE(v), amp_##v##_stride0, amp_##v##_stride1, x)\n");
}

void amp__accessors_guarded(strbuf *sb)
{
    amp__sb_append(
        sb,
        "\n/* A padded domain: an access outside the view's extent (as a thread past\n"
        "   the original extent makes) lands on the sink, a small buffer of its\n"
        "   own, so it never touches the view's memory or the memory around it:\n"
        "   a write there is dropped, a read gives an unspecified value. Any\n"
        "   thread may still read or write any element inside the view. Each\n"
        "   index is computed once. */\n"
        "long amp_guard_1(long i, const int *extent)\n"
        "{\n"
        "    return i >= 0 && i < extent[0] ? i : -1;\n"
        "}\n"
        "long amp_guard_2(int2 x, const int *extent, long stride0)\n"
        "{\n"
        "    return x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1]\n"
        "        ? x.s0 * stride0 + x.s1 : -1;\n"
        "}\n"
        "long amp_guard_3(int3 x, const int *extent, long stride0, long stride1)\n"
        "{\n"
        "    return x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1] && x.s2 >= 0 &&\n"
        "            x.s2 < extent[2]\n"
        "        ? x.s0 * stride0 + x.s1 * stride1 + x.s2 : -1;\n"
        "}\n"
        "#undef AMP_PLACE\n"
        "#define AMP_PLACE(v, offset) amp_at_##v(amp_##v##_ptr, amp_##v##_sink, offset)[0]\n"
        "#undef AMP_OFFSET_1\n"
        "#undef AMP_OFFSET_2\n"
        "#undef AMP_OFFSET_3\n"
        "#define AMP_OFFSET_1(v, i) amp_guard_1(i, v##_extent)\n"
        "#define AMP_OFFSET_2(v, x) amp_guard_2(x, v##_extent, amp_##v##_stride0)\n"
        "#define AMP_OFFSET_3(v, x) amp_guard_3(x, v##_extent, amp_##v##_stride0, amp_##v##_stride1)\n");
}

/* "x.s0 >= 0 && x.s0 < extent[0] && ..." for the n lanes of x. */
static void inside_test(strbuf *sb, int n)
{
    for (int d = 0; d < n; d++)
        amp__sb_printf(sb, "%sx.s%d >= 0 && x.s%d < extent[%d]", d ? " && " : "", d, d, d);
}

/* The parameters stride0 .. stride(n-2), and their sum with x's lanes. */
static void stride_params(strbuf *sb, int n)
{
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(sb, ", long stride%d", d);
}

static void strided_sum(strbuf *sb, int n)
{
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(sb, "x.s%d * stride%d + ", d, d);
    amp__sb_printf(sb, "x.s%d", n - 1);
}

static void stride_args(strbuf *sb, int n)
{
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(sb, ", amp_##v##_stride%d", d);
}

void amp__accessors_guarded_rank(strbuf *sb, int n)
{
    int k = n <= 4 ? 4 : 8;
    amp__sb_printf(sb, "long amp_guard_%d(int%d x, const int *extent", n, k);
    stride_params(sb, n);
    amp__sb_append(sb, ")\n{\n    return ");
    inside_test(sb, n);
    amp__sb_append(sb, "\n        ? ");
    strided_sum(sb, n);
    amp__sb_printf(
        sb,
        " : -1;\n}\n#undef AMP_OFFSET_%d\n#define AMP_OFFSET_%d(v, x) amp_guard_%d(x, v##_extent",
        n, n, n);
    stride_args(sb, n);
    amp__sb_append(sb, ")\n");
}

void amp__accessors_checked_rank(strbuf *sb, int n)
{
    int k = n <= 4 ? 4 : 8;
    amp__sb_printf(sb, "long amp_checked_%d(AMP_CHECK_ARGS", n);
    stride_params(sb, n);
    amp__sb_printf(sb, ", int%d x)\n{\n    if (", k);
    inside_test(sb, n);
    amp__sb_append(sb, ")\n        return ");
    strided_sum(sb, n);
    amp__sb_printf(sb, ";\n    long index[%d] = {", n);
    for (int d = 0; d < n; d++)
        amp__sb_printf(sb, "%sx.s%d", d ? ", " : "", d);
    amp__sb_printf(
        sb,
        "};\n    return amp_check_outside(record, site, extent, %d, spare, size, past_extent,"
        " index,\n                             thread, thread_rank);\n}\n#undef AMP_OFFSET_%d\n#define AMP_OFFSET_%d(v, x) amp_checked_%d(AMP_CHECK_SITE(v)",
        n, n, n, n);
    stride_args(sb, n);
    amp__sb_append(sb, ", x)\n");
}

void amp__accessors_view(strbuf *sb, const cg_capture *c, const char *type, int written,
                         int guarded)
{
    const char *n = c->name;
    const char *constness = written ? "" : "const ";
    if (guarded)
        amp__sb_printf(sb,
                       "\n/* Where an access to %s lands: its element, or the sink. */\n"
                       "%s__global %s *amp_at_%s(%s__global %s *data, %s__global %s *sink,"
                       " long offset)\n"
                       "{\n"
                       "    return offset >= 0 ? data + offset : sink;\n"
                       "}\n",
                       n, constness, type, n, constness, type, constness, type);
    if (c->rank <= 3)
        amp__sb_printf(sb, "\n/* %s(%s)", n,
                       c->rank == 1   ? "i"
                       : c->rank == 2 ? "i, j"
                                      : "i, j, k");
    else
        amp__sb_printf(sb, "\n/* %s(i0, ..., i%d)", n, c->rank - 1);
    if (c->rank > 1)
        amp__sb_printf(sb, " or %s(index)", n);
    amp__sb_printf(sb, " is an element of view %s%s. */\n", n,
                   c->is_const ? " (const)"
                   : !written  ? " (read only here: a value, never copied back)"
                               : "");
    /* A view this kernel only reads gives values, not places: a write the
     * analysis did not see cannot compile (and the runtime then builds the
     * kernel again with the view written). A const view stays an lvalue of
     * a const type, so &v(i) works for vload. */
    if (!written && !c->is_const)
        amp__sb_printf(sb, "#define %s(...) AMP_READ_ONLY(AMP_ACCESS_%d(%s, __VA_ARGS__))\n", n,
                       c->rank, n);
    else
        amp__sb_printf(sb, "#define %s(...) AMP_ACCESS_%d(%s, __VA_ARGS__)\n", n, c->rank, n);
}

/* The offset of index x in a view value v of rank n, as C text. */
static void value_offset(strbuf *sb, const char *v, const char *x, int rank)
{
    if (rank == 1) {
        amp__sb_printf(sb, "(amp_off_t)%s", x);
        return;
    }
    amp__sb_printf(sb, "amp_offset_%d(%s", rank, x);
    for (int d = 0; d + 1 < rank; d++)
        amp__sb_printf(sb, ", %s.amp_stride[%d]", v, d);
    amp__sb_append(sb, ")");
}

void amp__accessors_view_value(strbuf *sb, const char *e, int rank, int guarded)
{
    int strides = rank > 1 ? rank - 1 : 1;
    amp__sb_printf(sb,
                   "\n/* array_view<%s, %d> inside the kernel: a view as a value (a section, a\n"
                   "   projection, a helper's parameter). */\n"
                   "typedef struct amp_view_%s_%d {\n"
                   "    __global %s *amp_ptr;        /* its element 0 */\n"
                   "    amp_off_t amp_stride[%d];     /* elements between consecutive indices */\n"
                   "    int amp_extent[%d];\n"
                   "    __global %s *amp_sink;       /* a padded domain's sink */\n"
                   "} amp_view_%s_%d;\n",
                   e, rank, e, rank, e, strides, rank, e, e, rank);
    amp__sb_printf(sb, "__global %s *amp_element_%s_%d(amp_view_%s_%d v, amp_index_%d x)\n{\n", e,
                   e, rank, e, rank, rank);
    if (guarded)
        amp__sb_printf(sb,
                       "    if (!amp_contains_%d(amp_extent_of_%d(v.amp_extent), x))\n"
                       "        return v.amp_sink;\n",
                       rank, rank);
    amp__sb_append(sb, "    return v.amp_ptr + ");
    value_offset(sb, "v", "x", rank);
    amp__sb_append(sb, ";\n}\n");
    amp__sb_printf(sb,
                   "amp_view_%s_%d amp_section_%s_%d(amp_view_%s_%d v, amp_index_%d origin,"
                   " amp_extent_%d e)\n{\n    v.amp_ptr += ",
                   e, rank, e, rank, e, rank, rank, rank);
    value_offset(sb, "v", "origin", rank);
    amp__sb_append(sb, ";\n");
    for (int d = 0; d < rank; d++) {
        if (rank == 1)
            amp__sb_append(sb, "    v.amp_extent[0] = e;\n");
        else
            amp__sb_printf(sb, "    v.amp_extent[%d] = e.s%d;\n", d, d);
    }
    amp__sb_printf(sb,
                   "    return v;\n}\n"
                   "amp_view_%s_%d amp_section_from_%s_%d(amp_view_%s_%d v, amp_index_%d origin)\n"
                   "{\n    return amp_section_%s_%d(v, origin, amp_extent_of_%d(v.amp_extent) -"
                   " origin);\n}\n",
                   e, rank, e, rank, e, rank, rank, e, rank, rank);
    if (rank < 2)
        return;
    amp__sb_printf(sb,
                   "amp_view_%s_%d amp_project_%s_%d(amp_view_%s_%d v, int i)\n"
                   "{\n"
                   "    amp_view_%s_%d p;\n"
                   "    p.amp_ptr = v.amp_ptr + (amp_off_t)i * v.amp_stride[0];\n",
                   e, rank - 1, e, rank, e, rank, e, rank - 1);
    if (rank == 2)
        amp__sb_append(sb, "    p.amp_stride[0] = 1;\n");
    for (int d = 0; d + 2 < rank; d++)
        amp__sb_printf(sb, "    p.amp_stride[%d] = v.amp_stride[%d];\n", d, d + 1);
    for (int d = 0; d + 1 < rank; d++)
        amp__sb_printf(sb, "    p.amp_extent[%d] = v.amp_extent[%d];\n", d, d + 1);
    amp__sb_append(sb, "    p.amp_sink = v.amp_sink;\n    return p;\n}\n");
}
