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

/* A launch of a call, as dispatch.c runs it: the kernel's event is stored
 * in *event when event is not NULL (the timeline's), and *queued is set to
 * the kernel when it was queued (else left as it was). */
typedef amp_status (*launch_fn)(call *c, cl_event *event, const kc_entry **queued);

#endif
