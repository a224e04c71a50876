/*
 * runtime/translate/translate.c - turning a kernel body and its captures into an
 * OpenCL C program that a learner can read.
 *
 * amp__translate reads each helper and the body (text.c), then writes the
 * program in order, one emitter per part: the header comment, the prelude
 * and the vocabulary the body uses, the types, the accessors, the helper
 * functions, the kernel's signature, its moved tile_static declarations,
 * the index set-up, and the body laid out (layout.c).
 */
#include "translate/translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/elem.h"
#include "core/error.h"
#include "core/lexicon.h"
#include "translate/accessors.h"
#include "translate/text.h"
#include "translate/layout.h"
#include "translate/vocabulary.h"
#include "translate/writes.h"

/* What the emitters share. */
typedef struct gen {
    const tr_spec *tr;
    const cg_spec *spec; /* tr's call */
    const char *name;
    cg_kernel *out;
    strbuf sb;
    kbody body;                      /* the read body */
    kbody helpers[AMP_MAX_CAPTURES]; /* the read helpers, by capture */
    int helper_read[AMP_MAX_CAPTURES];
    uint32_t ranks;      /* bit r: the body or a helper uses index functions of rank r */
    uint32_t view_ranks; /* bit r: a captured view or a view value of rank r */
    /* a helper's texture parameters, as C strings */
    char texture_names[AMP_MAX_FUNCTION_PARAMS][64];
    int checked;   /* AMP_CHECK, and the kernel has views */
    int read_body; /* body holds a reading */
    int nstructs;  /* the struct types the kernel knows: its views' and those it names */
    const char *struct_names[AMP_MAX_STRUCT_TYPES];
    amp_elem_type struct_ids[AMP_MAX_STRUCT_TYPES];
    const amp_struct_desc *struct_descs[AMP_MAX_STRUCT_TYPES];
} gen;

/* A registered struct type, or NULL. */
static const cg_struct *struct_of(const tr_spec *tr, amp_elem_type t)
{
    for (int i = 0; i < tr->nstructs; i++)
        if (tr->structs[i].type == t)
            return &tr->structs[i];
    return NULL;
}

/* An element type's OpenCL C type in memory: a scalar, a vector of 2 or 4
 * (float4), a 3-vector as C++ AMP lays it out (amp_packed_float3: 12
 * bytes, where OpenCL's float3 takes 16), or a struct. */
static const char *elem_name(const tr_spec *tr, amp_elem_type t)
{
    static const char *const packed[] = {"amp_packed_int3", "amp_packed_uint3", "amp_packed_float3",
                                         "amp_packed_double3"};
    if (amp__elem_lanes(t) == 3)
        return packed[amp__elem_scalar(t) - AMP_INT];
    if (amp__elem_lanes(t))
        return amp__body_elem_name(NULL, (uint16_t)t);
    if (t == AMP_NORM)
        return "norm";
    if (t == AMP_UNORM)
        return "unorm";
    const cg_struct *s = struct_of(tr, t);
    return s ? s->desc->name : "unknown";
}

static const char *elem_cl_name(const gen *g, amp_elem_type t)
{
    return elem_name(g->tr, t);
}

/* An element type's OpenCL C type as a value: float3 for a 3-vector, as
 * elem_name otherwise; also its part of the names of view values and
 * their functions (amp_view_float3_1, amp_element_particle_1). */
static const char *elem_value_name(const gen *g, amp_elem_type t)
{
    return amp__elem_lanes(t) ? amp__body_elem_name(NULL, (uint16_t)t) : elem_cl_name(g, t);
}

/* An element type as C++ AMP code names it, for the header comment:
 * "float_3" for a short vector. */
static void elem_cxx_name(const gen *g, amp_elem_type t, char *buf, size_t n)
{
    if (amp__elem_lanes(t) > 1)
        snprintf(buf, n, "%s_%d", amp__elem_scalar_name(t), amp__elem_lanes(t));
    else
        snprintf(buf, n, "%s", elem_cl_name(g, t));
}

/* The OpenCL C type of a texture's image. */
static const char *image_type_name(int kind)
{
    switch ((cg_image_kind)kind) {
    case CG_IMAGE_1D: return "image1d_t";
    case CG_IMAGE_1D_FOLDED: return "image2d_t";
    case CG_IMAGE_2D: return "image2d_t";
    case CG_IMAGE_3D: return "image3d_t";
    }
    return "unknown";
}

static int written(const gen *g, int i)
{
    return (g->out->written_mask >> i) & 1u;
}

/* ---- Names ---- */

static amp_status refuse_name(const cg_spec *spec, const char *what, const char *name,
                              const char *why)
{
    const amp_kernel_source *k = spec->source;
    return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "parallel_for_each at %s:%d: %s '%s' %s.",
                        k->file, k->line, what, name, why);
}

/* Predefined macros of OpenCL C that an AMP_CONST of the same name would
 * redefine under the kernel's feet (CLK_* and M_* count by prefix). */
static int is_opencl_macro(const char *name)
{
    static const char *const macros[] = {"__OPENCL_VERSION__",
                                         "__OPENCL_C_VERSION__",
                                         "__ENDIAN_LITTLE__",
                                         "__IMAGE_SUPPORT__",
                                         "__FAST_RELAXED_MATH__",
                                         "__kernel_exec",
                                         "kernel_exec",
                                         "MAXFLOAT",
                                         "HUGE_VALF",
                                         "HUGE_VAL",
                                         "INFINITY",
                                         "NAN",
                                         "FP_ILOGB0",
                                         "FP_ILOGBNAN",
                                         "FP_FAST_FMA",
                                         "FP_FAST_FMAF",
                                         "CHAR_BIT",
                                         "CHAR_MAX",
                                         "CHAR_MIN",
                                         "SCHAR_MAX",
                                         "SCHAR_MIN",
                                         "UCHAR_MAX",
                                         "SHRT_MAX",
                                         "SHRT_MIN",
                                         "USHRT_MAX",
                                         "INT_MAX",
                                         "INT_MIN",
                                         "UINT_MAX",
                                         "LONG_MAX",
                                         "LONG_MIN",
                                         "ULONG_MAX",
                                         NULL};
    static const char *const prefixes[] = {"CLK_", "CL_",   "M_",  "FLT_",
                                           "DBL_", "HALF_", "cl_", NULL};
    for (const char *const *m = macros; *m; m++)
        if (strcmp(name, *m) == 0)
            return 1;
    for (const char *const *p = prefixes; *p; p++)
        if (strncmp(name, *p, strlen(*p)) == 0)
            return 1;
    return 0;
}

/* Every name the kernel will declare must be an identifier, unique, and
 * none the generated kernel owns. */
static amp_status check_names(const cg_spec *spec)
{
    const amp_kernel_source *k = spec->source;
    const char *ix = k->index_name;
    if (!amp__lexicon_is_identifier(ix))
        return refuse_name(spec, "the index name", ix, "is not an identifier");
    if (amp__lexicon_is_keyword(ix))
        return refuse_name(spec, "the index name", ix,
                           "is a keyword of OpenCL C; choose another name");
    if (strncmp(ix, "amp_", 4) == 0 || amp__vocab_reserves(ix, strlen(ix)))
        return refuse_name(spec, "the index name", ix,
                           "is a name of the generated kernel; choose another name");
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        const char *name = c->name;
        if (!amp__lexicon_is_identifier(name))
            return refuse_name(spec, "capture", name ? name : "(null)",
                               "is not a variable name. A capture becomes a name inside the"
                               " kernel; for a macro constant write AMP_CONST(NAME)");
        if (amp__lexicon_is_keyword(name))
            return refuse_name(spec, "capture", name,
                               "is named like a keyword of OpenCL C, which a kernel cannot use"
                               " as a variable; rename it");
        if (c->kind == AMP_CAPTURE_FUNCTION && amp__lexicon_is_builtin_function(name))
            return refuse_name(spec, "function", name,
                               "has the name of one of OpenCL C's built-in functions, which a"
                               " helper cannot redefine; rename it (or call the built-in)");
        if (c->kind == AMP_CAPTURE_CONSTANT && is_opencl_macro(name))
            return refuse_name(spec, "AMP_CONST", name,
                               "is a macro OpenCL C defines itself, which the constant would"
                               " replace; give the constant another name");
        if (strncmp(name, "amp_", 4) == 0 || strncmp(name, "AMP_", 4) == 0 ||
            amp__vocab_reserves(name, strlen(name)))
            return refuse_name(spec, "capture", name,
                               "is a name the generated kernel uses itself (names that start"
                               " with amp_ or AMP_, and the kernel vocabulary's); rename it");
        /* Inside the kernel the capture would hide the index (or, as an
         * AMP_CONST, replace it), and the body would not compile. */
        if (strcmp(name, ix) == 0)
            return refuse_name(spec, "capture", name,
                               "has the name of the index; rename one of them");
        for (int j = 0; j < i; j++)
            if (strcmp(spec->captures[j].name, name) == 0)
                return refuse_name(spec, "capture", name, "is captured twice");
        /* The kernel names a view's or texture's extent <name>_extent. */
        size_t n = strlen(name);
        for (int j = 0; j < spec->ncaptures; j++) {
            const cg_capture *v = &spec->captures[j];
            int shaped = v->kind == AMP_CAPTURE_VIEW || v->kind == AMP_CAPTURE_TEXTURE;
            size_t m = shaped && v->name ? strlen(v->name) : 0;
            if (m && n == m + 7 && strncmp(name, v->name, m) == 0 &&
                strcmp(name + m, "_extent") == 0)
                return refuse_name(spec, "capture", name,
                                   "is the name the kernel gives the extent of the captured"
                                   " view or texture it starts with; rename it");
        }
    }
    return AMP_OK;
}

/* A registered struct's name and members become OpenCL C names: none may
 * be a keyword, a built-in type or a name of the generated kernel. */
static amp_status check_struct_names(const cg_spec *spec, const cg_struct *s)
{
    const amp_struct_desc *d = s->desc;
    if (amp__lexicon_is_keyword(d->name) || strncmp(d->name, "amp_", 4) == 0 ||
        amp__vocab_reserves(d->name, strlen(d->name)))
        return refuse_name(spec, "the struct type", d->name,
                           "is named like a keyword, a built-in type of OpenCL C or a name of"
                           " the generated kernel; rename the struct");
    for (int m = 0; m < d->nmembers; m++) {
        const char *member = d->members[m].name;
        if (amp__lexicon_is_keyword(member) && strcmp(member, "global") != 0 &&
            strcmp(member, "local") != 0)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "parallel_for_each at %s:%d: member '%s' of struct '%s' is named"
                                " like a keyword or built-in type of OpenCL C, which a kernel"
                                " cannot use as a member; rename it.",
                                spec->source->file, spec->source->line, member, d->name);
    }
    return AMP_OK;
}

/* Know the struct type t, once. */
static amp_status know_struct(gen *g, amp_elem_type t)
{
    for (int j = 0; j < g->nstructs; j++)
        if (g->struct_ids[j] == t)
            return AMP_OK;
    if (g->nstructs == AMP_MAX_STRUCT_TYPES)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "parallel_for_each at %s:%d: the kernel names more than %d struct"
                            " types; split it.",
                            g->spec->source->file, g->spec->source->line, AMP_MAX_STRUCT_TYPES);
    const cg_struct *s = struct_of(g->tr, t);
    if (!s)
        return AMP_OK;
    amp_status st = check_struct_names(g->spec, s);
    if (st == AMP_OK && s->has_double && !g->spec->fp64)
        st = amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                          "The kernel at %s:%d uses struct '%s', which holds double, and the"
                          " device has no double precision. Use float, or choose an"
                          " accelerator whose info says supports_double.",
                          g->spec->source->file, g->spec->source->line, s->desc->name);
    if (st == AMP_OK) {
        g->struct_ids[g->nstructs] = t;
        g->struct_descs[g->nstructs] = s->desc;
        g->struct_names[g->nstructs++] = s->desc->name;
    }
    return st;
}

/* The struct types a kernel knows: those of its views, and every
 * registered struct type that the body or a helper names, as a C++ type
 * is known wherever its definition is visible. */
static amp_status collect_structs(gen *g)
{
    const cg_spec *spec = g->spec;
    amp_status st = AMP_OK;
    for (int i = 0; i < spec->ncaptures && st == AMP_OK; i++)
        if ((spec->captures[i].kind == AMP_CAPTURE_VIEW ||
             spec->captures[i].kind == AMP_CAPTURE_STRUCT) &&
            struct_of(g->tr, spec->captures[i].type))
            st = know_struct(g, spec->captures[i].type);
    for (int k = 0; k < g->tr->nstructs && st == AMP_OK; k++) {
        amp_elem_type t = g->tr->structs[k].type;
        const char *name = g->tr->structs[k].desc->name;
        int named = amp__lex_text_uses(spec->source->body, spec->source->body_length, name, 0);
        for (int i = 0; i < spec->ncaptures && !named; i++) {
            const cg_capture *c = &spec->captures[i];
            named = c->kind == AMP_CAPTURE_FUNCTION &&
                    amp__lex_text_uses(c->function_source, strlen(c->function_source), name, 0);
        }
        if (named)
            st = know_struct(g, t);
    }
    return st;
}

/* ---- The body ---- */

static body_name_kind name_kind(amp_capture_kind k)
{
    switch (k) {
    case AMP_CAPTURE_VIEW: return BODY_NAME_VIEW;
    case AMP_CAPTURE_TEXTURE: return BODY_NAME_TEXTURE;
    case AMP_CAPTURE_SCALAR:
    case AMP_CAPTURE_STRUCT: return BODY_NAME_SCALAR;
    case AMP_CAPTURE_CONSTANT: return BODY_NAME_CONSTANT;
    case AMP_CAPTURE_FUNCTION: return BODY_NAME_FUNCTION;
    default: return BODY_NAME_SCALAR;
    }
}

/* What a capture is to the body reader: a view of its rank, an index or
 * an extent value. */
static body_type capture_type(const cg_capture *c)
{
    body_type t = BODY_TYPE_OTHER;
    if (c->kind == AMP_CAPTURE_VIEW) {
        t.kind = TYPE_VIEW;
        t.rank = (uint8_t)c->rank;
        t.elem = (uint16_t)c->type;
        t.is_const = (uint8_t)c->is_const;
    } else if (c->kind == AMP_CAPTURE_INDEX || c->kind == AMP_CAPTURE_EXTENT) {
        t.kind = c->kind == AMP_CAPTURE_INDEX ? TYPE_INDEX : TYPE_EXTENT;
        t.rank = (uint8_t)c->rank;
    } else if (c->kind == AMP_CAPTURE_SCALAR && amp__elem_is_vector(c->type)) {
        t.kind = TYPE_VECTOR; /* a float_3 captured by value: OpenCL's float3 */
        t.elem = (uint16_t)c->type;
    } else if (c->kind == AMP_CAPTURE_STRUCT) {
        t.kind = TYPE_STRUCT;
        t.elem = (uint16_t)c->type;
    } else if (c->kind == AMP_CAPTURE_TEXTURE) {
        t.kind = TYPE_TEXTURE;
        t.rank = (uint8_t)c->rank;
        t.elem = (uint16_t)c->type;
        t.channels = (uint8_t)c->channels;
        t.folded = c->image_kind == CG_IMAGE_1D_FOLDED;
        t.access = (uint8_t)c->access;
        t.is_const = c->access == AMP_TEXTURE_READ;
    }
    return t;
}

/* Read each helper (into g->helpers), then the body with the names the
 * kernel gives it, what each helper returns and takes. */
/* A helper's parameter or variable named like one of the kernel's
 * AMP_CONST or AMP_SAMPLER captures, which are #defines of the whole
 * kernel, would become the capture's value (float scale(float x, float s)
 * with a sampler s: "float 3"): refused at its declaration, by name. */
static amp_status clear_of_constants(const cg_spec *spec, kbody *h, const char *helper)
{
    for (size_t d = 0; d < h->ndecls && h->status == AMP_OK; d++) {
        const body_decl *decl = &h->decls[d];
        if (decl->token < 0)
            continue;
        for (int i = 0; i < spec->ncaptures; i++) {
            const cg_capture *c = &spec->captures[i];
            if (c->kind == AMP_CAPTURE_CONSTANT && strlen(c->name) == decl->length &&
                memcmp(c->name, decl->name, decl->length) == 0) {
                amp__body_fail(h, decl->token, AMP_ERROR_KERNEL_BUILD,
                               "%s's '%s' has the name of the kernel's capture AMP_CONST(%s) or"
                               " AMP_SAMPLER(%s), a #define of the whole kernel, which would put"
                               " its value here: rename one of them",
                               helper, c->name, c->name, c->name);
                break;
            }
        }
    }
    return h->status;
}

static amp_status read_body(gen *g)
{
    const cg_spec *spec = g->spec;
    const char *names[AMP_MAX_CAPTURES];
    body_name_kind kinds[AMP_MAX_CAPTURES];
    body_type types[AMP_MAX_CAPTURES], returns[AMP_MAX_CAPTURES];
    const kbody *helpers[AMP_MAX_CAPTURES];
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        names[i] = c->name;
        kinds[i] = name_kind(c->kind);
        types[i] = capture_type(c);
        returns[i] = BODY_TYPE_OTHER;
        helpers[i] = NULL;
    }
    amp_status st = AMP_OK;
    /* A helper sees the helpers captured before it (what they take and
     * return), as a C function sees the functions defined above it; not
     * the kernel's other captures. */
    const char *fnames[AMP_MAX_CAPTURES];
    body_name_kind fkinds[AMP_MAX_CAPTURES];
    body_type ftypes[AMP_MAX_CAPTURES], freturns[AMP_MAX_CAPTURES];
    const kbody *fhelpers[AMP_MAX_CAPTURES];
    int nfunctions = 0;
    for (int i = 0; i < spec->ncaptures && st == AMP_OK; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_FUNCTION)
            continue;
        body_context ctx = {.file = c->function_file,
                            .line = c->function_line,
                            .ncaptures = nfunctions,
                            .capture_names = fnames,
                            .capture_kinds = fkinds,
                            .ntypes = g->nstructs,
                            .type_names = g->struct_names,
                            .type_ids = g->struct_ids,
                            .type_descs = g->struct_descs,
                            .capture_types = ftypes,
                            .capture_returns = freturns,
                            .capture_helpers = fhelpers,
                            .checked = spec->checked,
                            .function = 1};
        st = amp__text_read(c->function_source, strlen(c->function_source), &ctx, &g->helpers[i]);
        g->helper_read[i] = 1;
        if (st == AMP_OK)
            st = clear_of_constants(spec, &g->helpers[i], c->name);
        if (st == AMP_OK) {
            returns[i] = g->helpers[i].returns;
            helpers[i] = &g->helpers[i];
            g->ranks |= g->helpers[i].ranks;
            fnames[nfunctions] = c->name;
            fkinds[nfunctions] = BODY_NAME_FUNCTION;
            ftypes[nfunctions] = BODY_TYPE_OTHER;
            freturns[nfunctions] = returns[i];
            fhelpers[nfunctions++] = helpers[i];
        }
    }
    if (st != AMP_OK)
        return st;
    body_context ctx = {
        .file = spec->source->file,
        .line = spec->source->line,
        .index_name = spec->source->index_name,
        .ncaptures = spec->ncaptures,
        .capture_names = names,
        .capture_kinds = kinds,
        .ntypes = g->nstructs,
        .type_names = g->struct_names,
        .type_ids = g->struct_ids,
        .type_descs = g->struct_descs,
        .tile = {spec->tile[0], spec->tile[1], spec->tile[2]},
        .checked = spec->checked,
        .index_type = {.kind = (uint8_t)(spec->tiled ? TYPE_TILED_INDEX : TYPE_INDEX),
                       .rank = (uint8_t)spec->rank},
        .capture_types = types,
        .capture_returns = returns,
        .capture_helpers = helpers,
    };
    g->read_body = 1;
    st = amp__text_read(spec->source->body, spec->source->body_length, &ctx, &g->body);
    g->ranks |= g->body.ranks;
    /* The ranks whose element access the kernel needs beyond the prelude's. */
    for (int i = 0; i < spec->ncaptures; i++)
        if (spec->captures[i].kind == AMP_CAPTURE_VIEW)
            g->view_ranks |= 1u << spec->captures[i].rank;
    for (int k = -1; k < spec->ncaptures; k++) {
        const kbody *b = k < 0 ? &g->body : g->helper_read[k] ? &g->helpers[k] : NULL;
        for (int i = 0; b && i < b->nvalue_types; i++)
            for (int r = 1; r <= b->value_types[i].rank; r++) {
                /* with the lower ranks it projects to (emit_view_values) */
                g->view_ranks |= 1u << r;
                g->ranks |= 1u << r;
            }
    }
    return st;
}

/* ---- Emitters, in the program's order ---- */

static void describe_capture(gen *g, int i)
{
    const cg_capture *c = &g->spec->captures[i];
    strbuf *sb = &g->sb;
    char type[64];
    switch (c->kind) {
    case AMP_CAPTURE_VIEW:
        elem_cxx_name(g, c->type, type, sizeof type);
        amp__sb_printf(sb, " *   %-12s %s%s view of rank %d, %s\n", c->name,
                       c->is_const ? "const " : "", type, c->rank,
                       written(g, i) ? "read and written" : "read only (never copied back)");
        break;
    case AMP_CAPTURE_SCALAR:
    case AMP_CAPTURE_STRUCT:
        elem_cxx_name(g, c->type, type, sizeof type);
        amp__sb_printf(sb, " *   %-12s %s, by value\n", c->name, type);
        break;
    case AMP_CAPTURE_CONSTANT:
        amp__sb_printf(sb, " *   %-12s compile-time constant %lld\n", c->name, c->constant);
        break;
    case AMP_CAPTURE_FUNCTION: amp__sb_printf(sb, " *   %-12s helper function\n", c->name); break;
    case AMP_CAPTURE_INDEX:
    case AMP_CAPTURE_EXTENT:
        amp__sb_printf(sb, " *   %-12s %s<%d>, by value\n", c->name,
                       c->kind == AMP_CAPTURE_INDEX ? "index" : "extent", c->rank);
        break;
    case AMP_CAPTURE_TEXTURE:
        amp__sb_printf(sb, " *   %-12s %s texture of rank %d, %d channel%s, %s (%s%s)\n", c->name,
                       elem_cl_name(g, c->type), c->rank, c->channels, c->channels == 1 ? "" : "s",
                       c->access == AMP_TEXTURE_WRITE        ? "written only"
                       : c->access == AMP_TEXTURE_READ_WRITE ? "read and written"
                                                             : "read only",
                       image_type_name(c->image_kind),
                       c->image_kind == CG_IMAGE_1D_FOLDED ? ", folded into rows" : "");
        break;
    default: break;
    }
}

/* The header comment: what this kernel is and where it came from. The
 * file name is the user's, and may hold anything: it is printed so that
 * it cannot end the comment. */
static void emit_header(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf *sb = &g->sb;
    amp__sb_printf(sb, "/*\n * Kernel %s, generated by the amp runtime\n * from ", g->name);
    amp__layout_comment_text(sb, spec->source->file, strlen(spec->source->file));
    amp__sb_printf(sb, ", line %d.\n * Domain: rank %d, ", spec->source->line, spec->rank);
    if (spec->tiled) {
        amp__sb_append(sb, "tiles of ");
        for (int d = 0; d < spec->rank; d++)
            amp__sb_printf(sb, "%s%d", d ? "x" : "", spec->tile[d]);
        amp__sb_printf(sb, " threads%s.\n",
                       spec->guarded ? ", padded (threads past the extent guarded)" : "");
    } else {
        amp__sb_append(sb, "not tiled.\n");
    }
    if (g->checked)
        amp__sb_append(sb, " * Checked (AMP_CHECK): every view access is tested against the"
                           " view's extent.\n");
    if (spec->ncaptures > 0)
        amp__sb_append(sb, " * Captures:\n");
    for (int i = 0; i < spec->ncaptures; i++)
        describe_capture(g, i);
    amp__sb_append(sb, " */\n");
    if (spec->fp64)
        amp__sb_append(sb, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    amp__sb_append(sb, "\n");
}

static void emit_prelude(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf *sb = &g->sb;
    amp__sb_printf(sb,
                   "/* Offsets into views: %s bits, since the largest view has %s 2^31"
                   " elements. */\ntypedef %s amp_off_t;\n\n",
                   spec->wide ? "64" : "32", spec->wide ? "at least" : "fewer than",
                   spec->wide ? "long" : "int");
    amp__sb_append(sb, amp__vocab_prelude());
    amp__vocab_append_index_functions(sb, g->ranks);
    for (int n = 4; n <= AMP_MAX_RANK; n++)
        if (g->view_ranks & (1u << n))
            amp__vocab_append_access_rank(sb, n);
    /* The parts of the vocabulary the body and its helpers use. */
    const char *texts[1 + AMP_MAX_CAPTURES];
    size_t lengths[1 + AMP_MAX_CAPTURES], ntexts = 0;
    texts[ntexts] = spec->source->body;
    lengths[ntexts++] = spec->source->body_length;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind == AMP_CAPTURE_FUNCTION) {
            texts[ntexts] = c->function_source;
            lengths[ntexts++] = strlen(c->function_source);
        }
    }
    amp__vocab_append_used(sb, ntexts, texts, lengths);
    amp__vocab_append_vector_names(sb, ntexts, texts, lengths);
    /* OpenCL C defines math.h's constants (M_PI ...) as doubles only where
     * the device has double precision; elsewhere they are its floats
     * (M_PI_F ...), as C++ AMP code that uses them on such a device needs. */
    static const char *const constants[] = {"M_E",        "M_LOG2E", "M_LOG10E", "M_LN2",  "M_LN10",
                                            "M_PI",       "M_PI_2",  "M_PI_4",   "M_1_PI", "M_2_PI",
                                            "M_2_SQRTPI", "M_SQRT2", "M_SQRT1_2"};
    int headed = 0;
    for (size_t k = 0; !spec->fp64 && k < sizeof constants / sizeof constants[0]; k++) {
        int used = 0;
        for (size_t t = 0; t < ntexts && !used; t++)
            used = amp__lex_text_uses(texts[t], lengths[t], constants[k], 0);
        if (!used)
            continue;
        if (!headed)
            amp__sb_append(sb, "\n/* math.h's constants, as floats: the device has no double"
                               " precision. */\n");
        headed = 1;
        amp__sb_printf(sb, "#undef %s\n#define %s %s_F\n", constants[k], constants[k],
                       constants[k]);
    }
}

/* 3-vectors in memory, as C++ AMP lays them out (12 bytes for a float_3,
 * where OpenCL's float3 takes 16): the types that views and structs of them
 * hold, and the functions that read one whole, write one whole, and update
 * one in place (in each address space it can be in), for the scalars and
 * operators the kernel uses. */
static void emit_packed_vectors(gen *g)
{
    static const char *const ops[] = {"add", "sub", "mul", "div", "mod",
                                      "and", "or",  "xor", "shl", "shr"};
    static const char *const signs[] = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"};
    static const char *const spaces[] = {"__global", "__local", "__private"};
    const cg_spec *spec = g->spec;
    uint32_t packed = 0;
    uint64_t updates = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind == AMP_CAPTURE_VIEW && amp__elem_lanes(c->type) == 3)
            packed |= 1u << (amp__elem_scalar(c->type) - AMP_INT);
        if (g->helper_read[i]) {
            packed |= g->helpers[i].packed;
            updates |= g->helpers[i].packed_updates;
        }
    }
    for (int k = 0; k < g->nstructs; k++)
        for (int m = 0; m < g->struct_descs[k]->nmembers; m++) {
            const char *type = g->struct_descs[k]->members[m].type;
            amp_elem_type v = amp__body_vector_named(type, strlen(type));
            if (amp__elem_lanes(v) == 3)
                packed |= 1u << (amp__elem_scalar(v) - AMP_INT);
        }
    packed |= g->body.packed;
    updates |= g->body.packed_updates;
    strbuf *sb = &g->sb;
    for (int s = 0; s < 4; s++) {
        if (!(packed & (1u << s)))
            continue;
        const char *t = amp__elem_scalar_name((amp_elem_type)(AMP_INT + s));
        amp__sb_printf(sb,
                       "\n/* %s_3 in memory as C++ AMP lays it out, %d bytes (OpenCL's %s3 takes"
                       " %d), and\n   its value read and written whole. */\n"
                       "typedef struct amp_packed_%s3 {\n    %s x, y, z;\n} amp_packed_%s3;\n"
                       "%s3 amp_unpack_%s3(amp_packed_%s3 p)\n{\n"
                       "    return (%s3)(p.x, p.y, p.z);\n}\n"
                       "amp_packed_%s3 amp_pack_%s3(%s3 v)\n{\n"
                       "    amp_packed_%s3 p = {v.x, v.y, v.z};\n    return p;\n}\n",
                       t, s == 3 ? 24 : 12, t, s == 3 ? 32 : 16, t, t, t, t, t, t, t, t, t, t, t);
        for (int k = 0; k < 10; k++) {
            if (!(updates & ((uint64_t)1 << (10 * s + k))))
                continue;
            for (int a = 0; a < 3; a++)
                amp__sb_printf(sb,
                               "%s3 __attribute__((overloadable)) amp_%s_assign_%s3(%s"
                               " amp_packed_%s3 *p, %s3 v)\n{\n"
                               "    %s3 r = amp_unpack_%s3(*p) %s v;\n"
                               "    *p = amp_pack_%s3(r);\n    return r;\n}\n",
                               t, ops[k], t, spaces[a], t, t, t, t, signs[k], t);
        }
    }
}

/* Whether a helper the kernel captures takes a tiled_index: its type is
 * then declared in an untiled kernel too, where nothing can call it. */
static int helper_takes_tiled_index(const gen *g)
{
    for (int i = 0; i < g->spec->ncaptures; i++)
        for (int k = 0;
             g->helper_read[i] && k < g->helpers[i].nparams && k < AMP_MAX_FUNCTION_PARAMS; k++)
            if (g->helpers[i].params[k].kind == TYPE_TILED_INDEX)
                return 1;
    return 0;
}

static void emit_types(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf *sb = &g->sb;
    if (spec->tiled || helper_takes_tiled_index(g))
        amp__sb_printf(sb,
                       "\n/* tiled_index<...>: where a thread is, globally and in its tile. */\n"
                       "typedef struct amp_tiled_index {\n"
                       "    amp_index_%d global, local, tile, tile_origin;\n"
                       "    amp_extent_%d tile_extent;\n"
                       "    int tile_dim0, tile_dim1, tile_dim2;\n"
                       "    amp_tile_barrier barrier;\n"
                       "} amp_tiled_index;\n",
                       spec->rank, spec->rank);
    emit_packed_vectors(g);
    /* The struct types the kernel knows, each once. */
    if (g->nstructs)
        amp__sb_append(sb, "\n/* Struct types (AMP_STRUCT), laid out as on the host. */\n");
    for (int i = 0; i < g->nstructs; i++)
        amp__sb_append(sb, struct_of(g->tr, g->struct_ids[i])->cl_source);
}

/* The AMP_CONST captures, before anything (a helper, say) uses them. */
static void emit_constants(gen *g)
{
    int any = 0;
    for (int i = 0; i < g->spec->ncaptures; i++) {
        const cg_capture *c = &g->spec->captures[i];
        if (c->kind != AMP_CAPTURE_CONSTANT)
            continue;
        if (!any)
            amp__sb_append(&g->sb, "\n/* Compile-time constants (AMP_CONST). */\n");
        any = 1;
        amp__sb_printf(&g->sb, "#define %s %lld\n", c->name, c->constant);
    }
}

/* The view value types the body and its helpers use, lower ranks first
 * (a projection returns the rank below). */
static void emit_view_values(gen *g)
{
    for (int rank = 1; rank <= AMP_MAX_RANK; rank++) {
        amp_elem_type done[AMP_MAX_VIEW_VALUE_TYPES * (AMP_MAX_CAPTURES + 1)];
        int ndone = 0;
        for (int k = -1; k < g->spec->ncaptures; k++) {
            const kbody *b = k < 0 ? &g->body : g->helper_read[k] ? &g->helpers[k] : NULL;
            for (int i = 0; b && i < b->nvalue_types; i++) {
                const body_type *t = &b->value_types[i];
                int seen = 0;
                for (int j = 0; j < ndone; j++)
                    seen |= done[j] == (amp_elem_type)t->elem;
                /* A view value of rank N projects to rank N - 1: every lower
                 * rank of its element type is defined too. */
                if (t->rank < rank || seen)
                    continue;
                done[ndone++] = (amp_elem_type)t->elem;
                amp__accessors_view_value(&g->sb, elem_value_name(g, (amp_elem_type)t->elem),
                                          elem_cl_name(g, (amp_elem_type)t->elem), rank,
                                          g->spec->guarded);
            }
        }
    }
}

static void emit_accessors(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf *sb = &g->sb;
    if (spec->guarded)
        amp__accessors_guarded(sb);
    if (g->checked)
        amp__accessors_checked(sb, g->tr->spare_bytes);
    for (int n = 4; n <= AMP_MAX_RANK; n++) {
        if (spec->guarded && (g->view_ranks & (1u << n)))
            amp__accessors_guarded_rank(sb, n);
        if (g->checked && (g->view_ranks & (1u << n)))
            amp__accessors_checked_rank(sb, n);
    }
    int nview = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_VIEW)
            continue;
        amp__accessors_view(sb, c, elem_cl_name(g, c->type), written(g, i), spec->guarded);
        if (g->checked)
            amp__sb_printf(sb, "#define AMP_VIEW_%s %d\n", c->name, nview++);
    }
    for (int i = 0; i < spec->ncaptures; i++)
        if (spec->captures[i].kind == AMP_CAPTURE_TEXTURE)
            amp__accessors_texture(sb, &spec->captures[i]);
}

/* A helper's texture parameter k as the accessors take a capture. */
static cg_capture texture_parameter(const kbody *h, int k, const char *name)
{
    const body_type *type = &h->texture_types[k];
    return (cg_capture){.name = name,
                        .kind = AMP_CAPTURE_TEXTURE,
                        .type = (amp_elem_type)type->elem,
                        .rank = type->rank,
                        .channels = type->channels,
                        .image_kind = type->rank == 1   ? CG_IMAGE_1D
                                      : type->rank == 2 ? CG_IMAGE_2D
                                                        : CG_IMAGE_3D,
                        .access = type->access};
}

/* What using textures takes, once, before the helpers that may take one. */
static void emit_texture_vocabulary(gen *g)
{
    const cg_spec *spec = g->spec;
    int any = 0;
    unsigned needs = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        any |= spec->captures[i].kind == AMP_CAPTURE_TEXTURE ||
               (g->helper_read[i] && g->helpers[i].ntextures > 0);
        needs |= amp__accessors_texture_needs(&spec->captures[i]);
        for (int k = 0; g->helper_read[i] && k < g->helpers[i].ntextures; k++) {
            cg_capture p = texture_parameter(&g->helpers[i], k, "");
            needs |= amp__accessors_texture_needs(&p);
        }
    }
    if (any)
        amp__accessors_texture_vocabulary(&g->sb, spec, needs);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++)
        n += *s == '\n';
    return n;
}

/* A text whose tokens layout will place: room for where each goes. */
static cg_text *new_text(gen *g, const char *file, int line, const char *text, size_t length,
                         size_t ntokens, int locate_flags)
{
    cg_text *t = &g->out->texts[g->out->ntexts++];
    t->file = file;
    t->line = line;
    t->text = text;
    t->length = length;
    t->locate_flags = locate_flags;
    t->ntokens = ntokens;
    t->token_line = malloc((ntokens + 1) * sizeof *t->token_line);
    t->token_column = malloc((ntokens + 1) * sizeof *t->token_column);
    if (!t->token_line || !t->token_column)
        g->sb.failed = 1;
    return t;
}

/* Helper functions, in the order they were captured, laid out as bodies
 * are; where their tokens went is kept, so that a build error inside one
 * names the user's line. */
static void emit_helpers(gen *g)
{
    const cg_spec *spec = g->spec;
    for (int i = 0; i < spec->ncaptures; i++) {
        if (!g->helper_read[i])
            continue;
        const cg_capture *c = &spec->captures[i];
        amp__sb_printf(&g->sb, "\n/* Helper function %s (AMP_FUNCTION at ", c->name);
        amp__layout_comment_text(&g->sb, c->function_file, strlen(c->function_file));
        amp__sb_printf(&g->sb, ":%d). */\n", c->function_line);
        cg_text *t = new_text(g, c->function_file, c->function_line, c->function_source,
                              strlen(c->function_source), g->helpers[i].tokens.count,
                              LEX_LOCATE_MACROS | LEX_LOCATE_MACRO_ARGS);
        if (g->sb.failed)
            return;
        /* A texture parameter is read as a captured texture is, through
         * macros of its name, defined for this helper only. */
        const kbody *h = &g->helpers[i];
        cg_capture textures[AMP_MAX_FUNCTION_PARAMS];
        for (int k = 0; k < h->ntextures; k++) {
            const lex_token *name = &h->tokens.items[h->texture_names[k]];
            snprintf(g->texture_names[k], sizeof g->texture_names[k], "%.*s", (int)name->length,
                     name->text);
            textures[k] = texture_parameter(h, k, g->texture_names[k]);
            amp__accessors_texture(&g->sb, &textures[k]);
        }
        int first_line = 1 + count_lines(g->sb.data);
        layout_map map = {t->token_line, t->token_column};
        /* Its tile_static declarations are its parameters now (locals.c);
         * the kernel prints them. */
        strbuf moved = STRBUF_INIT;
        amp__layout_body(h, 0, &g->sb, &moved, &map);
        amp__sb_free(&moved);
        for (size_t k = 0; k < t->ntokens; k++)
            if (t->token_line[k] >= 0)
                t->token_line[k] += first_line;
        for (int k = 0; k < h->ntextures; k++) {
            const char *n = textures[k].name;
            amp__sb_printf(
                &g->sb,
                "#undef %s\n#undef AMP_READ_%s\n#undef AMP_GET_%s\n#undef AMP_SET_%s\n"
                "#undef AMP_SAMPLE_%s\n#undef AMP_SAMPLE_WITH_%s\n#undef AMP_GATHER_%s\n",
                n, n, n, n, n, n, n);
        }
    }
}

/* The launch's values: every number a kernel takes from the host (views'
 * offsets, strides and extents, textures' extents, scalars, index and
 * extent captures, the domain) travels in one struct argument. A GPU's
 * driver takes time for each argument it queues: on an H100, 30 ints as
 * arguments take about 2.5 us longer to queue than the same ints in one
 * struct. Buffers, images and captured structs stay arguments of their
 * own. The layout (translate.h, amp__translate_values_layout) is kept in
 * the kernel cache's entry, where kernel/bind.c fills the struct by it. */

/* One line of fields of one type, size bytes each: field i is named by
 * printing fmt[i] with the capture's name and the number d[i]
 * ("amp_%s_stride%d"). */
typedef struct field_line {
    const char *type;
    size_t size;
    const char *name;
    int n;
    const char *fmt[AMP_MAX_RANK + 2];
    int d[AMP_MAX_RANK + 2];
} field_line;

static void field_add(field_line *l, const char *fmt, int d)
{
    l->fmt[l->n] = fmt;
    l->d[l->n++] = d;
}

/* The OpenCL C type and bytes of a scalar or short vector capture (a
 * 3-vector as wide as a 4-vector). */
static const char *value_type(amp_elem_type t, size_t *size)
{
    int lanes = amp__elem_lanes(t);
    *size = amp__elem_scalar_size(t) * (size_t)(lanes == 3 ? 4 : lanes);
    return lanes > 1 ? amp__body_elem_name(NULL, (uint16_t)t) : amp__elem_scalar_name(t);
}

/* The fields of spec's launch values of size bytes each (0: all), line by
 * line, each line given to each(): per capture, its offsets (amp_off_t)
 * then its ints or its value; then the domain. The struct holds the
 * fields of 32 bytes first, then those of 16, 8 and 4, each size in this
 * order, and kernel/bind.c fills them so: every field then lies at a
 * multiple of its size whatever alignment a compiler gives its type (an
 * int8 aligned to 16 bytes lands where one aligned to 32 does), with no
 * padding between fields. */
static void value_field_lines(const cg_spec *spec, size_t size,
                              void (*each)(void *ctx, const field_line *l), void *ctx)
{
    static const char *const index_types[] = {"",
                                              "amp_index_1",
                                              "amp_index_2",
                                              "amp_index_3",
                                              "amp_index_4",
                                              "amp_index_5",
                                              "amp_index_6",
                                              "amp_index_7",
                                              "amp_index_8"};
    static const char *const extent_types[] = {"",
                                               "amp_extent_1",
                                               "amp_extent_2",
                                               "amp_extent_3",
                                               "amp_extent_4",
                                               "amp_extent_5",
                                               "amp_extent_6",
                                               "amp_extent_7",
                                               "amp_extent_8"};
    size_t off = spec->wide ? 8 : 4;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        field_line offsets = {"amp_off_t", off, c->name, 0, {0}, {0}};
        field_line ints = {"int", 4, c->name, 0, {0}, {0}};
        if (c->kind == AMP_CAPTURE_VIEW) {
            field_add(&offsets, "amp_%s_offset", 0);
            if (spec->checked)
                field_add(&offsets, "amp_%s_spare", 0);
            for (int d = 0; d + 1 < c->rank; d++)
                field_add(&offsets, "amp_%s_stride%d", d);
        }
        if (c->kind == AMP_CAPTURE_VIEW || c->kind == AMP_CAPTURE_TEXTURE)
            for (int d = 0; d < c->rank; d++)
                field_add(&ints, "amp_%s_extent%d", d);
        if (c->kind == AMP_CAPTURE_SCALAR) {
            ints.type = value_type(c->type, &ints.size);
            field_add(&ints, "%s", 0);
        } else if ((c->kind == AMP_CAPTURE_INDEX || c->kind == AMP_CAPTURE_EXTENT) &&
                   c->rank >= 1 && c->rank <= AMP_MAX_RANK) {
            /* An int, or an int vector of 2, 3 (in 4), 4 or 8 lanes. */
            ints.type = c->kind == AMP_CAPTURE_INDEX ? index_types[c->rank] : extent_types[c->rank];
            ints.size = amp__translate_index_bytes(c->rank);
            field_add(&ints, "%s", 0);
        }
        if (offsets.n && (!size || offsets.size == size))
            each(ctx, &offsets);
        if (ints.n && (!size || ints.size == size))
            each(ctx, &ints);
    }
    if ((!spec->tiled || spec->guarded) && (!size || size == 4)) {
        field_line domain = {"int", 4, "", 0, {0}, {0}};
        for (int d = 0; d < spec->rank; d++)
            field_add(&domain, "amp_domain%s%d", d);
        each(ctx, &domain);
    }
}


/* Emitting the fields: declared in the struct, or, with copy, taken out
 * of it into constants of the same names (unused ones draw no warning:
 * every view's are there, whether the body uses them or not). */
typedef struct field_emit {
    strbuf *sb;
    int copy;
} field_emit;

static void emit_field_line(void *ctx, const field_line *l)
{
    const field_emit *e = ctx;
    strbuf *sb = e->sb;
    amp__sb_printf(sb, e->copy ? "    AMP_MAYBE_UNUSED const %s " : "    %s ", l->type);
    /* Copies one to a line, under the first: they are long. */
    int indent = (int)strlen(e->copy ? "    AMP_MAYBE_UNUSED const " : "    ") +
                 (int)strlen(l->type) + 1;
    for (int i = 0; i < l->n; i++) {
        if (i && e->copy)
            amp__sb_printf(sb, ",\n%*s", indent, "");
        else if (i)
            amp__sb_append(sb, ", ");
        amp__sb_printf(sb, l->fmt[i], l->name, l->d[i]);
        if (e->copy) {
            amp__sb_append(sb, " = amp_values.");
            amp__sb_printf(sb, l->fmt[i], l->name, l->d[i]);
        }
    }
    amp__sb_append(sb, ";\n");
}

/* The fields' declarations in the struct's order, or their copies. */
static void emit_value_fields(gen *g, int copy)
{
    field_emit e = {&g->sb, copy};
    if (copy)
        value_field_lines(g->spec, 0, emit_field_line, &e);
    else
        for (int c = 0; c < TR_VALUE_SIZES; c++)
            value_field_lines(g->spec, amp__translate_value_size(c), emit_field_line, &e);
}

/* Measuring the fields: the bytes of those of each size. */
static void measure_field_line(void *ctx, const field_line *l)
{
    size_t *bytes = ctx;
    bytes[amp__translate_value_class(l->size)] += (size_t)l->n * l->size;
}

size_t amp__translate_values_layout(const cg_spec *spec, size_t start[TR_VALUE_SIZES + 1])
{
    size_t bytes[TR_VALUE_SIZES] = {0}, at = 0, widest = 0;
    value_field_lines(spec, 0, measure_field_line, bytes);
    for (int c = 0; c < TR_VALUE_SIZES; c++) {
        if (start)
            start[c] = at;
        at += bytes[c];
        if (!widest && bytes[c])
            widest = amp__translate_value_size(c);
    }
    if (start)
        start[TR_VALUE_SIZES] = at;
    /* The struct's last member, amp_padding, fills the rest. */
    return widest ? (at + widest - 1) / widest * widest : 0;
}

/* Whether the kernel takes the launch's values: some capture has a field,
 * or the kernel is given its domain (untiled, or padded). */
static int takes_values(const cg_spec *spec)
{
    return amp__translate_values_layout(spec, NULL) > 0;
}

/* The struct of the launch's values, before the kernel. */
static void emit_values_type(gen *g)
{
    if (!takes_values(g->spec))
        return;
    amp__sb_append(&g->sb,
                   "\n/* The numbers the launch passes: views' offsets, strides and extents,\n"
                   " * the scalars, the domain, the widest first. One argument, not one each:\n"
                   " * a GPU's driver takes longer to queue a kernel of more arguments. */\n"
                   "typedef struct amp_launch_values {\n");
    emit_value_fields(g, 0);
    /* So that the struct's size is the same under any compiler's
     * alignment too. */
    size_t start[TR_VALUE_SIZES + 1];
    size_t bytes = amp__translate_values_layout(g->spec, start);
    if (bytes > start[TR_VALUE_SIZES])
        amp__sb_printf(&g->sb, "    int amp_padding[%zu];\n", (bytes - start[TR_VALUE_SIZES]) / 4);
    amp__sb_append(&g->sb, "} amp_launch_values;\n");
}

/* The signature, in the order the dispatch sets the arguments: views'
 * buffers, textures' images and captured structs as captured, the
 * launch's values, the sink of a padded domain, and last AMP_CHECK's
 * record. */
static void emit_signature(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf *sb = &g->sb;
    emit_values_type(g);
    amp__sb_append(sb, "\n__kernel ");
    if (spec->tiled) {
        int wg[3] = {1, 1, 1};
        for (int d = 0; d < spec->rank; d++)
            wg[spec->rank - 1 - d] = spec->tile[d];
        amp__sb_printf(sb, "__attribute__((reqd_work_group_size(%d, %d, %d)))\n", wg[0], wg[1],
                       wg[2]);
    }
    amp__sb_printf(sb, "void %s(\n", g->name);
    int nparams = 0;
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_VIEW && c->kind != AMP_CAPTURE_STRUCT &&
            c->kind != AMP_CAPTURE_TEXTURE)
            continue;
        if (nparams++)
            amp__sb_append(sb, ",\n");
        if (c->kind == AMP_CAPTURE_VIEW)
            amp__sb_printf(sb, "    __global %s%s *amp_%s_data", written(g, i) ? "" : "const ",
                           elem_cl_name(g, c->type), c->name);
        else if (c->kind == AMP_CAPTURE_STRUCT)
            amp__sb_printf(sb, "    const %s %s", elem_value_name(g, c->type), c->name);
        else
            amp__sb_printf(sb, "    %s %s amp_%s_image",
                           c->access == AMP_TEXTURE_WRITE        ? "__write_only"
                           : c->access == AMP_TEXTURE_READ_WRITE ? "__read_write"
                                                                 : "__read_only",
                           image_type_name(c->image_kind), c->name);
    }
    if (takes_values(spec))
        amp__sb_append(sb, nparams++ ? ",\n    const amp_launch_values amp_values"
                                     : "    const amp_launch_values amp_values");
    if (spec->guarded)
        amp__sb_append(sb, nparams++ ? ",\n    __global uchar *amp_sink"
                                     : "    __global uchar *amp_sink");
    if (g->checked) {
        amp__sb_append(sb, ",\n    __global int *amp_check_record");
        nparams++;
    }
    if (nparams == 0)
        amp__sb_append(sb, "    void");
    amp__sb_append(sb, ")\n{\n");
}

/* The launch's values under their own names, then each view's element
 * pointer (and sink) and extent. */
static void emit_view_setup(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf *sb = &g->sb;
    if (takes_values(spec)) {
        amp__sb_append(sb, "    /* The launch's values, by the names the code below uses. */\n");
        emit_value_fields(g, 1);
        amp__sb_append(sb, "\n");
    }
    for (int i = 0; i < spec->ncaptures; i++) {
        const cg_capture *c = &spec->captures[i];
        if (c->kind != AMP_CAPTURE_VIEW && c->kind != AMP_CAPTURE_TEXTURE)
            continue;
        const char *constness = written(g, i) ? "" : "const ";
        if (c->kind == AMP_CAPTURE_VIEW) {
            amp__sb_printf(sb,
                           "    __global %s%s *amp_%s_ptr AMP_MAYBE_UNUSED = amp_%s_data + "
                           "amp_%s_offset;\n",
                           constness, elem_cl_name(g, c->type), c->name, c->name, c->name);
            if (spec->guarded)
                amp__sb_printf(sb, "    __global %s%s *amp_%s_sink = (__global %s%s *)amp_sink;\n",
                               constness, elem_cl_name(g, c->type), c->name, constness,
                               elem_cl_name(g, c->type));
        }
        amp__sb_printf(sb, "    const int %s_extent[%d] AMP_MAYBE_UNUSED = {", c->name, c->rank);
        for (int d = 0; d < c->rank; d++)
            amp__sb_printf(sb, "%samp_%s_extent%d", d ? ", " : "", c->name, d);
        amp__sb_append(sb, "};\n");
        if (c->kind == AMP_CAPTURE_VIEW && ((g->body.values >> i) & 1u)) {
            /* The view as a value, for its sections and projections and the
             * helpers it is given to. */
            const char *e = elem_cl_name(g, c->type);
            amp__sb_printf(sb, "    amp_view_%s_%d amp_%s_value = {(__global %s *)amp_%s_ptr, {",
                           elem_value_name(g, c->type), c->rank, c->name, e, c->name);
            if (c->rank == 1)
                amp__sb_append(sb, "1");
            for (int d = 0; d + 1 < c->rank; d++)
                amp__sb_printf(sb, "%samp_%s_stride%d", d ? ", " : "", c->name, d);
            amp__sb_printf(sb, "}, {");
            for (int d = 0; d < c->rank; d++)
                amp__sb_printf(sb, "%samp_%s_extent%d", d ? ", " : "", c->name, d);
            if (spec->guarded)
                amp__sb_printf(sb, "}, (__global %s *)amp_sink};\n", e);
            else
                amp__sb_append(sb, "}, 0};\n");
        }
    }
    if (spec->ncaptures)
        amp__sb_append(sb, "\n");
}

/* Lane d of an index value: the int itself for rank 1. */
static void lane(strbuf *sb, const char *value, int rank, int d)
{
    if (rank == 1)
        amp__sb_append(sb, value);
    else
        amp__sb_printf(sb, "%s.s%d", value, d);
}

/* index[d] for d = 0 .. rank-1: C++ AMP's dimension 0 is the slowest, so it
 * is OpenCL's highest dimension, and the last one is OpenCL's dimension 0,
 * which neighbouring work-items share. */
static void index_from(strbuf *sb, const char *ix, const char *member, const char *fn, int rank)
{
    char value[160];
    snprintf(value, sizeof value, "%s%s", ix, member);
    for (int d = 0; d < rank; d++) {
        amp__sb_append(sb, "    ");
        lane(sb, value, rank, d);
        amp__sb_printf(sb, " = (int)%s(%d);\n", fn, rank - 1 - d);
    }
}

/* The tile's index: the work-group's, counted from the global offset that
 * a part of a launch split across accelerators starts at (get_group_id
 * counts from the offset; the offset is 0 otherwise). */
static void tile_from(strbuf *sb, const char *ix, const cg_spec *spec)
{
    char value[160];
    snprintf(value, sizeof value, "%s.tile", ix);
    for (int d = 0; d < spec->rank; d++) {
        int cl = spec->rank - 1 - d;
        amp__sb_append(sb, "    ");
        lane(sb, value, spec->rank, d);
        amp__sb_printf(sb, " = (int)(get_group_id(%d) + get_global_offset(%d) / %d);\n", cl, cl,
                       spec->tile[d]);
    }
}

/* An index of rank 4 or more: OpenCL has three dimensions, so the last two
 * are its dimensions 0 and 1, and the others are counted together by
 * dimension 2, slowest first, as in memory. */
static void flattened_index(strbuf *sb, const char *ix, int rank)
{
    amp__sb_printf(sb, "    %s.s%d = (int)get_global_id(0);\n    %s.s%d = (int)get_global_id(1);\n",
                   ix, rank - 1, ix, rank - 2);
    amp__sb_append(sb, "    {\n        /* Dimensions 0 to ");
    amp__sb_printf(sb, "%d, counted by OpenCL's dimension 2. */\n", rank - 3);
    amp__sb_append(sb, "        size_t amp_outer = get_global_id(2);\n");
    for (int d = rank - 3; d > 0; d--)
        amp__sb_printf(sb,
                       "        %s.s%d = (int)(amp_outer %% (size_t)amp_domain%d);\n"
                       "        amp_outer /= (size_t)amp_domain%d;\n",
                       ix, d, d, d);
    amp__sb_printf(sb, "        %s.s0 = (int)amp_outer;\n    }\n", ix);
}

/* Under AMP_CHECK: the thread's index in the domain, for the records of
 * accesses outside a view. */
static void thread_index(gen *g, const char *value)
{
    const cg_spec *spec = g->spec;
    amp__sb_printf(&g->sb, "    const int amp_thread_index[%d] = {", spec->rank);
    for (int d = 0; d < spec->rank; d++) {
        amp__sb_append(&g->sb, d ? ", " : "");
        lane(&g->sb, value, spec->rank, d);
    }
    amp__sb_append(&g->sb, "};\n");
}

static void emit_index_setup(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf *sb = &g->sb;
    const char *ix = spec->source->index_name;
    if (spec->tiled) {
        amp__sb_printf(sb, "    amp_tiled_index %s;\n", ix);
        index_from(sb, ix, ".global", "get_global_id", spec->rank);
        index_from(sb, ix, ".local", "get_local_id", spec->rank);
        tile_from(sb, ix, spec);
        char value[160];
        snprintf(value, sizeof value, "%s.tile_extent", ix);
        for (int d = 0; d < spec->rank; d++) {
            amp__sb_append(sb, "    ");
            lane(sb, value, spec->rank, d);
            amp__sb_printf(sb, " = %d;\n", spec->tile[d]);
        }
        amp__sb_printf(sb,
                       "    %s.tile_dim0 = %d;\n    %s.tile_dim1 = %d;\n    %s.tile_dim2 = %d;\n",
                       ix, spec->tile[0], ix, spec->rank > 1 ? spec->tile[1] : 0, ix,
                       spec->rank > 2 ? spec->tile[2] : 0);
        amp__sb_printf(sb, "    %s.tile_origin = %s.tile * %s.tile_extent;\n", ix, ix, ix);
        amp__sb_printf(sb, "    %s.barrier.done = 0;\n", ix);
        if (spec->guarded)
            amp__sb_append(sb, "    /* A padded domain: threads past the extent still run and"
                               " meet at\n       barriers; accesses outside a view land on the"
                               " sink. */\n");
        if (g->checked && spec->guarded) {
            amp__sb_append(sb, "    const int amp_past_extent = ");
            snprintf(value, sizeof value, "%s.global", ix);
            for (int d = 0; d < spec->rank; d++) {
                amp__sb_append(sb, d ? " || " : "");
                lane(sb, value, spec->rank, d);
                amp__sb_printf(sb, " >= amp_domain%d", d);
            }
            amp__sb_append(sb, ";\n");
        } else if (g->checked) {
            amp__sb_append(sb, "    const int amp_past_extent = 0;\n");
        }
        if (g->checked) {
            snprintf(value, sizeof value, "%s.global", ix);
            thread_index(g, value);
        }
    } else {
        amp__sb_printf(sb, "    amp_index_%d %s;\n", spec->rank, ix);
        if (spec->rank <= 3)
            index_from(sb, ix, "", "get_global_id", spec->rank);
        else
            flattened_index(sb, ix, spec->rank);
        amp__sb_append(sb, "    /* The runtime rounds the thread count up to whole work-groups;\n"
                           "       threads past the extent have nothing to do. */\n    if (");
        for (int d = 0; d < spec->rank; d++) {
            amp__sb_append(sb, d ? " || " : "");
            lane(sb, ix, spec->rank, d);
            amp__sb_printf(sb, " >= amp_domain%d", d);
        }
        amp__sb_append(sb, ")\n        return;\n");
        if (g->checked) {
            amp__sb_append(sb, "    const int amp_past_extent = 0;\n");
            thread_index(g, ix);
        }
    }
}

/* A file name in a #line directive: a C string. */
static void append_c_string(strbuf *sb, const char *s)
{
    amp__sb_append(sb, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            amp__sb_append(sb, "\\");
        if (*s == '\n')
            amp__sb_append(sb, "\\n");
        else
            amp__sb_append_n(sb, s, 1);
    }
    amp__sb_append(sb, "\"");
}

/* The body (laid out, with its tile_static declarations moved before the
 * index set-up), or a kernel file's text as written. Returns the lines
 * the moved declarations take. */
static void emit_kernel_body(gen *g)
{
    const cg_spec *spec = g->spec;
    const amp_kernel_source *src = spec->source;
    cg_kernel *out = g->out;
    strbuf body = STRBUF_INIT, hoisted = STRBUF_INIT;
    cg_text *text = NULL;
    if (src->from_file) {
        amp__sb_append(&body, "#line 1 ");
        append_c_string(&body, src->file);
        amp__sb_append(&body, "\n");
        amp__layout_verbatim(&g->body, src->body, &body);
        amp__sb_append(&body, "\n");
    } else {
        text = new_text(g, src->file, src->line, src->body, src->body_length, g->body.tokens.count,
                        LEX_LOCATE_MACROS);
        layout_map map = {text->token_line, text->token_column};
        if (!g->sb.failed)
            out->body_lines = amp__layout_body(&g->body, 4, &body, &hoisted, &map);
    }
    int hoisted_line = 0;
    if (hoisted.length) {
        amp__sb_append(
            &g->sb, "    /* tile_static declarations, at kernel scope as OpenCL C requires. */\n");
        /* Their lines map back to the user's, as the body's do. */
        hoisted_line = 1 + count_lines(g->sb.data);
        amp__sb_append(&g->sb, hoisted.data);
        amp__sb_append(&g->sb, "\n");
    }
    if (g->body.nlocals) {
        amp__sb_append(&g->sb, "    /* tile_static variables of the helper functions the kernel"
                               " calls, which it passes\n       to them. */\n");
        for (size_t i = 0; i < g->body.nlocals; i++) {
            const body_local *l = &g->body.locals[i];
            amp__sb_printf(&g->sb, "    %s; /* %s of %s */\n", l->declaration, l->name, l->helper);
        }
        amp__sb_append(&g->sb, "\n");
    }
    emit_view_setup(g);
    emit_index_setup(g);
    amp__sb_append(&g->sb, "\n    /* The body, from ");
    amp__layout_comment_text(&g->sb, src->file, strlen(src->file));
    amp__sb_printf(&g->sb, ":%d. */\n", src->line);
    out->body_line = 1 + count_lines(g->sb.data);
    if (src->from_file) {
        /* The file's first line follows the #line directive. */
        out->body_line++;
        out->body_lines = 1 + count_lines(src->body) -
                          (src->body_length > 0 && src->body[src->body_length - 1] == '\n');
        if (out->body_lines < 1)
            out->body_lines = 1;
    }
    amp__sb_append(&g->sb, body.data ? body.data : "");
    amp__sb_append(&g->sb, "}\n");
    /* Each token's line, from the body's (or the moved declarations')
     * first line. */
    for (size_t i = 0; text && !g->sb.failed && i < text->ntokens; i++) {
        int l = text->token_line[i];
        text->token_line[i] = l >= 0 ? out->body_line + l : l < -1 ? hoisted_line + (-2 - l) : -1;
    }
    if (amp__sb_failed(&body) || amp__sb_failed(&hoisted))
        g->sb.failed = 1;
    amp__sb_free(&body);
    amp__sb_free(&hoisted);
}

/* Under AMP_CHECK: the names of the views, for the reports. */
static amp_status name_views(gen *g)
{
    const cg_spec *spec = g->spec;
    strbuf names = STRBUF_INIT;
    for (int i = 0; i < spec->ncaptures; i++)
        if (spec->captures[i].kind == AMP_CAPTURE_VIEW) {
            amp__sb_append_n(&names, spec->captures[i].name, strlen(spec->captures[i].name) + 1);
            g->out->nviews++;
        }
    g->checked = g->out->nviews > 0;
    if (g->checked && !(g->out->view_names = amp__sb_take(&names)))
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory generating a kernel.");
    amp__sb_free(&names);
    return AMP_OK;
}

/* Where the body uses each view (writes.c): only at the thread's own
 * index, only at its tile's, or why not, for a launch split across
 * accelerators. */
static amp_status note_owned(gen *g)
{
    const cg_spec *spec = g->spec;
    g->out->own_mask = g->body.at_own;
    g->out->tile_mask = g->body.at_tile;
    strbuf why = STRBUF_INIT;
    for (int i = 0; i < spec->ncaptures; i++) {
        if (spec->captures[i].kind == AMP_CAPTURE_VIEW)
            amp__writes_unowned_text(&g->body, i, spec->captures[i].name, &why);
        amp__sb_append_n(&why, "", 1);
    }
    if (!(g->out->unowned = amp__sb_take(&why)))
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory generating a kernel.");
    return AMP_OK;
}

amp_status amp__translate(const tr_spec *tr, const char *name, cg_kernel *out)
{
    const cg_spec *spec = &tr->call;
    gen g;
    memset(&g, 0, sizeof g);
    g.tr = tr;
    g.spec = spec;
    g.name = name;
    g.out = out;
    g.sb = (strbuf)STRBUF_INIT;
    memset(out, 0, sizeof *out);
    out->rank = spec->rank;

    amp_status st = check_names(spec);
    if (st == AMP_OK)
        st = collect_structs(&g);
    if (st == AMP_OK)
        st = read_body(&g);
    if (st == AMP_OK && !spec->fp64 &&
        (amp__body_uses(&g.body, "double") || amp__body_uses(&g.body, "double_2") ||
         amp__body_uses(&g.body, "double_3") || amp__body_uses(&g.body, "double_4")))
        st = amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                          "The kernel at %s:%d uses double, and the device has no double"
                          " precision. Use float, or choose an accelerator whose info says"
                          " supports_double.",
                          spec->source->file, spec->source->line);
    if (st == AMP_OK) {
        for (int i = 0; i < spec->ncaptures; i++) {
            const cg_capture *c = &spec->captures[i];
            if (c->kind == AMP_CAPTURE_VIEW && !c->is_const &&
                ((((tr->blind_analysis ? 0 : g.body.written) | tr->force_written) >> i) & 1u))
                out->written_mask |= 1u << i;
        }
        if (spec->checked)
            st = name_views(&g);
    }
    if (st == AMP_OK)
        st = note_owned(&g);
    if (st == AMP_OK) {
        emit_header(&g);
        emit_prelude(&g);
        emit_types(&g);
        /* The textures' functions before the constants: an AMP_CONST may
         * have the name of one of their parameters. */
        emit_texture_vocabulary(&g);
        emit_constants(&g);
        emit_view_values(&g);
        emit_helpers(&g);
        emit_accessors(&g);
        emit_signature(&g);
        emit_kernel_body(&g);
        out->source = amp__sb_take(&g.sb);
        if (!out->source)
            st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory generating a kernel.");
    }
    if (g.read_body)
        amp__body_free(&g.body);
    for (int i = 0; i < AMP_MAX_CAPTURES; i++)
        if (g.helper_read[i])
            amp__body_free(&g.helpers[i]);
    amp__sb_free(&g.sb);
    if (st != AMP_OK)
        amp__translate_free(out);
    return st;
}

void amp__translate_free(cg_kernel *k)
{
    free(k->source);
    for (int i = 0; i < k->ntexts; i++) {
        free(k->texts[i].token_line);
        free(k->texts[i].token_column);
        k->texts[i].token_line = NULL;
        k->texts[i].token_column = NULL;
    }
    k->ntexts = 0;
    free(k->view_names);
    k->view_names = NULL;
    free(k->unowned);
    k->unowned = NULL;
    k->source = NULL;
}
