/*
 * runtime/check/finding.h - AMP_CHECK's findings on the timeline: each
 * problem of a report (checkrun.c) as the args of an amp.check event
 * (docs/timeline.md, "AMP_CHECK findings"): where the access was, the
 * tile_static array or view and the element at fault, the threads that
 * touched it in the order the checker saw them, and where a barrier
 * belongs.
 */
#ifndef AMP_CHECK_FINDING_H
#define AMP_CHECK_FINDING_H

#include <stddef.h>

#include "device/oclcheck.h"
#include "kernel/kcache.h"
#include "translate/buildlog.h"

/* One problem as the report tells it. */
typedef struct chk_finding {
    const ock_report *report; /* its first record */
    const char *message;      /* the report's line for it */
    const char *hint;         /* the report's advice, or NULL */
    size_t times;
    bl_place at, other; /* line 0: outside the user's texts */
    const char *view;   /* an access outside a view: the view, or NULL */
    const cl_int *slot; /* and its record */
    int tiled;          /* the launch has tiles */
    int between;        /* a race's two lines: the barrier written between them (BL_*) */
    int barrier_line;   /* and its line */
} chk_finding;

/* Put f on the timeline, in the kernel e (of call site src, its lines
 * mapped by map) that the launch records next. Does nothing while the
 * timeline is off. Expects the runtime lock. */
void amp__chk_show_finding(const bl_source_map *map, const kc_entry *e,
                           const amp_kernel_source *src, const chk_finding *f);

#endif
