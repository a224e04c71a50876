/*
 * runtime/device/profile.h - AMP_PROFILE: per-kernel device time from OpenCL
 * events, and the bytes moved to run each kernel.
 *
 * A launch hands its event to one list of launches not read yet; events
 * are read later (after a queue is waited on, when the profile is asked
 * for, at exit), so that profiling adds no wait to a launch. An event keeps
 * its queue alive, so the list needs nothing of the queues. All functions
 * expect the runtime lock to be held.
 */
#ifndef AMP_DEVICE_PROFILE_H
#define AMP_DEVICE_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "amp/kernel.h"
#include "amp/profile.h"
#include "core/clapi.h"

typedef struct prof_kernel prof_kernel;

/* Nonzero while profiling is on; read on every launch, so a plain flag. */
extern int amp__prof_enabled;

static inline int amp__prof_on(void)
{
    return amp__prof_enabled;
}

/* Turn profiling on or off from AMP_PROFILE (when the devices are listed).
 * The first time it turns on in the process, the table printed at exit is
 * registered. */
void amp__prof_configure(void);

/* The devices are gone (amp_shutdown): profiling is off until the next
 * listing decides again. */
void amp__prof_unconfigure(void);

/* The properties a new queue needs: profiling on or not. */
cl_command_queue_properties amp__prof_queue_properties(void);

/* A kernel was launched with event ev (owned from now on) from the call
 * site src, moving the given bytes to run it. A failure to record (host
 * memory) loses the launch's figures, never the launch. */
void amp__prof_launched(const char *kernel, const amp_kernel_source *src, cl_event ev,
                        uint64_t to_device, uint64_t to_host);

/* Read the launches whose events have completed and release those events
 * (a queue was just waited on). */
void amp__prof_collect(void);

/* Wait for every launch not read yet, read it and release its event
 * (amp_profile_get_entries, and the table at exit). */
void amp__prof_collect_all(void);

/* The figures, in first-launch order (amp_profile_get_entries). */
size_t amp__prof_entries(amp_profile_entry *out, size_t capacity);

/* Zero every figure (amp_profile_reset_entries). */
void amp__prof_reset(void);

/* Print the table of every kernel launched, by total device time. */
void amp__prof_print(FILE *f);

/* Release the events not read yet, and free the figures (amp_shutdown
 * keeps the figures: only at exit). */
void amp__prof_free(void);

#endif
