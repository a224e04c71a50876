/*
 * runtime/data/ledger.c - counting and tracing transfers.
 */
#include "data/ledger.h"

#include <stdio.h>

#include "core/env.h"
#include "core/error.h"
#include "core/lock.h"

static amp_transfer_stats global_stats;

static const char *const reason_names[AMP_REASON_COUNT] = {"kernel", "host access", "synchronize",
                                                           "release", "copy"};

const char *amp_transfer_reason_name(amp_transfer_reason reason)
{
    return (unsigned)reason < AMP_REASON_COUNT ? reason_names[reason] : "unknown";
}

static void stats_add(amp_transfer_stats *s, amp_transfer_direction dir, amp_transfer_reason reason,
                      uint64_t bytes)
{
    s->count[dir][reason]++;
    s->bytes[dir][reason] += bytes;
    if (dir == AMP_TO_DEVICE) {
        s->uploads++;
        s->upload_bytes += bytes;
    } else if (dir == AMP_TO_HOST) {
        s->downloads++;
        s->download_bytes += bytes;
    } else {
        s->device_copies++;
        s->device_copy_bytes += bytes;
    }
}

void amp__ledger_add(amp_transfer_stats *own, amp_transfer_direction dir,
                     amp_transfer_reason reason, uint64_t bytes, const amp_accelerator *acc,
                     const char *label, const char *place, const void *address)
{
    LOCK_ASSERT_HELD();
    if (own)
        stats_add(own, dir, reason, bytes);
    stats_add(&global_stats, dir, reason, bytes);
    if (!amp__env_trace_transfers())
        return;
    static const char *const verb[] = {"upload", "download", "copy"};
    static const char *const prep[] = {"to", "from", "on"};
    char where[64] = "";
    if (place)
        snprintf(where, sizeof where, ", %s %p", place, address);
    fprintf(stderr, "[amp] %-8s %10llu bytes %s %s  (%s%s%s%s)\n", verb[dir],
            (unsigned long long)bytes, prep[dir], acc->name, amp_transfer_reason_name(reason),
            label ? ", " : "", label ? label : "", where);
}

void amp__ledger_global(amp_transfer_stats *out)
{
    LOCK_ASSERT_HELD();
    *out = global_stats;
}

void amp__ledger_reset_global(void)
{
    LOCK_ASSERT_HELD();
    amp_transfer_stats zero = {0};
    global_stats = zero;
}

/* ---- Public API ---- */

amp_status amp_transfer_get_stats(amp_transfer_stats *out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_transfer_get_stats: out is NULL.");
    amp__lock_acquire();
    amp__ledger_global(out);
    amp__lock_release();
    return AMP_OK;
}

void amp_transfer_reset_stats(void)
{
    amp__lock_acquire();
    amp__ledger_reset_global();
    amp__lock_release();
}
