/*
 * runtime/kernel/codegen.c - a kernel's source for a call: the call's spec,
 * with what the data layer's registries know, given to the translator.
 *
 * The translator reads nothing but its spec. What it needs beyond the call
 * comes from here: every registered struct type (a body may name any of
 * them), how each captured texture's image is kept, and the spare bytes
 * every device buffer has past a view's data (where AMP_CHECK sends an
 * access outside a view).
 */
#include "kernel/codegen.h"

#include <stdlib.h>

#include "core/error.h"
#include "core/testing.h"
#include "data/coherence.h"
#include "data/struct_type.h"
#include "data/texture.h"

/* For tests: the analysis misses every write (amp__test_blind_analysis). */
static int analysis_blind;

void amp__test_blind_analysis(int on)
{
    analysis_blind = on;
}

static int image_kind(int kind)
{
    switch ((tex_image_kind)kind) {
    case TEX_IMAGE_1D: return CG_IMAGE_1D;
    case TEX_IMAGE_1D_FOLDED: return CG_IMAGE_1D_FOLDED;
    case TEX_IMAGE_2D: return CG_IMAGE_2D;
    case TEX_IMAGE_3D: return CG_IMAGE_3D;
    }
    return 0;
}

amp_status amp__cg_generate(const cg_spec *spec, const char *name, uint32_t force_written,
                            cg_kernel *out)
{
    tr_spec *t = calloc(1, sizeof *t);
    if (!t)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory generating a kernel.");
    t->call = *spec;
    for (int i = 0; i < spec->ncaptures; i++)
        if (spec->captures[i].kind == AMP_CAPTURE_TEXTURE)
            t->call.captures[i].image_kind = image_kind(spec->captures[i].image_kind);
    for (amp_elem_type type = (amp_elem_type)ST_FIRST_TYPE;
         t->nstructs < AMP_MAX_STRUCT_TYPES && amp__st_name(type); type = (amp_elem_type)(type + 1))
        t->structs[t->nstructs++] = (cg_struct){type, amp_struct_of(type), amp__st_cl_source(type),
                                                amp__st_has_double(type)};
    t->spare_bytes = COH_SPARE_BYTES;
    t->force_written = force_written;
    t->blind_analysis = analysis_blind;
    amp_status st = amp__translate(t, name, out);
    free(t);
    return st;
}

void amp__cg_kernel_free(cg_kernel *k)
{
    amp__translate_free(k);
}
