/*
 * runtime/core/changes.h - the counts of change that a repeated launch
 * watches.
 *
 * A launch record (api/dispatch.c) skips the checks it made before while
 * nothing they depend on has changed since. Each module that can change
 * such a thing counts its changes here, under the lock; each count only
 * grows, and each module reads its own count through its own header
 * (amp__handle_ended, amp__coh_epoch, amp__kc_generation). The counts
 * share one cache line because every repeated launch reads them all, just
 * after the driver's enqueue of the launch before has pushed most of the
 * library out of the caches.
 */
#ifndef AMP_CORE_CHANGES_H
#define AMP_CORE_CHANGES_H

#include <stdint.h>

typedef struct change_counts {
    _Alignas(64) uint64_t handles_ended; /* core/handle.c */
    uint64_t data_records;               /* data/coherence.c */
    uint64_t kernels_freed;              /* kernel/kcache.c */
} change_counts;

extern change_counts amp__changes;

#endif
