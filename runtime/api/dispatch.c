/*
 * runtime/api/dispatch.c - parallel_for_each: the outline of a launch.
 *
 * A launch is six steps, each done by the layer that owns what it touches;
 * the launch record (record.c) lets a repeated call skip what it knows:
 *   1. check    the kernel source, domain and captures (validate.c), or
 *               know them from the record;
 *   2. find     the kernel and its work sizes (kernel/bind.c), or take the
 *               record's;
 *   3. data     make the captured views current on the device
 *               (data/view.c), unless the record kept them so;
 *   4. bind     set the kernel's arguments that changed (kernel/bind.c);
 *   5. enqueue  make room on the queue and enqueue (device/queue.c);
 *   6. record   mark what the kernel writes as written there (data/view.c),
 *               keep what the launch found, and submit the kernel on an
 *               immediate view (device/queue.c).
 * Each step returns its status to this file; no layer below calls back.
 */
#include "api/dispatch.h"

#include "api/call.h"
#include "api/record.h"
#include "api/timeline.h"
#include "api/validate.h"
#include "check/checkrun.h"
#include "core/error.h"
#include "core/lock.h"
#include "core/probe.h"
#include "core/timeline.h"
#include "data/ledger.h"
#include "data/texture.h"
#include "data/view.h"
#include "device/profile.h"
#include "device/queue.h"
#include "kernel/bind.h"
#include "kernel/kcache.h"

/* 2. A call the record does not answer is checked in full, and its kernel
 * found (compiled on a miss) with its work sizes; the record keeps them.
 * *l is the launch: the record's copy, or *planned. */
static amp_status find_kernel(const call *c, record_known *known, kb_launch *planned,
                              const kb_launch **l)
{
    cg_spec spec;
    amp_status st = amp__validate_call(c, c->av->acc, &spec);
    if (st == AMP_OK)
        st = amp__kb_plan(&spec, &c->domain, c->av->acc, planned);
    if (st == AMP_OK)
        amp__record_keep_launch(c, known, &spec, planned);
    *l = known->launch ? known->launch : planned;
    AMP__PROBE("2 the full path: checks, spec, kernel cache, work sizes");
    return st;
}

/* What of capture i's view the launch makes current and marks written: the
 * whole view, or, for a part of a launch split across accelerators, the
 * rows of a view it writes that the part owns: its rows of the domain, or
 * of its tiles for a view written at the tile's index (dispatch_set.c
 * proved that it writes nowhere else). NULL for a part that owns no row of
 * it (a padded domain's rows past the view): it writes none, and the whole
 * view is made current for its buffer. */
static const amp_array_view *launch_part(const call *c, const kb_launch *l, int i,
                                         amp_array_view *rows)
{
    const amp_array_view *v = c->captures.items[i].value.view;
    const kb_domain *d = &c->domain;
    if (d->part_hi <= d->part_lo || !((l->entry->written_mask >> i) & 1u))
        return v;
    int per_row = (l->entry->tile_mask >> i) & 1u ? d->tile[0] : 1;
    return amp__view_rows(v, d->part_lo / per_row, d->part_hi / per_row, rows) ? rows : NULL;
}

/* 3. The captured views current on the device, and the kernel ordered
 * after the work before it on the views' buffers and the textures' images
 * (data/texture.c); mems[i] is capture i's buffer or image. Under
 * AMP_PROFILE, moved counts the bytes moved to run the
 * kernel, to the device and to the host. */
static amp_status make_data_current(const call *c, const kb_launch *l, cl_mem *mems,
                                    uint64_t moved[2])
{
    amp_transfer_stats before, after;
    if (amp__prof_on())
        amp__ledger_global(&before);
    amp_status st = AMP_OK;
    for (int i = 0; i < c->captures.count && st == AMP_OK; i++) {
        const amp_capture *cap = &c->captures.items[i];
        mems[i] = NULL;
        amp_array_view rows;
        const amp_array_view *part = cap->kind == AMP_CAPTURE_VIEW ? launch_part(c, l, i, &rows)
                                                                   : NULL;
        if (cap->kind == AMP_CAPTURE_VIEW)
            st = amp__view_device_ready(part ? part : cap->value.view, c->av, cap->name, &mems[i]);
        else if (cap->kind == AMP_CAPTURE_TEXTURE)
            st = amp__tex_device_ready(cap->value.texture, c->av, &mems[i]);
    }
    if (amp__prof_on()) {
        amp__ledger_global(&after);
        moved[0] = after.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL] -
                   before.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL];
        moved[1] = after.bytes[AMP_TO_HOST][AMP_REASON_KERNEL] -
                   before.bytes[AMP_TO_HOST][AMP_REASON_KERNEL];
    }
    return st;
}

/* 4. The kernel's arguments; under AMP_CHECK also the record of accesses
 * outside views, the last argument. */
static amp_status bind(const call *c, const record_known *known, const kb_launch *l,
                       const cl_mem *mems)
{
    cl_uint nargs = 0;
    amp_status st = amp__kb_bind(l, &c->domain, &c->captures, mems, c->av->acc, &nargs);
    amp__record_args_bound(known, l->entry, st == AMP_OK);
    if (st == AMP_OK && l->checked)
        st = amp__chk_before_run(c->av->acc->context, c->av->queue, l->entry, nargs);
    return st;
}

/* 6. Only now, with the kernel queued, are the copies of what it writes
 * stale elsewhere: every view it writes is marked, even after a failure
 * (the first failure is the status), and the record keeps the data as the
 * launch left it. */
static amp_status mark_written(const call *c, const record_known *known, const kb_launch *l,
                               const cl_mem *mems)
{
    amp_status written = AMP_OK;
    for (int i = 0; i < c->captures.count; i++)
        if ((l->entry->written_mask >> i) & 1u) {
            amp_array_view rows;
            const amp_array_view *part = launch_part(c, l, i, &rows);
            amp_status w = part ? amp__view_device_written(part, c->av) : AMP_OK;
            if (written == AMP_OK)
                written = w;
        }
    if (written == AMP_OK)
        amp__record_keep_data(c, known, mems);
    return written;
}

/* The launch, under the lock: each step that the record knows the answer
 * of is skipped. */
static amp_status launch(call *c, launch_out *out)
{
    record_known known;
    kb_launch planned;
    const kb_launch *l = NULL;
    cl_mem mems[AMP_MAX_CAPTURES];
    uint64_t moved[2] = {0, 0};
    /* 1. What the record knows of the call; its kernel source checked when
     * the record does not know it, its accelerator view resolved. */
    amp_status st = amp__record_recall(c, &known, mems);
    if (out->known)
        *out->known = known;
    l = known.launch;
    AMP__PROBE("1 check: the launch record, the source, the view");
    /* 2. */
    if (st == AMP_OK && !l)
        st = find_kernel(c, &known, &planned, &l);
    if (st == AMP_OK && l)
        out->entry = l->entry;
    /* 3. */
    if (st == AMP_OK && !known.data)
        st = make_data_current(c, l, mems, moved);
    AMP__PROBE("3 views current (or as kept)");
    /* 4. */
    if (st == AMP_OK && !known.args)
        st = bind(c, &known, l, mems);
    AMP__PROBE("4 arguments set (or as set)");
    /* 5. */
    if (st == AMP_OK) {
        st = amp__queue_launch(c->av, &l->run, moved, out->event);
        out->queued = st == AMP_OK;
    }
    /* 6. An immediate view submits each kernel as it is queued. */
    if (st == AMP_OK && !known.data)
        st = mark_written(c, &known, l, mems);
    /* A part of a split launch is submitted at once too, so that each
     * device starts while the next part is queued. Once queued, the launch
     * has happened: a failed submission is the next wait's to report. */
    if (st == AMP_OK && c->flush)
        amp__queue_submit_now(c->av, &l->run);
    else if (st == AMP_OK)
        amp__queue_submit(c->av, &l->run);
    AMP__PROBE("6 mark written views, submit");
    /* AMP_CHECK: the kernel ran on the simulator; say what it found now,
     * while the call site is known. */
    if (st == AMP_OK && l->checked)
        st = amp__chk_after_run(c->av->queue, l->entry, c->kernel, c->domain.tiled,
                                c->captures.items, c->captures.count);
    return st;
}

amp_status amp__dispatch_launch(call *c)
{
    /* The one test of the timeline on the launch path. */
    if (amp__tl_active)
        return amp__timeline_launch(c, launch);
    launch_out out = {NULL, NULL, NULL, 0};
    return launch(c, &out);
}

static amp_status dispatch(call *c)
{
    AMP__PROBE_START();
    amp__lock_acquire();
    AMP__PROBE("lock");
    amp_status st = amp__dispatch_launch(c);
    amp__lock_release();
    AMP__PROBE("unlock");
    return st;
}

amp_status amp_parallel_for_each(amp_accelerator_view *av, amp_extent domain,
                                 const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {.kernel = kernel,
              .domain = {.extent = domain},
              .captures = captures,
              .av = av,
              .given_av = av};
    return dispatch(&c);
}

amp_status amp_parallel_for_each_tiled(amp_accelerator_view *av, amp_tiled_extent domain,
                                       const amp_kernel_source *kernel, amp_capture_list captures)
{
    call c = {.kernel = kernel,
              .domain = {.extent = domain.extent,
                         .original = domain.original,
                         .tiled = 1,
                         .guarded = domain.padded},
              .tile_rank = domain.tile_rank,
              .captures = captures,
              .av = av,
              .given_av = av};
    for (int d = 0; d < AMP_MAX_TILE_RANK; d++)
        c.domain.tile[d] = domain.tile[d];
    return dispatch(&c);
}

amp_status amp_kernel_get_stats(amp_kernel_stats *out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_get_stats: out is NULL.");
    amp__lock_acquire();
    uint64_t builds, disk_hits, hits;
    amp__kc_counts(&builds, &disk_hits, &hits);
    out->builds = builds;
    out->disk_hits = disk_hits;
    /* A launch the launch record answered is a hit too. */
    out->cache_hits = hits + amp__record_hits();
    amp__lock_release();
    return AMP_OK;
}

void amp__dispatch_shutdown(void)
{
    amp__record_clear();
}
