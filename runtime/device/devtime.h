/*
 * runtime/device/devtime.h - the timeline's device side: each queue as the
 * timeline numbers it, the offset from its device's clock to the host's,
 * and the device times of kernels and transfers, read from their OpenCL
 * profiling events.
 *
 * A kernel's event is read late, as AMP_PROFILE reads its own: when it has
 * completed by a later launch's poll, or when the timeline is written
 * (which waits for what is still queued), so that no launch waits for
 * it. The offset between a device's clock and the host's is measured by
 * markers, each queued between two readings of the host's clock, whose
 * CL_PROFILING_COMMAND_QUEUED is the device's reading of a moment between
 * them: a few per queue, when the timeline first sees it and with its
 * first kernels timed on the device, the narrowest pair of readings
 * winning.
 *
 * A queue gets profiling only when it is made (OpenCL 1.2 cannot switch
 * it on later): queues made while the timeline or AMP_PROFILE is on
 * (device/profile.h's amp__prof_queue_properties) are timed on the device;
 * the work of a queue made before is shown where it was queued.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_DEVICE_DEVTIME_H
#define AMP_DEVICE_DEVTIME_H

#include <stdint.h>

#include <stddef.h>

#include "core/clapi.h"
#include "core/timeline.h"

/* Whether the kernel about to be launched, now (amp__tl_now()), should be
 * timed on the device.
 * An event is what that costs, and on some drivers it costs more than the
 * launch (NVIDIA's: some 8 us against 4): so the first 16 kernels of the
 * run are timed on the device, then at most one in each 4 ms of the run,
 * the allowance refilling while no kernel is timed, up to a burst of 4; the others are shown where they were queued (core/timeline.h's
 * TL_NOT_SAMPLED). AMP_TIMELINE_KERNELS=all times every kernel, at the
 * driver's price. */
int amp__dtime_wanted(int64_t now);

/* The timeline's number for the accelerator view key if it has one
 * already, else 0; *profiled as amp__dtime_queue says. What every launch
 * asks: the facts that name a queue are looked up only on first sight. */
int amp__dtime_queue_seen(const void *key, int *profiled);

/* The timeline's number for the queue q of the accelerator view key (the
 * tid of its track: core/timeline.h's amp__tl_queue says what the other
 * facts name), registered on first sight; *profiled: whether its work is
 * timed on the device. 0 when the timeline keeps no more. Called through
 * amp__queue_timeline (queue.h), which knows the view. */
int amp__dtime_queue(const void *key, cl_command_queue q, size_t acc_index, const char *acc_name,
                     const char *kind, int transfer, int *profiled);

/* The kernel of the timeline's record ran as ev (owned from now on) on the
 * timeline's queue number queue: its device times go to the record once ev
 * has completed. */
void amp__dtime_kernel(cl_event ev, uint32_t record, int queue);

/* The device times of a completed command: 1, or 0 when its event has
 * none (a queue without profiling, a failed command). */
int amp__dtime_span(cl_event ev, uint64_t *start, uint64_t *end);

/* Read the kernels whose events have completed, and the queues' offsets;
 * with wait, wait for the rest first (the timeline is about to be
 * written). */
void amp__dtime_collect(int wait);

/* Every event read and released, and the queues forgotten (amp_shutdown,
 * before the queues go). */
void amp__dtime_shutdown(void);

#endif
