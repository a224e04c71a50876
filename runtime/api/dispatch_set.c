/*
 * runtime/api/dispatch_set.c - parallel_for_each over a set of accelerator
 * views: split across them where that is proved safe, else whole on one.
 *
 * A launch is split only when each part provably writes only its own rows
 * of every view: the kernel writes each view only at the thread's own
 * index, or only at its tile's (the translator's facts, kcache.h), the
 * domain's rows are cut in whole tiles, and no two captures look into the
 * same data. Views only read are made current whole on each accelerator.
 * Then every element is written by the one thread that would write it in
 * a launch on one accelerator, with the same inputs, and the parts cannot
 * see each other's writes: the result is the same, bit for bit, on
 * accelerators that compute alike. Each part is a launch of its own
 * (dispatch.c) at a global offset, on its accelerator's view, submitted at
 * once, so that the parts run at the same time; it makes current and marks
 * written only its rows, which is what keeps each view's copies lazy per
 * accelerator (data/coherence.c).
 *
 * Anything the proof does not take runs whole on one view of the set, and
 * AMP_TRACE=kernels says why, once per call site until the reason changes.
 */
#include <stdio.h>
#include <string.h>

#include "api/call.h"
#include "api/dispatch.h"
#include "api/validate.h"
#include "core/env.h"
#include "core/error.h"
#include "core/lock.h"
#include "data/coherence.h"
#include "data/texture.h"
#include "data/view.h"
#include "device/accel_set.h"
#include "device/oclcheck.h"
#include "kernel/kcache.h"

/* How a launch over a set runs: split, or whole on one member, and why. */
typedef struct set_plan {
    int split;
    size_t whole_on; /* the member that runs it whole */
    int64_t starts[1 + 64];
    char why[400];
} set_plan;

/* Units of the split: rows of an untiled domain, rows of tiles of a tiled
 * one; rows per unit in *per_unit. */
static int64_t units_of(const call *c, int *per_unit)
{
    *per_unit = c->domain.tiled && c->domain.tile[0] > 0 ? c->domain.tile[0] : 1;
    /* A domain its checks refuse splits into nothing, and runs whole. */
    int rows = c->domain.extent.rank >= 1 ? c->domain.extent.dims[0] : 0;
    return rows > 0 ? rows / *per_unit : 0;
}

/* The member whose accelerator holds an array's or a texture's data, which
 * lives on one accelerator; none (the set's count) when it is in no view of
 * the set. */
static size_t member_on(const amp_accelerator_set *set, const amp_accelerator *acc)
{
    for (size_t k = 0; k < set->count; k++)
        if (set->members[k].view->acc == acc)
            return k;
    return set->count;
}

/* Whether view v, which the kernel writes at the thread's own index (or its
 * tile's, tile_form), is the whole of its data, in row-major order, and
 * covers the domain: then its rows in a part are that part's, and bytes
 * apart from the other parts'. */
static const char *view_unsplittable(const call *c, const amp_array_view *v, int tile_form)
{
    int64_t elements = amp_extent_size(v->extent);
    int64_t stride = 1;
    int row_major = 1;
    for (int d = v->extent.rank - 1; d >= 0; d--) {
        row_major &= v->extent.dims[d] == 1 || v->strides[d] == stride;
        stride *= v->extent.dims[d];
    }
    if (v->offset != 0 || !row_major ||
        (size_t)elements * amp_elem_type_size(v->type) != amp__coh_source_bytes(v->src))
        return "is a section of its data (a part's rows of it are not its own rows of the data)";
    const kb_domain *d = &c->domain;
    for (int k = 0; k < d->extent.rank; k++) {
        /* The threads that run: a padded domain's past its original extent
         * write only inside the view (its accessors send the rest to the
         * sink), or nowhere. */
        int threads = d->guarded ? d->original.dims[k] : d->extent.dims[k];
        int reach = tile_form ? d->extent.dims[k] / d->tile[k] : threads;
        if (v->extent.dims[k] < reach && (!d->guarded || tile_form))
            return "is smaller than the domain (threads past its extent would write into"
                   " other rows)";
    }
    return NULL;
}

/* An array or a texture the call captures lives on one accelerator: the
 * call runs whole, on the member of that accelerator (*home; the set's
 * count when none is), and the reason is in buf. A capture its checks will
 * refuse is left to them. */
static const char *data_of_one(const call *c, const amp_accelerator_set *set, size_t *home,
                               char *buf, size_t size)
{
    for (int i = 0; i < c->captures.count && c->captures.items; i++) {
        const amp_capture *cap = &c->captures.items[i];
        const amp_accelerator *acc = NULL;
        if (cap->kind == AMP_CAPTURE_TEXTURE && amp__tex_is_live(cap->value.texture) &&
            cap->value.texture->d->av)
            acc = cap->value.texture->d->av->acc;
        if (cap->kind == AMP_CAPTURE_VIEW && amp__view_is_live(cap->value.view))
            acc = amp__coh_source_home(cap->value.view->src);
        if (acc) {
            *home = member_on(set, acc);
            snprintf(buf, size, "%s '%s' lives on one accelerator",
                     cap->kind == AMP_CAPTURE_TEXTURE ? "texture" : "array",
                     cap->name ? cap->name : "(null)");
            return buf;
        }
    }
    return NULL;
}

/* Why the call cannot be split, for the kernel e, or NULL when it can. */
static const char *why_whole(const call *c, const kc_entry *e, char *buf, size_t size)
{
    const char *reasons = e->unowned;
    for (int i = 0; i < c->captures.count; i++) {
        const amp_capture *cap = &c->captures.items[i];
        const char *why = reasons ? reasons : "";
        if (reasons)
            reasons += strlen(reasons) + 1;
        if (cap->kind != AMP_CAPTURE_VIEW || !((e->written_mask >> i) & 1u))
            continue;
        const amp_array_view *v = cap->value.view;
        int tile_form = (e->tile_mask >> i) & 1u;
        if (!((e->own_mask >> i) & 1u) && !tile_form) {
            snprintf(buf, size, "%s", why[0] ? why : "a view it writes is used elsewhere");
            return buf;
        }
        const char *shape = view_unsplittable(c, v, tile_form);
        if (shape) {
            snprintf(buf, size, "view '%s' %s", cap->name, shape);
            return buf;
        }
        for (int j = 0; j < c->captures.count; j++) {
            const amp_capture *other = &c->captures.items[j];
            if (j != i && other->kind == AMP_CAPTURE_VIEW && other->value.view->src == v->src) {
                snprintf(buf, size,
                         "view '%s' shares its data with view '%s' (another index into the same"
                         " elements)",
                         cap->name, other->name);
                return buf;
            }
        }
    }
    return NULL;
}

/* Decide how the call runs over the set. The kernel is found (compiled on
 * the first call) on the first accelerator that gets a part, for what the
 * translator proved of its body. A call that fails its checks there runs
 * whole there, and the launch reports the failure. */
static void plan_launch(call *c, const amp_accelerator_set *set, set_plan *p)
{
    p->split = 0;
    p->whole_on = set->heaviest;
    if (amp__ock_installed()) {
        snprintf(p->why, sizeof p->why,
                 "AMP_CHECK is on: kernels run on its simulator, one accelerator");
        return;
    }
    size_t home = set->count;
    if (c->captures.count <= AMP_MAX_CAPTURES &&
        data_of_one(c, set, &home, p->why, sizeof p->why)) {
        p->whole_on = home < set->count ? home : set->heaviest;
        return;
    }
    int per_unit;
    int64_t units = units_of(c, &per_unit);
    amp__set_split(set->members, set->count, units, p->starts);
    size_t parts = 0, first = 0;
    for (size_t k = set->count; k-- > 0;)
        if (p->starts[k + 1] > p->starts[k]) {
            parts++;
            first = k;
        }
    if (parts < 2) {
        p->whole_on = first;
        snprintf(p->why, sizeof p->why, "its %lld row%s of %s go to one accelerator by weight",
                 (long long)units, units == 1 ? "" : "s", per_unit > 1 ? "tiles" : "threads");
        return;
    }
    cg_spec spec;
    kc_entry *e = NULL;
    c->av = set->members[first].view;
    if (amp__validate_call(c, c->av->acc, &spec) != AMP_OK ||
        amp__kc_get(&spec, c->av->acc, &e) != AMP_OK) {
        /* Whole on the same accelerator: the launch fails there as here,
         * and says so. */
        p->whole_on = first;
        snprintf(p->why, sizeof p->why, "its checks or its kernel failed");
        return;
    }
    p->split = why_whole(c, e, p->why, sizeof p->why) == NULL;
}

/* FNV-1a of the reason, for the trace's memory of what it said. */
static uint64_t reason_hash(const set_plan *p)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *s = p->split ? "" : p->why; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return p->split ? 0 : h | 1;
}

static void trace(const call *c, amp_accelerator_set *set, const set_plan *p)
{
    if (!amp__env_trace_kernels() || !amp__set_trace_due(set, c->kernel->body, reason_hash(p)))
        return;
    const amp_kernel_source *k = c->kernel;
    if (!p->split) {
        fprintf(stderr,
                "[amp] parallel_for_each at %s:%d runs whole on %s, not split across the set:"
                " %s\n",
                k->file, k->line, set->members[p->whole_on].view->acc->name, p->why);
        return;
    }
    int per_unit;
    units_of(c, &per_unit);
    fprintf(stderr, "[amp] parallel_for_each at %s:%d is split across the set:", k->file, k->line);
    for (size_t m = 0; m < set->count; m++)
        if (p->starts[m + 1] > p->starts[m])
            fprintf(stderr, "%s rows %lld-%lld on %s", m ? "," : "",
                    (long long)(p->starts[m] * per_unit),
                    (long long)(p->starts[m + 1] * per_unit - 1), set->members[m].view->acc->name);
    fprintf(stderr, "\n");
}

/* Each part a launch of its own on its member's view: rows starts[k] ..
 * starts[k + 1] - 1 of units. The first failure stops the rest. The parts'
 * direct uploads are queued without waiting, and waited for at the end:
 * the devices take theirs at the same time. */
static amp_status run_parts(const call *c, const amp_accelerator_set *set, const set_plan *p)
{
    int per_unit;
    units_of(c, &per_unit);
    amp_status st = AMP_OK;
    amp__view_uploads_defer();
    for (size_t k = 0; k < set->count && st == AMP_OK; k++) {
        if (p->starts[k + 1] == p->starts[k])
            continue;
        call part = *c;
        part.av = part.given_av = set->members[k].view;
        part.domain.part_lo = (int)(p->starts[k] * per_unit);
        part.domain.part_hi = (int)(p->starts[k + 1] * per_unit);
        part.flush = 1;
        st = amp__dispatch_launch(&part);
    }
    amp_status waited = amp__view_uploads_wait();
    return st != AMP_OK ? st : waited;
}

static amp_status launch_over(call *c, amp_accelerator_set *set)
{
    static const char fn[] = "amp_parallel_for_each_set";
    amp__lock_acquire();
    amp_status st = amp__set_is_live(set) ? AMP_OK : amp__set_check(fn, set);
    if (st == AMP_OK && set->count == 1) {
        /* A set of one is a launch on its view, and costs what that does:
         * the launch checks the view, or its record knows it. */
        c->av = c->given_av = set->members[0].view;
        st = amp__dispatch_launch(c);
    } else if (st == AMP_OK && (st = amp__set_check(fn, set)) == AMP_OK && set->count > 64) {
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: a set of %zu views; a launch splits across at most 64.", fn,
                          set->count);
    } else if (st == AMP_OK && (st = amp__validate_source(c)) == AMP_OK) {
        set_plan p;
        plan_launch(c, set, &p);
        trace(c, set, &p);
        if (p.split) {
            st = run_parts(c, set, &p);
        } else {
            c->av = c->given_av = set->members[p.whole_on].view;
            st = amp__dispatch_launch(c);
        }
    }
    amp__lock_release();
    return st;
}

amp_status amp_parallel_for_each_set(amp_accelerator_set *set, amp_extent domain,
                                     const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {.kernel = kernel, .domain = {.extent = domain}, .captures = captures};
    return launch_over(&c, set);
}

amp_status amp_parallel_for_each_tiled_set(amp_accelerator_set *set, amp_tiled_extent domain,
                                           const amp_kernel_source *kernel,
                                           amp_capture_list captures)
{
    call c = {.kernel = kernel,
              .domain = {.extent = domain.extent,
                         .original = domain.original,
                         .tiled = 1,
                         .guarded = domain.padded},
              .tile_rank = domain.tile_rank,
              .captures = captures};
    for (int d = 0; d < AMP_MAX_TILE_RANK; d++)
        c.domain.tile[d] = domain.tile[d];
    return launch_over(&c, set);
}
