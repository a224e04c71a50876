/*
 * runtime/api/lifecycle.c - the library's version, and amp_shutdown, which
 * releases every layer in the reverse order of the data flow.
 */
#include "amp/amp.h"
#include <stdio.h>

#include "api/dispatch.h"
#include "api/timeline.h"
#include "check/checkrun.h"
#include "core/lock.h"
#include "core/timeline.h"
#include "data/coherence.h"
#include "data/texture.h"
#include "data/view.h"
#include "device/accel.h"
#include "device/devtime.h"
#include "device/queue.h"
#include "kernel/bind.h"
#include "kernel/diskcache.h"
#include "kernel/kcache.h"

const char *amp_version(void)
{
    return AMP_VERSION_STRING;
}

amp_status amp_shutdown(void)
{
    amp__lock_acquire();
    tl_call call;
    amp__tl_call_begin(&call);
    /* Data first (it may need a queue to copy back), then kernels, then
     * the queues and the devices they were built for. The views' data is
     * copied back, and what failed is tried once more as the device copies
     * go: the status is that last try's, so AMP_OK means every caller's
     * memory is current. Before anything is released, every queue is
     * waited for: a launch whose results no view holds is still queued
     * after the copies back, and PoCL aborts in a process that exits while
     * it builds one. What is released after that goes on regardless. */
    (void)amp__view_write_back_all();
    amp_status ran = amp__queue_finish_all();
    amp_status st = amp__coh_drop_all_device_copies();
    if (st == AMP_OK)
        st = ran;
    amp__tex_drop_all_device_memory();
    amp__kc_clear();
    amp__kb_shutdown();
    amp__dispatch_shutdown();
    amp__chk_shutdown();
    amp__dc_reset();
    /* The timeline's device times read while the queues are there. */
    amp__dtime_shutdown();
    amp__queue_shutdown();
    amp__acc_shutdown();
    amp__tl_call_end(&call, "amp_shutdown", st, NULL);
    /* The timeline, written as amp_shutdown promises; a file that cannot
     * be written changes nothing of the program's status. */
    if (amp__timeline_write() != AMP_OK)
        amp__tl_say_write_error();
    amp__lock_release();
    return st;
}
