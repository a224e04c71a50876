/*
 * runtime/api/call.h - one parallel_for_each call, as the steps of its
 * launch see it (dispatch.c, validate.c, record.c).
 */
#ifndef AMP_API_CALL_H
#define AMP_API_CALL_H

#include "amp/kernel.h"
#include "kernel/bind.h"

typedef struct call {
    const amp_kernel_source *kernel;
    kb_domain domain;
    int tile_rank; /* as given: checked against the extent's */
    amp_capture_list captures;
    amp_accelerator_view *av;       /* as given (NULL: the default), then as resolved */
    amp_accelerator_view *given_av; /* as given: the launch record's key */
    int flush; /* a part of a launch split across accelerators: submitted at once, so
                  that the parts run at the same time (domain.part_lo, part_hi) */
} call;

struct record_known;

/* What a launch tells the timeline: the kernel's event, when it asks for
 * one, what the launch record knew of the call, and whether the kernel
 * was queued. */
typedef struct launch_out {
    cl_event *event;            /* in: where the kernel's event goes, or NULL for none */
    struct record_known *known; /* in: where the record's answers go, or NULL */
    const kc_entry *entry;      /* out: the kernel found or built, else left NULL */
    int queued;                 /* out: 1 once the kernel is queued */
} launch_out;

/* A launch of a call, as dispatch.c runs it. */
typedef amp_status (*launch_fn)(call *c, launch_out *out);

#endif
