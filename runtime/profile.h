/*
 * runtime/profile.h - AMP_PROFILE: per-kernel device time from OpenCL
 * events, and the bytes moved to run each kernel.
 *
 * A launch hands its event to the view's pending list; events are read
 * later (when the queue is waited on, when the profile is asked for, at
 * exit), so that profiling adds no wait to a launch. All functions expect
 * the runtime lock to be held.
 */
#ifndef RT_PROFILE_H
#define RT_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "amp/kernel.h"
#include "amp/profile.h"
#include "clapi.h"

typedef struct prof_kernel prof_kernel;

/* A launch whose event is not read yet. */
typedef struct prof_item {
    prof_kernel *kernel;
    cl_event event;
    unsigned generation; /* amp_reset_profile() drops launches of earlier ones */
} prof_item;

/* A queue's launches not read yet. */
typedef struct prof_pending {
    prof_item *items;
    size_t count, capacity;
} prof_pending;

/* Nonzero while profiling is on; read on every launch, so a plain flag. */
extern int prof_enabled;

static inline int prof_on(void)
{
    return prof_enabled;
}

/* Read AMP_PROFILE (when the devices are listed). Returns nonzero when it
 * turned profiling on for the first time in the process, so that the
 * caller registers the table printed at exit. */
int prof_configure(void);

/* The properties a new queue needs: profiling on or not. */
cl_command_queue_properties prof_queue_properties(void);

/* A kernel was launched with event ev (owned from now on) from the call
 * site src, moving the given bytes to run it. A failure to record (host
 * memory) loses the launch's figures, never the launch. */
void prof_launched(prof_pending *p, const char *kernel, const amp_kernel_source *src,
                   cl_event ev, uint64_t to_device, uint64_t to_host);

/* Read the events that have completed (every one when finished is nonzero:
 * the queue was just waited on) and release them. */
void prof_collect(prof_pending *p, int finished);

/* Release the list's events without reading them, and its memory. */
void prof_discard(prof_pending *p);

/* The figures, in first-launch order (amp_get_profile). */
size_t prof_entries(amp_profile_entry *out, size_t capacity);

/* Zero every figure (amp_reset_profile). */
void prof_reset(void);

/* Print the table of every kernel launched, by total device time. */
void prof_print(FILE *f);

/* Free the figures (at exit). */
void prof_free(void);

#endif
