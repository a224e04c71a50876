/*
 * runtime/api/validate.h - the checks of a launch: its kernel source, its
 * domain and tile, and each capture's type and liveness. A failure names
 * the call site (amp__err_launch). Capture names are checked where the
 * kernel is generated (validate.c says why). All functions expect the
 * runtime lock to be held.
 */
#ifndef AMP_API_VALIDATE_H
#define AMP_API_VALIDATE_H

#include "api/call.h"
#include "translate/spec.h"

/* Whether a kernel can be made from the call's source, as the handle
 * registry says (amp__kfile_check): a source loaded from a file and
 * released is refused unread. The launch record skips it for a source it
 * checked, while no handle has ended since. */
amp_status amp__validate_source(const call *c);

/* The checks of a call that the launch record does not answer: the domain
 * (with the tile's rank against the extent's), the tile against acc's
 * limits, and every capture, with the kernel's
 * arguments against acc's limit and its atomics against acc's features;
 * spec describes the call on the way (the kernel cache's key). */
amp_status amp__validate_call(const call *c, const amp_accelerator *acc, cg_spec *spec);

/* Check capture i of c for a kernel on acc and describe it in g, as amp__validate_call does; set *wide when its
 * data needs 64-bit offsets. */
amp_status amp__validate_capture(const call *c, int i, const amp_accelerator *acc, cg_capture *g,
                                 int *wide);

#endif
