/*
 * runtime/device/devtime.c - the timeline's device times (devtime.h).
 */
#include "device/devtime.h"

#include <stdlib.h>

#include "core/env.h"
#include "core/lock.h"

/* A marker that measures a queue's clock until it is read: its
 * CL_PROFILING_COMMAND_QUEUED is the device's reading of some moment
 * between the host's two readings, before and after its enqueue. */
typedef struct dt_marker {
    cl_event event;
    int64_t before, after;
} dt_marker;

/* The markers a queue's clock is measured by. The device stamps a marker
 * somewhere inside its enqueue, and the offset takes the middle of the
 * host's two readings around it: it is off by up to half of that window.
 * An enqueue takes 15 to 40 us on PoCL, but one that the system
 * interrupts can take milliseconds: on the 2-core CPU machine, one run
 * measured once drew every device event 2.6 ms late, after the waits that
 * had waited for it. So a queue is measured up to DT_MARKERS times, at its
 * first sight and with its first kernels timed on the device, and the
 * narrowest window wins. */
#define DT_MARKERS 8

/* A queue as the timeline knows it: its number, and its clock's
 * measurements (window: the narrowest read so far, 0 before any). */
typedef struct dt_queue {
    const void *key;
    cl_command_queue queue;
    int number;
    int profiled;
    int measured; /* markers queued so far */
    int64_t window;
    dt_marker markers[DT_MARKERS];
} dt_queue;

/* A kernel whose event is not read yet, and its queue's number. */
typedef struct dt_kernel {
    cl_event event;
    uint32_t record;
    int queue;
} dt_kernel;

static dt_queue *queues;
static size_t queue_count;
static dt_kernel *pending;
static size_t pending_count, pending_capacity;

/* A pending list longer than this is polled at the next launch, so that a
 * program that never waits does not pile events up. */
#define DT_POLL_AT 256

/* Sampling (devtime.h): the first kernels of the run timed in a row, then
 * one per spacing, with a short burst after a pause. At one event of 8 to
 * 12 us per 4 ms the events cost about 0.3% of a run's time, however
 * short its kernels; one per millisecond cost a tiny launch on the H100
 * about 5 points with a wait after each launch and 1 to 2 pipelined
 * (docs/performance.md, "The timeline's cost"). The burst after a pause is short because a pause of the library
 * may be the program's busy time: a loop that does other work between
 * blocks of launches (the dispatch benchmark does) would pay a whole burst
 * of events at each block. */
#define DT_FIRST 16
#define DT_BURST 4
#define DT_SPACING_NS 4000000

static int every_kernel = -1; /* AMP_TIMELINE_KERNELS=all, read on first use */
/* The kernels that may be timed now, in ns of spacing: one per
 * DT_SPACING_NS (whole numbers: this runs at every launch). */
static int64_t allowance = (int64_t)DT_FIRST * DT_SPACING_NS;
static int64_t allowance_at;

int amp__dtime_wanted(int64_t now)
{
    LOCK_ASSERT_HELD();
    if (every_kernel < 0)
        every_kernel = amp__env_timeline_kernels();
    if (every_kernel)
        return 1;
    /* Refilled up to a burst, never taking from what is left of the
     * first kernels' allowance. */
    const int64_t burst = (int64_t)DT_BURST * DT_SPACING_NS;
    if (allowance_at && allowance < burst) {
        allowance += now - allowance_at;
        if (allowance > burst)
            allowance = burst;
    }
    allowance_at = now;
    if (allowance < DT_SPACING_NS)
        return 0;
    allowance -= DT_SPACING_NS;
    return 1;
}

static int has_profiling(cl_command_queue q)
{
    cl_command_queue_properties props = 0;
    return amp__clapi.GetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, NULL) ==
               CL_SUCCESS &&
           (props & CL_QUEUE_PROFILING_ENABLE);
}

/* One more marker between two readings of the host's clock, while the
 * queue has fewer than DT_MARKERS (none where it has no profiling). */
static void measure_clock(dt_queue *q)
{
    if (!q->profiled || q->measured >= DT_MARKERS)
        return;
    dt_marker *m = &q->markers[q->measured++];
    m->before = amp__tl_now();
    if (amp__clapi.EnqueueMarkerWithWaitList(q->queue, 0, NULL, &m->event) != CL_SUCCESS)
        m->event = NULL;
    m->after = amp__tl_now();
}

int amp__dtime_queue_seen(const void *key, int *profiled)
{
    LOCK_ASSERT_HELD();
    for (size_t i = 0; i < queue_count; i++)
        if (queues[i].key == key) {
            *profiled = queues[i].profiled;
            return queues[i].number;
        }
    *profiled = 0;
    return 0;
}

int amp__dtime_queue(const void *key, cl_command_queue queue, size_t acc_index,
                     const char *acc_name, const char *kind, int transfer, int *profiled)
{
    LOCK_ASSERT_HELD();
    int number = amp__dtime_queue_seen(key, profiled);
    if (number)
        return number;
    int first = 0;
    number = amp__tl_queue(key, acc_index, acc_name, kind, transfer, &first);
    dt_queue *grown = number ? realloc(queues, (queue_count + 1) * sizeof *grown) : NULL;
    if (!grown)
        return number;
    queues = grown;
    dt_queue *q = &queues[queue_count++];
    *q = (dt_queue){.key = key, .queue = queue, .number = number, .profiled = has_profiling(queue)};
    measure_clock(q);
    *profiled = q->profiled;
    return number;
}

/* The times of a command whose status is known to be CL_COMPLETE. */
static int times_of(cl_event ev, uint64_t *start, uint64_t *end)
{
    cl_ulong s = 0, e = 0;
    if (amp__clapi.GetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL) !=
            CL_SUCCESS ||
        amp__clapi.GetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL) !=
            CL_SUCCESS ||
        e < s)
        return 0;
    *start = s;
    *end = e;
    return 1;
}

/* The command's execution status: CL_COMPLETE, a negative error, or a
 * stage not reached yet; an event that cannot say is taken as failed. */
static cl_int status_of(cl_event ev)
{
    cl_int status = CL_QUEUED;
    if (amp__clapi.GetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                NULL) != CL_SUCCESS)
        return -1;
    return status;
}

int amp__dtime_span(cl_event ev, uint64_t *start, uint64_t *end)
{
    return status_of(ev) == CL_COMPLETE && times_of(ev, start, end);
}

static int event_done(cl_event ev)
{
    return status_of(ev) <= CL_COMPLETE;
}

/* A kernel whose status is status: its times (none after a failure), and
 * its event released. One status query an event: the driver's calls are
 * most of what the timeline costs a launch. */
static void read_kernel(dt_kernel *k, cl_int status)
{
    uint64_t start = 0, end = 0;
    int ok = status == CL_COMPLETE && times_of(k->event, &start, &end);
    amp__tl_kernel_span(k->record, start, end, ok);
    amp__clapi.ReleaseEvent(k->event);
}

/* The queue's markers that have completed (all of them, with wait): the
 * offset of the narrowest window read so far is the queue's. */
static void read_clock(dt_queue *q, int wait)
{
    for (int i = 0; i < q->measured; i++) {
        dt_marker *m = &q->markers[i];
        if (!m->event)
            continue;
        if (wait)
            (void)amp__clapi.WaitForEvents(1, &m->event);
        if (!wait && !event_done(m->event))
            continue;
        cl_ulong queued = 0;
        int64_t window = m->after - m->before;
        if (amp__clapi.GetEventProfilingInfo(m->event, CL_PROFILING_COMMAND_QUEUED, sizeof queued,
                                             &queued, NULL) == CL_SUCCESS &&
            queued > 0 && (!q->window || window < q->window)) {
            q->window = window > 0 ? window : 1;
            amp__tl_queue_offset(q->number, m->before + window / 2 - (int64_t)queued);
        }
        amp__clapi.ReleaseEvent(m->event);
        m->event = NULL;
    }
}

/* Whether queue number q is among the n of busy. */
static int is_busy(const int *busy, size_t n, int q)
{
    for (size_t i = 0; i < n; i++)
        if (busy[i] == q)
            return 1;
    return 0;
}

/* The pending kernels are read, oldest first, while they have completed.
 * A queue runs its kernels in order: a poll stops asking about a queue at
 * its first kernel not completed, so that a long queue is not asked about
 * again and again (each question is a driver call), while the other
 * queues' completed kernels are still read; a wait reads them all. */
void amp__dtime_collect(int wait)
{
    LOCK_ASSERT_HELD();
    for (size_t i = 0; i < queue_count; i++)
        read_clock(&queues[i], wait);
    int busy[64];
    size_t busy_count = 0, kept = 0;
    for (size_t i = 0; i < pending_count; i++) {
        dt_kernel *k = &pending[i];
        if (!wait && is_busy(busy, busy_count, k->queue)) {
            pending[kept++] = *k;
            continue;
        }
        cl_int status = status_of(k->event);
        if (status > CL_COMPLETE && wait) {
            (void)amp__clapi.WaitForEvents(1, &k->event);
            status = status_of(k->event);
        }
        if (status <= CL_COMPLETE) {
            read_kernel(k, status);
            continue;
        }
        pending[kept++] = *k;
        /* Past 64 busy queues, each of the rest is asked about. */
        if (busy_count < sizeof busy / sizeof busy[0])
            busy[busy_count++] = k->queue;
    }
    pending_count = kept;
}

void amp__dtime_kernel(cl_event ev, uint32_t record, int queue)
{
    LOCK_ASSERT_HELD();
    if (!ev)
        return;
    if (pending_count >= DT_POLL_AT && pending_count % DT_POLL_AT == 0)
        amp__dtime_collect(0);
    if (record != TL_NO_RECORD && pending_count == pending_capacity) {
        size_t cap = pending_capacity ? 2 * pending_capacity : 64;
        dt_kernel *grown = realloc(pending, cap * sizeof *grown);
        if (grown) {
            pending = grown;
            pending_capacity = cap;
        }
    }
    if (record == TL_NO_RECORD || pending_count == pending_capacity) {
        /* Not kept, or no room to wait for it: shown where it was queued. */
        amp__tl_kernel_span(record, 0, 0, 0);
        amp__clapi.ReleaseEvent(ev);
        return;
    }
    pending[pending_count++] = (dt_kernel){ev, record, queue};
    /* The queue's clock measured again, by the first kernels timed. */
    for (size_t i = 0; i < queue_count; i++)
        if (queues[i].number == queue)
            measure_clock(&queues[i]);
}

void amp__dtime_shutdown(void)
{
    LOCK_ASSERT_HELD();
    amp__dtime_collect(1);
    free(queues);
    queues = NULL;
    queue_count = 0;
    free(pending);
    pending = NULL;
    pending_count = pending_capacity = 0;
    amp__tl_forget_queues();
}
