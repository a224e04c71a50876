/*
 * runtime/core/changes.h - one count of change per layer, which a repeated
 * launch watches.
 *
 * A launch record (api/record.c) skips the checks it made before while
 * nothing they depend on has changed since. A layer that can change such a
 * thing has one count here, and counts in one place of its own, under the
 * lock (amp__changes_count); its header says what it counts and reads it
 * (amp__changes_of). Each count only grows. The counts share one cache line
 * because every repeated launch reads them all, just after the driver's
 * enqueue of the launch before has pushed most of the library out of the
 * caches.
 */
#ifndef AMP_CORE_CHANGES_H
#define AMP_CORE_CHANGES_H

#include <stdint.h>

/* The layers that count, from the bottom (docs/architecture.md). */
typedef enum change_layer {
    CHANGES_CORE,
    CHANGES_DEVICE,
    CHANGES_DATA,
    CHANGES_KERNEL,
    CHANGES_LAYERS
} change_layer;

typedef struct change_counts {
    _Alignas(64) uint64_t count[CHANGES_LAYERS];
} change_counts;

extern change_counts amp__changes;

/* One more change in layer. */
static inline void amp__changes_count(change_layer layer)
{
    amp__changes.count[layer]++;
}

/* How many changes layer has counted so far. */
static inline uint64_t amp__changes_of(change_layer layer)
{
    return amp__changes.count[layer];
}

#endif
