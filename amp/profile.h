/*
 * amp/profile.h - device time and data moved, per kernel.
 *
 * With AMP_PROFILE=1 in the environment (read when the devices are listed:
 * the first call, or the first after amp_shutdown()), every queue is made
 * with OpenCL profiling on, and each kernel launch keeps its event. The
 * events are read when their queue is waited on, when
 * amp_profile_get_entries() is called, and at exit, never on the launch path. At
 * exit, a table of every kernel is printed to stderr: calls, total and mean
 * device time (CL_PROFILING_COMMAND_END - CL_PROFILING_COMMAND_START), and
 * the bytes moved to run it. Without AMP_PROFILE, launches carry no event
 * and cost what they did.
 */
#ifndef AMP_PROFILE_H
#define AMP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One kernel's figures since the start (or the last amp_profile_reset_entries).
 * Strings belong to the library and stay valid until the process exits. */
typedef struct amp_profile_entry {
    const char *kernel; /* the generated kernel's name, e.g. "amp_matrix_multiply_58" */
    const char *file;   /* its call site */
    int line;
    uint64_t calls;           /* launches */
    uint64_t device_ns;       /* device time of all launches, in nanoseconds */
    uint64_t mean_ns;         /* device_ns / calls */
    uint64_t bytes_to_device; /* uploaded to make its captures current */
    uint64_t bytes_to_host;   /* brought back through the host on the way (data that was
                               * current on another accelerator) */
} amp_profile_entry;

/* 1 when AMP_PROFILE=1 was set when the devices were listed, else 0. */
int amp_profile_is_enabled(void);

/*
 * Wait for every queue of every accelerator, read the events of the kernels
 * they ran, and store the number of kernels profiled in *count and the
 * first min(capacity, *count) entries in entries (NULL with capacity 0 asks
 * for the count only), in the order they were first launched. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL count, or a NULL entries with a
 * capacity; AMP_ERROR_INVALID_OPERATION when profiling is off (the message
 * says how to turn it on); the statuses of amp_accelerator_view_wait().
 */
amp_status amp_profile_get_entries(amp_profile_entry *entries, size_t capacity, size_t *count);

/* Set every kernel's figures to zero; launches still queued are not
 * counted. */
void amp_profile_reset_entries(void);

/* ---- Deprecated spellings (docs/api.md, "Deprecated spellings") ---- */

/* Deprecated: amp_profile_is_enabled(), the same call. */
AMP__DEPRECATED("amp_profile_is_enabled") int amp_profile_enabled(void);

/* Deprecated: amp_profile_get_entries(), the same call. */
AMP__DEPRECATED("amp_profile_get_entries")
amp_status amp_get_profile(amp_profile_entry *entries, size_t capacity, size_t *count);

/* Deprecated: amp_profile_reset_entries(), the same call. */
AMP__DEPRECATED("amp_profile_reset_entries") void amp_reset_profile(void);

#ifdef __cplusplus
}
#endif

#endif
