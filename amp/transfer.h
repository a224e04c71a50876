/*
 * amp/transfer.h - the transfer ledger: every copy between host and device,
 * counted by direction and reason.
 *
 * The counts are how tests prove that data moves lazily, and how a learner
 * sees what moved and why. Set AMP_TRACE=transfers to have each transfer
 * printed to stderr as it happens.
 */
#ifndef AMP_TRANSFER_H
#define AMP_TRANSFER_H

#include <stdint.h>

#include "array_view.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum amp_transfer_direction {
    AMP_TO_DEVICE = 0, /* an upload */
    AMP_TO_HOST = 1,   /* a download */
    AMP_ON_DEVICE = 2, /* a copy from one buffer to another on a device */
    AMP_DIRECTION_COUNT = 3
} amp_transfer_direction;

/* Why data moved. */
typedef enum amp_transfer_reason {
    AMP_REASON_KERNEL = 0,      /* a kernel used data whose device copy was stale */
    AMP_REASON_HOST_ACCESS = 1, /* amp_array_view_data() on a stale host copy */
    AMP_REASON_SYNCHRONIZE = 2, /* amp_array_view_synchronize() */
    AMP_REASON_RELEASE = 3,     /* the last view of the data was released */
    AMP_REASON_COPY = 4,        /* an explicit copy (amp_copy_*) */
    AMP_REASON_COUNT = 5
} amp_transfer_reason;

typedef struct amp_transfer_stats {
    /* transfers and bytes, by direction and reason */
    uint64_t count[AMP_DIRECTION_COUNT][AMP_REASON_COUNT];
    uint64_t bytes[AMP_DIRECTION_COUNT][AMP_REASON_COUNT];
    /* the same, summed over reasons */
    uint64_t uploads, upload_bytes;
    uint64_t downloads, download_bytes;
    uint64_t device_copies, device_copy_bytes;
} amp_transfer_stats;

/* The name of a reason, such as "kernel" or "synchronize". */
const char *amp_transfer_reason_name(amp_transfer_reason reason);

/*
 * Store in *out the transfers of the view's data source (shared by every
 * view of the same memory) since it was created. Returns
 * AMP_ERROR_INVALID_ARGUMENT for a NULL or released view or a NULL out.
 */
amp_status amp_array_view_get_transfers(const amp_array_view *view, amp_transfer_stats *out);

/*
 * Store in *out every transfer of this process since it started or since
 * the last amp_transfer_reset_stats(). Returns AMP_ERROR_INVALID_ARGUMENT for a
 * NULL out.
 */
amp_status amp_transfer_get_stats(amp_transfer_stats *out);

/* Set the process-wide counts to zero. Per-view counts are kept. */
void amp_transfer_reset_stats(void);

/* ---- Deprecated spellings (docs/api.md, "Deprecated spellings") ---- */

/* Deprecated: amp_transfer_get_stats(), the same call. */
AMP__DEPRECATED("amp_transfer_get_stats") amp_status amp_get_transfers(amp_transfer_stats *out);

/* Deprecated: amp_transfer_reset_stats(), the same call. */
AMP__DEPRECATED("amp_transfer_reset_stats") void amp_reset_transfers(void);

#ifdef __cplusplus
}
#endif

#endif
