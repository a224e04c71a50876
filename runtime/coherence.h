/*
 * runtime/coherence.h - data sources and the copies of their data.
 *
 * One record per piece of host memory (keyed by its address), shared by
 * every view of that memory. The record knows whether the host copy is
 * current, which device copies are current, and whether the data was
 * discarded. Nothing else in the runtime moves data: a kernel asks for a
 * current device copy (coh_device_ready), host access asks for a current
 * host copy (coh_host_ready), and every copy is counted in the ledger.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef RT_COHERENCE_H
#define RT_COHERENCE_H

#include <stddef.h>

#include "accel.h"
#include "amp/transfer.h"

typedef struct coh_copy coh_copy;
typedef struct coh_source coh_source;

/* Find the record of host memory [host, host + bytes), or make one. The
 * record counts one more view. A record that exists with another element
 * size or fewer bytes is refused (AMP_ERROR_INVALID_ARGUMENT). */
amp_status coh_source_acquire(void *host, size_t bytes, size_t elem_size, coh_source **out);

/* One view fewer. The last one copies stale data back to the host (unless
 * it was discarded), then frees the record and its device copies. The
 * record is freed even when the copy fails; the status says so. */
amp_status coh_source_release(coh_source *src);

/* The caller's memory the record stands for. */
void *coh_source_host(const coh_source *src);

/* The number of elements of the record, for choosing 32- or 64-bit index
 * math in kernels. */
size_t coh_source_elements(const coh_source *src);

/* Make the copy on av's device current, uploading when it is stale and not
 * discarded, and store its buffer in *mem. label names the view in traces. */
amp_status coh_device_ready(coh_source *src, amp_accelerator_view *av, const char *label,
                            cl_mem *mem);

/* A kernel on av writes the data: every other copy is stale now. */
void coh_device_written(coh_source *src, amp_accelerator_view *av);

/* Make the host copy current, downloading from the newest device copy. */
amp_status coh_host_ready(coh_source *src, amp_transfer_reason reason);

/* The host may write the data: every device copy is stale now. */
void coh_host_written(coh_source *src);

/* The data is no longer needed: skip the next upload or download. */
void coh_discard(coh_source *src);

/* Per-record and process-wide ledgers. */
void coh_source_stats(const coh_source *src, amp_transfer_stats *out);
void coh_global_stats(amp_transfer_stats *out);
void coh_reset_global_stats(void);

/* Copy every stale host copy back and free every device copy (shutdown). */
void coh_drop_all_device_copies(void);

#endif
