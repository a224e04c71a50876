/*
 * runtime/translate/accessors.c - the macros and functions through which a
 * kernel body reaches its captures: view elements (plain, padded, or
 * checked under AMP_CHECK) and texture texels.
 */
#include "translate/accessors.h"

#include <ctype.h>
#include <string.h>

#include "translate/cl.h"

/* The class of a texel's values: int, uint, or float (float, norm and
 * unorm texels are read and written as floats). */
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

/* The function name suffix of a class: i, ui or f. */
static const char *class_suffix(amp_elem_type t)
{
    return t == AMP_INT ? "i" : t == AMP_UINT ? "ui" : "f";
}

static const char *const image_types[] = {"image1d_t", "image2d_t", "image3d_t"};
static const char *const coord_types[] = {"int", "int2", "int4"};

/* Whether a texture of rank (folded or not) is read and written through a
 * __read_write image, or written through a __write_only one. */
static unsigned need_of(const cg_capture *c)
{
    unsigned need = 0;
    if (c->access == AMP_TEXTURE_READ_WRITE)
        need |= TEXTURE_NEED_READ_WRITE;
    if (c->access != AMP_TEXTURE_READ && c->rank == 3)
        need |= TEXTURE_NEED_3D_WRITES;
    return need;
}

unsigned amp__accessors_texture_needs(const cg_capture *c)
{
    return c->kind == AMP_CAPTURE_TEXTURE ? need_of(c) : 0;
}

/* The functions through which kernels write 3D images, which need the
 * extension's pragma first. */
static void stores_3d(strbuf *sb)
{
    static const amp_elem_type classes[] = {AMP_INT, AMP_UINT, AMP_FLOAT};
    amp__sb_append(sb, "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n");
    for (int k = 0; k < 3; k++) {
        const char *t = texel_name(classes[k]);
        amp__sb_printf(
            sb,
            "void __attribute__((overloadable)) amp_store(__write_only image3d_t image,"
            " int4 c, %s4 value)\n"
            "{\n"
            "    if (c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x < get_image_width(image) &&\n"
            "        c.y < get_image_height(image) && c.z < get_image_depth(image))\n"
            "        write_image%s(image, c, value);\n"
            "}\n",
            t, class_suffix(classes[k]));
    }
}

/* The inside test of coordinates c of an image of dimension d (0, 1, 2:
 * 1D, 2D, 3D). */
static void inside(strbuf *sb, int d)
{
    if (d == 0)
        amp__sb_append(sb, "c >= 0 && c < get_image_width(image)");
    else if (d == 1)
        amp__sb_append(sb, "c.x >= 0 && c.y >= 0 && c.x < get_image_width(image) &&"
                           " c.y < get_image_height(image)");
    else
        amp__sb_append(sb, "c.x >= 0 && c.y >= 0 && c.z >= 0 && c.x < get_image_width(image) &&"
                           " c.y < get_image_height(image) && c.z < get_image_depth(image)");
}

/* The functions of textures read and written in one kernel (OpenCL C
 * 2.0's __read_write images): a read, 0 outside; a write, dropped outside,
 * then the fence after which this thread's later reads see it. Those of 3D
 * images only with_3d (they need cl_khr_3d_image_writes' pragma first). */
static void read_write(strbuf *sb, int with_3d)
{
    static const amp_elem_type classes[] = {AMP_INT, AMP_UINT, AMP_FLOAT};
    for (int d = 0; d < (with_3d ? 3 : 2); d++)
        for (int k = 0; k < 3; k++) {
            const char *t = texel_name(classes[k]), *f = class_suffix(classes[k]);
            amp__sb_printf(sb,
                           "%s4 __attribute__((overloadable)) amp_load_%s(__read_write %s image,"
                           " %s c)\n{\n    return ",
                           t, f, image_types[d], coord_types[d]);
            inside(sb, d);
            amp__sb_printf(sb, " ? read_image%s(image, c) : (%s4)(0);\n}\n", f, t);
            amp__sb_printf(
                sb,
                "void __attribute__((overloadable)) amp_store(__read_write %s image, %s c,"
                " %s4 value)\n{\n    if (",
                image_types[d], coord_types[d], t);
            inside(sb, d);
            amp__sb_printf(sb,
                           ")\n        write_image%s(image, c, value);\n"
                           "    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel,"
                           " memory_scope_work_item);\n}\n",
                           f);
        }
    for (int k = 0; k < 3; k++) {
        const char *t = texel_name(classes[k]), *f = class_suffix(classes[k]);
        amp__sb_printf(sb,
                       "%s4 __attribute__((overloadable)) amp_load_folded_%s(__read_write image2d_t"
                       " image, int i, int n)\n"
                       "{\n"
                       "    return (uint)i < (uint)n ? read_image%s(image, AMP_FOLDED(image, i))"
                       " : (%s4)(0);\n"
                       "}\n"
                       "void __attribute__((overloadable)) amp_store_folded(__read_write image2d_t"
                       " image, int i, int n, %s4 value)\n"
                       "{\n"
                       "    if ((uint)i < (uint)n)\n"
                       "        write_image%s(image, AMP_FOLDED(image, i), value);\n"
                       "    atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel,"
                       " memory_scope_work_item);\n"
                       "}\n",
                       t, f, f, t, t, f);
    }
}

/* The definitions every kernel that captures a texture needs, once. */
void amp__accessors_texture_vocabulary(strbuf *sb, const cg_spec *spec, unsigned needs)
{
    amp__sb_append(sb, "\n");
    amp__sb_append(sb, amp__cl_textures);
    if (needs & TEXTURE_NEED_3D_WRITES)
        stores_3d(sb);
    if (needs & TEXTURE_NEED_READ_WRITE)
        read_write(sb, (needs & TEXTURE_NEED_3D_WRITES) != 0);
    /* A rank-1 texture wider than a 1D image is folded into the rows of a
     * 2D image: texel i is at (i % width, i / width). The last row's unused
     * end is inside the image, so reads past the texture are checked here,
     * to give 0 as the other textures' do. */
    static const amp_elem_type types[] = {AMP_INT, AMP_UINT, AMP_FLOAT};
    for (int k = 0; k < 3; k++) {
        int used = 0;
        for (int i = 0; i < spec->ncaptures; i++) {
            const cg_capture *c = &spec->captures[i];
            amp_elem_type type = c->type == AMP_INT || c->type == AMP_UINT ? c->type : AMP_FLOAT;
            used |= c->kind == AMP_CAPTURE_TEXTURE && c->image_kind == CG_IMAGE_1D_FOLDED &&
                    c->access == AMP_TEXTURE_READ && type == types[k];
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

/* value (of the texture's element type) as the four channels a store
 * takes: the texture's own, then zeros. A norm is clamped to [-1, 1] first,
 * as Direct3D stores it (OpenCL alone stores -2.0 as -128, not -127). */
static void widened(strbuf *sb, const cg_capture *c)
{
    const char *t = texel_name(c->type);
    const char *zero = c->type == AMP_INT ? "0" : c->type == AMP_UINT ? "0u" : "0.0f";
    if (c->type == AMP_NORM)
        amp__sb_append(sb, "clamp(");
    if (c->channels == 1)
        amp__sb_printf(sb, "(%s4)((%s)(value), %s, %s, %s)", t, t, zero, zero, zero);
    else if (c->channels == 2)
        amp__sb_printf(sb, "(%s4)((%s2)(value), %s, %s)", t, t, zero, zero);
    else
        amp__sb_printf(sb, "(%s4)(value)", t);
    if (c->type == AMP_NORM)
        amp__sb_append(sb, ", -1.0f, 1.0f)");
}

static const char *access_words(int access)
{
    return access == AMP_TEXTURE_WRITE        ? "written only"
           : access == AMP_TEXTURE_READ_WRITE ? "read and written"
                                              : "read only";
}

/* The accessor macros of texture c: reads, writes and samples, each as
 * the kernel's access to it allows; what it does not allow is a name that
 * does not compile, and says why. */
void amp__accessors_texture(strbuf *sb, const cg_capture *c)
{
    static const char *const args[] = {"", "i", "i, j", "i, j, k"};
    const char *n = c->name;
    const char *suffix = channel_suffix(c->channels);
    int folded = c->image_kind == CG_IMAGE_1D_FOLDED;
    int readable = c->access != AMP_TEXTURE_WRITE, writable = c->access != AMP_TEXTURE_READ;
    if (readable)
        amp__sb_printf(
            sb, "\n/* %s(%s), %s[index] or %s.get(index) is a texel of texture %s (%s)%s. */\n", n,
            args[c->rank], n, n, n, access_words(c->access),
            writable ? "; .set(index, value) writes one" : "");
    else
        amp__sb_printf(sb, "\n/* %s.set(index, value) writes a texel of texture %s (%s). */\n", n,
                       n, access_words(c->access));
    amp__sb_printf(sb, "#define %s(...) AMP_TEXEL_%d(%s, __VA_ARGS__)\n", n, c->rank, n);
    amp__sb_printf(sb, "#define AMP_GET_%s(index) %s(index)\n", n, n);
    if (!readable)
        amp__sb_printf(sb, "#define AMP_READ_%s(coord) amp_read_needs_a_texture_view_that_reads\n",
                       n);
    else if (c->access == AMP_TEXTURE_READ_WRITE && folded)
        amp__sb_printf(sb,
                       "#define AMP_READ_%s(coord) (amp_load_folded_%s(amp_%s_image, coord,"
                       " %s_extent[0])%s)\n",
                       n, class_suffix(c->type), n, n, suffix);
    else if (c->access == AMP_TEXTURE_READ_WRITE)
        amp__sb_printf(sb, "#define AMP_READ_%s(coord) (amp_load_%s(amp_%s_image, coord)%s)\n", n,
                       class_suffix(c->type), n, suffix);
    else if (folded)
        amp__sb_printf(
            sb,
            "#define AMP_READ_%s(coord) (amp_folded_texel_%s(amp_%s_image, coord, %s_extent[0])%s)\n",
            n, texel_name(c->type), n, n, suffix);
    else
        amp__sb_printf(
            sb, "#define AMP_READ_%s(coord) (%s(amp_%s_image, amp_texel_sampler, coord)%s)\n", n,
            read_function(c->type), n, suffix);
    if (!writable) {
        amp__sb_printf(sb, "#define AMP_SET_%s(...) amp_set_needs_a_texture_view_that_writes\n", n);
    } else {
        amp__sb_printf(sb, "#define AMP_SET_%s(index, value) \\\n    ", n);
        if (folded)
            amp__sb_printf(
                sb, "amp_store_folded(amp_%s_image, AMP_IMAGE_COORD_1(index), %s_extent[0], ", n,
                n);
        else
            amp__sb_printf(sb, "amp_store(amp_%s_image, AMP_IMAGE_COORD_%d(index), ", n, c->rank);
        widened(sb, c);
        amp__sb_append(sb, ")\n");
    }
    /* Sampling and gathering: textures of floats a kernel only reads. */
    const char *no_sample = c->type == AMP_INT || c->type == AMP_UINT
                                ? "amp_sample_needs_a_float_texture"
                            : c->access != AMP_TEXTURE_READ
                                ? "amp_sample_needs_a_texture_view_that_only_reads"
                            : folded ? "amp_sample_needs_a_texture_within_the_1d_image_width_limit"
                                     : NULL;
    if (no_sample) {
        amp__sb_printf(sb, "#define AMP_SAMPLE_%s(...) %s\n", n, no_sample);
        amp__sb_printf(sb, "#define AMP_SAMPLE_WITH_%s(...) %s\n", n, no_sample);
        amp__sb_printf(sb, "#define AMP_GATHER_%s(...) %s\n", n, no_sample);
        return;
    }
    static const char *const float_coords[] = {"", "(float)", "(float2)", "(float4)"};
    amp__sb_printf(sb,
                   "#define AMP_SAMPLE_%s(...) \\\n"
                   "    (read_imagef(amp_%s_image, amp_linear_sampler, %s(__VA_ARGS__%s))%s)\n",
                   n, n, float_coords[c->rank], c->rank == 3 ? ", 0.0f" : "", suffix);
    amp__sb_printf(sb,
                   "#define AMP_SAMPLE_WITH_%s(sampler, coord) \\\n"
                   "    (read_imagef(amp_%s_image, AMP_SAMPLER_OF(sampler),"
                   " AMP_SAMPLE_COORD_%d(coord))%s)\n",
                   n, n, c->rank, suffix);
    if (c->rank == 2)
        amp__sb_printf(sb,
                       "#define AMP_GATHER_%s(channel, sampler, coord) \\\n"
                       "    amp_gather(amp_%s_image, AMP_POINT_SAMPLER_OF(sampler),"
                       " AMP_SAMPLE_COORD_2(coord), channel)\n",
                       n, n);
    else
        amp__sb_printf(sb, "#define AMP_GATHER_%s(...) amp_gather_needs_a_rank_2_texture\n", n);
}

/* AMP_CHECK's offsets, in place of the prelude's (and of a padded
 * domain's): see codegen.h for the record they fill. */
void amp__accessors_checked(strbuf *sb, int spare_bytes)
{
    /* The record's layout, in the words the piece names it with. */
    const struct {
        const char *name;
        int value;
    } values[] = {{"CG_CHECK_SLOTS", CG_CHECK_SLOTS},    {"CG_CHECK_WORDS", CG_CHECK_WORDS},
                  {"CG_REC_SITE", CG_REC_SITE},          {"CG_REC_RANK", CG_REC_RANK},
                  {"CG_REC_INDEX", CG_REC_INDEX},        {"CG_REC_INDEX_HIGH", CG_REC_INDEX + 1},
                  {"CG_REC_EXTENT", CG_REC_EXTENT},      {"CG_REC_THREAD", CG_REC_THREAD},
                  {"CG_SPARE_BYTES", spare_bytes},       {"AMP_MAX_RANK", AMP_MAX_RANK},
                  {"AMP_MAX_CAPTURES", AMP_MAX_CAPTURES}};
    amp__sb_append(sb, "\n");
    const char *s = amp__cl_checked;
    while (*s) {
        if (!isalpha((unsigned char)*s) && *s != '_') {
            amp__sb_append_n(sb, s++, 1);
            continue;
        }
        size_t n = 1;
        while (isalnum((unsigned char)s[n]) || s[n] == '_')
            n++;
        size_t k = 0, count = sizeof values / sizeof values[0];
        while (k < count && !(strlen(values[k].name) == n && memcmp(values[k].name, s, n) == 0))
            k++;
        if (k < count)
            amp__sb_printf(sb, "%d", values[k].value);
        else
            amp__sb_append_n(sb, s, n);
        s += n;
    }
}

void amp__accessors_guarded(strbuf *sb)
{
    amp__sb_append(sb, "\n");
    amp__sb_append(sb, amp__cl_guarded);
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

void amp__accessors_view_value(strbuf *sb, const char *n, const char *e, int rank, int guarded)
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
                   e, rank, n, rank, e, strides, rank, e, n, rank);
    amp__sb_printf(sb, "__global %s *amp_element_%s_%d(amp_view_%s_%d v, amp_index_%d x)\n{\n", e,
                   n, rank, n, rank, rank);
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
                   n, rank, n, rank, n, rank, rank, rank);
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
                   n, rank, n, rank, n, rank, rank, n, rank, rank);
    if (rank < 2)
        return;
    amp__sb_printf(sb,
                   "amp_view_%s_%d amp_project_%s_%d(amp_view_%s_%d v, int i)\n"
                   "{\n"
                   "    amp_view_%s_%d p;\n"
                   "    p.amp_ptr = v.amp_ptr + (amp_off_t)i * v.amp_stride[0];\n",
                   n, rank - 1, n, rank, n, rank, n, rank - 1);
    if (rank == 2)
        amp__sb_append(sb, "    p.amp_stride[0] = 1;\n");
    for (int d = 0; d + 2 < rank; d++)
        amp__sb_printf(sb, "    p.amp_stride[%d] = v.amp_stride[%d];\n", d, d + 1);
    for (int d = 0; d + 1 < rank; d++)
        amp__sb_printf(sb, "    p.amp_extent[%d] = v.amp_extent[%d];\n", d, d + 1);
    amp__sb_append(sb, "    p.amp_sink = v.amp_sink;\n    return p;\n}\n");
}
