/*
 * runtime/api/timeline.c - a launch on the timeline, and the public
 * switch of amp/timeline.h.
 */
#include "api/timeline.h"

#include "api/record.h"

#include "amp/timeline.h"
#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "core/probe.h"
#include "core/testing.h"
#include "core/timeline.h"
#include "data/texture.h"
#include "data/view.h"
#include "device/devtime.h"
#include "device/oclcheck.h"
#include "device/profile.h"
#include "device/queue.h"

/* Whether the call's kernel source may be read: a live handle, or a
 * source of the program's own (AMP_KERNEL_SOURCE) that names its file. */
static int source_readable(const amp_kernel_source *k)
{
    hd_state state = k ? amp__handle_state(k, NULL) : HD_FOREIGN;
    return k && (state == HD_LIVE || (state == HD_FOREIGN && k->file));
}

/* The description of the kernel c queued: what it runs over, and which
 * views and textures it reads and may write (a kernel was queued: its
 * captures were checked, every view and texture is live). The timeline
 * names the transfers of the launch after these views. */
static const struct tl_desc *describe_kernel(const call *c, const kc_entry *e)
{
    tl_ref refs[AMP_MAX_CAPTURES];
    int n = 0;
    for (int i = 0; i < c->captures.count && i < AMP_MAX_CAPTURES; i++) {
        const amp_capture *cap = &c->captures.items[i];
        if (cap->kind == AMP_CAPTURE_VIEW)
            refs[n++] = (tl_ref){cap->value.view,
                                 cap->value.view->src,
                                 cap->name,
                                 (int)((e->written_mask >> i) & 1u),
                                 NULL,
                                 NULL};
        else if (cap->kind == AMP_CAPTURE_TEXTURE)
            refs[n++] = (tl_ref){NULL,
                                 NULL,
                                 cap->name,
                                 cap->value.texture->access != AMP_TEXTURE_READ,
                                 cap->value.texture,
                                 cap->value.texture->d};
    }
    const kb_domain *d = &c->domain;
    /* Padded: guarded threads past the original extent. Truncated: a tiled
     * extent that keeps the larger one it was cut from. */
    int padded = 0, truncated = 0;
    for (int k = 0; d->guarded && k < d->extent.rank; k++)
        padded |= d->original.dims[k] < d->extent.dims[k];
    int cut = d->tiled && !d->guarded && d->original.rank == d->extent.rank;
    for (int k = 0; cut && k < d->extent.rank; k++)
        truncated |= d->original.dims[k] > d->extent.dims[k];
    tl_kernel k = {e->name,
                   c->kernel->file,
                   c->kernel->line,
                   d->extent.rank,
                   d->extent.dims,
                   padded || truncated ? d->original.dims : NULL,
                   d->tiled ? c->tile_rank : 0,
                   d->tile,
                   !d->tiled   ? "simple"
                   : padded    ? "padded"
                   : truncated ? "truncated"
                               : "tiled",
                   n,
                   refs,
                   amp__ock_installed()};
    return amp__tl_describe(&k);
}

/* The kernel c queued during the call tc's launch, which began at `began`
 * and had queued it by `queued`, the call's end, with status st; its event
 * ev when the launch asked for one. Its flow starts where it was queued;
 * timed on the device, it is placed by the device's clock, never before
 * the launch began. A launch that the launch record knows to be its last
 * one again (known) reuses that one's description. */
static void record_kernel(const call *c, const launch_out *out, cl_event ev, tl_call *tc,
                          const char *fn, amp_status st, int64_t began, int64_t queued)
{
    int profiled = 0;
    int queue = amp__queue_timeline(c->av, &profiled);
    tl_timing timing = !profiled ? TL_HOST_TIMED : ev ? TL_DEVICE_TIMED : TL_NOT_SAMPLED;
    uint32_t record = TL_NO_RECORD;
    if (queue) {
        const struct tl_desc *desc = amp__record_timeline(out->known);
        if (!desc) {
            desc = describe_kernel(c, out->entry);
            amp__record_keep_timeline(out->known, desc);
        }
        record = amp__tl_launch_kernel(tc, desc, queue, timing, began, queued, fn, st);
    }
    if (timing == TL_DEVICE_TIMED)
        amp__dtime_kernel(ev, record, queue);
    else if (ev)
        amp__clapi.ReleaseEvent(ev);
}

/* What a launch that queued no kernel was about: its kernel's name, or
 * "(not built)", and its call site where the source may be read. */
static void about_launch(const call *c, const kc_entry *entry, tl_about *about)
{
    about->site_file = "unknown";
    about->kernel = entry ? entry->name : "(not built)";
    if (entry || source_readable(c->kernel)) {
        about->site_file = c->kernel->file;
        about->site_line = c->kernel->line;
    }
}

amp_status amp__timeline_launch(call *c, launch_fn launch)
{
    LOCK_ASSERT_HELD();
    tl_call tc;
    AMP__PROBE("T0 before the timeline");
    amp__tl_call_begin(&tc);
    /* Two readings of the clock a launch, the call's begin and end: on a
     * machine whose clock is a system call they are much of what the
     * timeline costs a launch. */
    int64_t began = tc.id ? tc.began : amp__tl_now();
    /* The kernel's event is what timing it on the device costs: asked for
     * as devtime.h's sampling allows, and always while AMP_PROFILE makes
     * one anyway. */
    cl_event ev = NULL;
    record_known known = {0}; /* as nothing known, unless the launch says */
    launch_out out = {amp__prof_on() || amp__dtime_wanted(began) ? &ev : NULL, &known, NULL, 0};
    AMP__PROBE("T1 timeline: call begun, event asked or not");
    amp_status st = launch(c, &out);
    int64_t ended = amp__tl_now();
    AMP__PROBE("T2 timeline: the launch, and the clock read");
    const char *fn = c->domain.tiled ? "amp_parallel_for_each_tiled" : "amp_parallel_for_each";
    if (out.queued)
        record_kernel(c, &out, ev, &tc, fn, st, began, ended);
    AMP__PROBE("T3 timeline: the kernel recorded, the call with it");
    /* A call not ended with its kernel: one that queued none is named
     * here. */
    if (tc.id) {
        tl_about about = {.ended = ended};
        if (!amp__tl_call_in_kernel(&tc))
            about_launch(c, out.entry, &about);
        amp__tl_call_end(&tc, fn, st, &about);
    }
    AMP__PROBE("T4 timeline: the call recorded");
    return st;
}

amp_status amp__timeline_write(void)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_has_file())
        return AMP_OK;
    amp__dtime_collect(1);
    return amp__tl_write();
}

/* ---- Public API ---- */

amp_status amp_timeline_start(const char *path)
{
    amp__lock_acquire();
    amp_status st = amp__tl_start(path);
    amp__lock_release();
    return st;
}

/* A write for a public call: its failure is the call's, with the reason. */
static amp_status write_for(const char *fn)
{
    amp_status st = amp__timeline_write();
    return st == AMP_OK ? st : amp__err_set(st, "%s: %s", fn, amp__tl_write_error());
}

amp_status amp_timeline_stop(void)
{
    amp__lock_acquire();
    amp_status st = AMP_OK;
    if (amp__tl_active) {
        amp__tl_stop();
        st = write_for("amp_timeline_stop");
    }
    amp__lock_release();
    return st;
}

amp_status amp_timeline_flush(void)
{
    amp__lock_acquire();
    amp_status st = amp__tl_has_file()
                        ? write_for("amp_timeline_flush")
                        : amp__err_set(AMP_ERROR_INVALID_OPERATION,
                                       "amp_timeline_flush: no timeline was started. Set"
                                       " AMP_TIMELINE=FILE.json in the environment, or call"
                                       " amp_timeline_start(\"FILE.json\") first.");
    amp__lock_release();
    return st;
}

void amp__test_timeline_pause(void)
{
    amp__lock_acquire();
    amp__tl_stop();
    amp__lock_release();
}

int amp_timeline_is_enabled(void)
{
    amp__lock_acquire();
    int on = amp__tl_active;
    amp__lock_release();
    return on;
}
