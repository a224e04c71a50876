/*
 * runtime/device/accel_set.h - sets of accelerator views (amp/accelerator_set.h):
 * the views, each of its own accelerator, their weights, and how a number
 * of rows splits among them. All functions expect the runtime lock.
 */
#ifndef AMP_DEVICE_ACCEL_SET_H
#define AMP_DEVICE_ACCEL_SET_H

#include <stddef.h>
#include <stdint.h>

#include "amp/accelerator_set.h"
#include "device/queue.h"

/* Why a launch over a set ran whole, as last traced for one call site: a
 * loop that launches the same kernel says it once. */
#define SET_TRACED 8

typedef struct set_member {
    amp_accelerator_view *view; /* holds a reference (amp__queue_retain) */
    double weight;
} set_member;

struct amp_accelerator_set {
    size_t count;
    size_t heaviest; /* the member of the largest weight, the first of them */
    /* The call sites whose launch decision AMP_TRACE=kernels printed last,
     * and a number for that decision (0: split), in turn. */
    const void *traced_site[SET_TRACED];
    uint64_t traced_what[SET_TRACED];
    unsigned traced_next;
    set_member members[]; /* count of them */
};

/* Nonzero when set is a live set. The registry is asked once: the last set
 * found live is remembered with the count of ended handles, and while that
 * count stands it is the same live handle (core/handle.h), so a launch
 * over the same set again asks nothing. */
int amp__set_is_live(const amp_accelerator_set *set);

/* AMP_OK when set is a live set whose views are all live and usable; else
 * the message for the public call fn. */
amp_status amp__set_check(const char *fn, const amp_accelerator_set *set);

/* Split units (rows, or rows of tiles) among n weights: member k gets
 * starts[k] .. starts[k + 1] - 1 (n + 1 values), in proportion to its
 * weight, the same way every time. */
void amp__set_split(const set_member *members, size_t n, int64_t units, int64_t *starts);

/* Whether AMP_TRACE=kernels should print the decision what for the call
 * site site (a number, 0 for a split): once, until the site's decision
 * changes. */
int amp__set_trace_due(amp_accelerator_set *set, const void *site, uint64_t what);

#endif
