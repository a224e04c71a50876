/*
 * runtime/api/dispatch.h - parallel_for_each (amp/kernel.h): what the rest
 * of the api layer needs of it.
 */
#ifndef AMP_API_DISPATCH_H
#define AMP_API_DISPATCH_H

#include "api/call.h"

/* Launch the call: the six steps of the outline (dispatch.c), each skipped
 * where the launch record knows its answer. A part of a launch split across
 * accelerators (c->domain.part_lo, part_hi) makes current and marks written
 * only the rows it owns of the views it writes. While the timeline records,
 * the launch is recorded there. Expects the lock. */
amp_status amp__dispatch_launch(call *c);

/* Release what kernels' dispatch keeps per accelerator (a padded domain's
 * sink), before the contexts go (amp_shutdown). Expects the lock. */
void amp__dispatch_shutdown(void);

#endif
