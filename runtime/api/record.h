/*
 * runtime/api/record.h - the launch record: a cache, per call site and
 * accelerator view, of what its last launch found, so that a repeated
 * launch skips what it would find again (record.c says what it keeps, and
 * why it stays true). All functions expect the runtime lock to be held.
 */
#ifndef AMP_API_RECORD_H
#define AMP_API_RECORD_H

#include <stdint.h>

#include "api/call.h"
#include "kernel/bind.h"
#include "translate/spec.h"

typedef struct launch_record launch_record;
struct tl_desc; /* the timeline's description of a kernel (core/timeline.h) */

/* What the launch record knows of one call. */
typedef struct record_known {
    /* The call site's record: of this call, of another (which this call's
     * replaces), or empty; NULL when the kernel source failed its check. */
    launch_record *slot;
    /* The slot once it holds this call's launch, and that launch (the
     * kernel and its work sizes); NULL before. */
    launch_record *record;
    const kb_launch *launch;
    /* The capture items are those the record checked, and nothing ended or
     * changed since: their checks were skipped. */
    int items;
    /* The views' data and the textures are as the record's last launch
     * left them: current on the device, marked written there, and the
     * kernel ordered after the uses before it. */
    int data;
    /* The kernel holds this call's arguments already. */
    int args;
} record_known;

/* What the record knows of this call, in *known; the view the call runs
 * on, in c->av. A kernel source that the record does not know is checked
 * first (amp__validate_source). When the record holds a launch of this
 * same call (the same domain, device and captures, each checked again
 * unless the items are known), known->launch is it; with known->data,
 * each capture's buffer or image is in mems. A capture that fails its
 * check fails the call, with the full path's status and message. */
amp_status amp__record_recall(call *c, record_known *known, cl_mem *mems);

/* Keep what the full path found for this call (its spec and launch) in
 * the call's slot, which becomes known->record, with known->launch its
 * copy of l. */
void amp__record_keep_launch(const call *c, record_known *known, const cg_spec *spec,
                             const kb_launch *l);

/* The call's arguments were set on e's kernel (bound: successfully). */
void amp__record_args_bound(const record_known *known, const kc_entry *e, int bound);

/* Note the views' data and the textures as this launch left them: current
 * on the device, with mems[i] capture i's buffer or image, marked written
 * there, and the kernel ordered after the uses before it. */
void amp__record_keep_data(const call *c, const record_known *known, const cl_mem *mems);

/* The timeline's description of the record's launch (core/timeline.h),
 * as amp__record_keep_timeline kept it: a call whose capture items are
 * known (known->items) is that launch again, in everything the
 * description says. NULL when it is not known. */
const struct tl_desc *amp__record_timeline(const record_known *known);

/* Keep desc as the timeline's description of known->record's launch, with
 * the capture items it was checked with now. A record that checks other
 * items forgets it. */
void amp__record_keep_timeline(const record_known *known, const struct tl_desc *desc);

/* How many launches the records answered (kernel cache hits). */
uint64_t amp__record_hits(void);

/* Forget every record (amp_shutdown). */
void amp__record_clear(void);

#endif
