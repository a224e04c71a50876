/*
 * runtime/data/staging.c - moving bytes between host memory and a device
 * buffer as fast as the device allows: direct, mapped or staged
 * (staging.h), the page-locked allocations that go direct, and each
 * device's staging buffers and transfer queue.
 *
 * Why staging: a driver copies ordinary host memory through page-locked
 * buffers of its own, one chunk at a time and on one thread (NVIDIA's
 * OpenCL moves 7 to 10 GB/s so, where the link carries 55). Here the
 * chunks are copied in on several threads, and each is moved by the device
 * while the next is copied: the transfer runs at the faster of the two
 * rates, not their sum. Page-locked buffers are OpenCL's own
 * (CL_MEM_ALLOC_HOST_PTR, mapped), as NVIDIA's OpenCL guide describes:
 * clEnqueueWriteBuffer from such memory is a DMA at the link's speed.
 */
#include "data/staging.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/lock.h"
#include "core/timeline.h"
#include "core/testing.h"
#include "data/memcopy.h"
#include "device/devtime.h"
#include "device/profile.h"

/* Staging buffers per device: one being filled, one moving, one spare, so
 * that filling never waits for a move that has just been queued. */
#define SLOTS 3
#define SLOT_BYTES ((size_t)16 << 20)
/* Below this a transfer goes direct: a staged or mapped one costs a few
 * more calls, and a driver moves a small one well enough. On PoCL a map
 * and unmap cost about 0.1 ms, and the mapped path overtook the direct
 * one at 8 MiB (docs/performance.md). */
#define MAPPED_MIN ((size_t)8 << 20)
#define STAGED_MIN ((size_t)2 << 20)
/* A staged transfer's chunks: an eighth of it, from 1 MiB to a slot. */
#define CHUNK_MIN ((size_t)1 << 20)

/* What a device keeps for transfers. */
typedef struct stg_device {
    amp_accelerator *acc;
    amp_accelerator_view transfer; /* its queue; made on first use */
    cl_mem slot_mem[SLOTS];
    char *slot_ptr[SLOTS];
    size_t slot_bytes; /* of the slots made, 0 when none */
    struct stg_device *next;
} stg_device;

static stg_device *devices;
/* The uploads queued without waiting (amp__stg_defer_begin), with the
 * accelerator of each. */
static int defer_depth;
static cl_event *deferred;
static amp_accelerator **deferred_acc;
static size_t ndeferred, cap_deferred;
static stg_pinned *pinned;

/* The ways a transfer moves bytes: as the device and the size decide, one
 * OpenCL call, a mapped buffer, or chunks through the staging buffers. */
typedef enum stg_path { STG_AUTO, STG_DIRECT, STG_MAPPED, STG_STAGED } stg_path;
_Static_assert((int)STG_AUTO == (int)TEST_PATH_AUTO && (int)STG_DIRECT == (int)TEST_PATH_DIRECT &&
                   (int)STG_MAPPED == (int)TEST_PATH_MAPPED &&
                   (int)STG_STAGED == (int)TEST_PATH_STAGED,
               "the paths of core/testing.h are these");

/* The path every transfer of at least forced_min takes, with slots of
 * forced_slot bytes (0: SLOT_BYTES), when not STG_AUTO: set by tests and
 * the benchmark (amp__test_set_transfer_path). */
static stg_path forced = STG_AUTO;
static size_t forced_slot, forced_min;
static stg_path last_path = STG_DIRECT;

void amp__test_set_transfer_path(test_transfer_path path, size_t slot_bytes, size_t min_bytes)
{
    amp__lock_acquire();
    forced = (stg_path)path;
    forced_slot = slot_bytes;
    forced_min = min_bytes;
    amp__lock_release();
}

test_transfer_path amp__test_last_transfer_path(void)
{
    amp__lock_acquire();
    stg_path path = last_path;
    amp__lock_release();
    return (test_transfer_path)path;
}

static stg_timing last_timing;

stg_timing amp__stg_last_timing(void)
{
    return last_timing;
}

const char *amp__stg_last_path_name(void)
{
    return last_path == STG_MAPPED ? "mapped" : last_path == STG_STAGED ? "staged" : "direct";
}

/* A command of the transfer done as ev: its device times widen the
 * transfer's (while the timeline records). */
static void timed(cl_event ev)
{
    uint64_t start, end;
    if (!amp__tl_active || !ev || !amp__dtime_span(ev, &start, &end))
        return;
    if (!last_timing.device || start < last_timing.start)
        last_timing.start = start;
    if (!last_timing.device || end > last_timing.end)
        last_timing.end = end;
    last_timing.device = 1;
}

/* ---- Boxes ---- */

stg_rect amp__stg_rect_of(const rg_box *b)
{
    stg_rect r;
    r.row_pitch = (size_t)(b->rows[1] > 1 ? b->pitch[1] : b->width);
    r.slice_pitch = (size_t)(b->rows[0] > 1 ? b->pitch[0] : (int64_t)r.row_pitch * b->rows[1]);
    size_t off = (size_t)b->offset;
    r.origin[2] = off / r.slice_pitch;
    off %= r.slice_pitch;
    r.origin[1] = off / r.row_pitch;
    r.origin[0] = off % r.row_pitch;
    r.region[0] = (size_t)b->width;
    r.region[1] = (size_t)b->rows[1];
    r.region[2] = (size_t)b->rows[0];
    return r;
}

/* The two boxes of a transfer as outer x inner rows of width bytes, with
 * the levels that are contiguous on both sides joined into longer rows. */
typedef struct plan {
    int64_t outer, inner, width;
    int64_t h_off, h_pitch[2];
    int64_t d_off, d_pitch[2];
} plan;

static plan plan_of(const rg_box *h, const rg_box *d)
{
    plan p = {h->rows[0],
              h->rows[1],
              h->width,
              h->offset,
              {h->pitch[0], h->pitch[1]},
              d->offset,
              {d->pitch[0], d->pitch[1]}};
    if (p.inner == 1 || (p.h_pitch[1] == p.width && p.d_pitch[1] == p.width)) {
        p.width *= p.inner;
        p.inner = 1;
        p.h_pitch[1] = p.d_pitch[1] = p.width;
    }
    if (p.inner == 1 && (p.outer == 1 || (p.h_pitch[0] == p.width && p.d_pitch[0] == p.width))) {
        p.width *= p.outer;
        p.outer = 1;
        p.h_pitch[0] = p.d_pitch[0] = p.width;
    }
    if (p.inner == 1 && p.outer > 1) { /* the slices are the rows */
        p.inner = p.outer;
        p.outer = 1;
        p.h_pitch[1] = p.h_pitch[0];
        p.d_pitch[1] = p.d_pitch[0];
        p.h_pitch[0] = p.h_pitch[1] * p.inner;
        p.d_pitch[0] = p.d_pitch[1] * p.inner;
    }
    return p;
}

static int64_t plan_bytes(const plan *p)
{
    return p->outer * p->inner * p->width;
}

/* ---- Page-locked allocations ---- */

void amp__stg_pinned_add(stg_pinned *p)
{
    LOCK_ASSERT_HELD();
    p->next = pinned;
    pinned = p;
}

stg_pinned *amp__stg_pinned_take(const void *user)
{
    LOCK_ASSERT_HELD();
    for (stg_pinned **link = &pinned; *link; link = &(*link)->next)
        if ((*link)->user == user) {
            stg_pinned *p = *link;
            *link = p->next;
            return p;
        }
    return NULL;
}

/* Nonzero when [lo, lo + n) lies in one allocation of the context: its
 * transfers are DMA from memory the driver has locked. */
static int is_pinned(const char *lo, int64_t n, cl_context context)
{
    /* Addresses as numbers: the host memory may belong to any object. */
    uintptr_t a = (uintptr_t)lo;
    for (const stg_pinned *p = pinned; p; p = p->next) {
        uintptr_t u = (uintptr_t)p->user;
        if (p->context == context && a >= u && a + (uintptr_t)n <= u + p->bytes)
            return 1;
    }
    return 0;
}

/* ---- Devices ---- */

static stg_device *device_of(amp_accelerator *acc)
{
    for (stg_device *d = devices; d; d = d->next)
        if (d->acc == acc)
            return d;
    stg_device *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->acc = acc;
    d->next = devices;
    devices = d;
    return d;
}

/* The device's transfer queue, a view of the library's own: it is never
 * handed out, and lives until amp__stg_shutdown (holds 1). NULL when it
 * cannot be made. */
static amp_accelerator_view *transfer_view(amp_accelerator *acc)
{
    stg_device *d = device_of(acc);
    if (!d)
        return NULL;
    if (!d->transfer.queue) {
        cl_int rc = CL_SUCCESS;
        cl_command_queue q = amp__clapi.CreateCommandQueue(acc->context, acc->device,
                                                           amp__prof_queue_properties(), &rc);
        if (!q)
            return NULL;
        d->transfer.acc = acc;
        d->transfer.queue = q;
        d->transfer.mode = AMP_QUEUING_AUTOMATIC;
        d->transfer.holds = 1;
    }
    return &d->transfer;
}

static int is_cpu(const amp_accelerator *acc)
{
    return (acc->type & CL_DEVICE_TYPE_CPU) != 0;
}

amp_accelerator_view *amp__stg_upload_view(amp_accelerator_view *av, int64_t bytes)
{
    LOCK_ASSERT_HELD();
    size_t min = forced != STG_AUTO ? forced_min : STAGED_MIN;
    int staged = forced == STG_STAGED || (forced == STG_AUTO && !is_cpu(av->acc));
    if (!staged || bytes < (int64_t)min)
        return av;
    amp_accelerator_view *t = transfer_view(av->acc);
    return t ? t : av;
}

static void release_slots(stg_device *d)
{
    for (int i = 0; i < SLOTS; i++) {
        /* A buffer still mapped is never freed: a second try after a
         * failure. */
        if (d->slot_ptr[i] &&
            amp__clapi.EnqueueUnmapMemObject(d->transfer.queue, d->slot_mem[i], d->slot_ptr[i], 0,
                                             NULL, NULL) != CL_SUCCESS)
            amp__clapi.EnqueueUnmapMemObject(d->transfer.queue, d->slot_mem[i], d->slot_ptr[i], 0,
                                             NULL, NULL);
        d->slot_ptr[i] = NULL;
    }
    if (d->transfer.queue)
        amp__clapi.Finish(d->transfer.queue);
    for (int i = 0; i < SLOTS; i++) {
        if (d->slot_mem[i])
            amp__clapi.ReleaseMemObject(d->slot_mem[i]);
        d->slot_mem[i] = NULL;
    }
    d->slot_bytes = 0;
}

/* The device's staging buffers, of `bytes` each, made (and mapped, for
 * good) on first use. 0 when they cannot be made: the transfer then goes
 * direct, as it would without them. */
static int make_slots(amp_accelerator *acc, size_t bytes, stg_device **out)
{
    stg_device *d = device_of(acc);
    if (!d || !transfer_view(acc))
        return 0;
    *out = d;
    if (d->slot_bytes == bytes)
        return 1;
    release_slots(d);
    for (int i = 0; i < SLOTS; i++) {
        cl_int rc = CL_SUCCESS;
        d->slot_mem[i] = amp__clapi.CreateBuffer(acc->context,
                                                 CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes,
                                                 NULL, &rc);
        if (d->slot_mem[i])
            d->slot_ptr[i] = amp__clapi.EnqueueMapBuffer(d->transfer.queue, d->slot_mem[i], CL_TRUE,
                                                         CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0,
                                                         NULL, NULL, &rc);
        if (!d->slot_ptr[i]) {
            release_slots(d);
            return 0;
        }
    }
    d->slot_bytes = bytes;
    return 1;
}

void amp__stg_shutdown(void)
{
    LOCK_ASSERT_HELD();
    free(deferred);
    free(deferred_acc);
    deferred = NULL;
    deferred_acc = NULL;
    ndeferred = cap_deferred = 0;
    while (devices) {
        stg_device *d = devices;
        devices = d->next;
        release_slots(d);
        if (d->transfer.queue)
            amp__clapi.ReleaseCommandQueue(d->transfer.queue);
        free(d);
    }
    amp__mcp_shutdown();
}

/* ---- Deferred uploads ---- */

static cl_int wait_event(cl_event ev, const char **call);

void amp__stg_defer_begin(void)
{
    LOCK_ASSERT_HELD();
    defer_depth++;
}

/* Room for one more deferred upload's event; NULL when there is none (the
 * upload then waits, as outside a deferral). */
static cl_event *defer_slot(amp_accelerator *acc)
{
    if (defer_depth == 0)
        return NULL;
    if (ndeferred == cap_deferred) {
        size_t cap = cap_deferred ? 2 * cap_deferred : 16;
        cl_event *e = realloc(deferred, cap * sizeof *e);
        if (e)
            deferred = e;
        amp_accelerator **a = e ? realloc(deferred_acc, cap * sizeof *a) : NULL;
        if (a)
            deferred_acc = a;
        if (!e || !a)
            return NULL;
        cap_deferred = cap;
    }
    deferred_acc[ndeferred] = acc;
    return &deferred[ndeferred];
}

cl_int amp__stg_defer_end(const char **call)
{
    LOCK_ASSERT_HELD();
    if (defer_depth > 0 && --defer_depth > 0)
        return CL_SUCCESS;
    cl_int first = CL_SUCCESS;
    for (size_t i = 0; i < ndeferred; i++) {
        const char *c = NULL;
        cl_int rc = wait_event(deferred[i], &c);
        amp__clapi.ReleaseEvent(deferred[i]);
        if (rc != CL_SUCCESS && !deferred_acc[i]->removed)
            deferred_acc[i]->removed = rc;
        if (rc != CL_SUCCESS && first == CL_SUCCESS) {
            first = rc;
            *call = c;
        }
    }
    ndeferred = 0;
    return first;
}

/* ---- Direct ---- */

/* The blocking call of the direct path; its event in *ev when ev is not
 * NULL. */
static cl_int direct_call(const stg_move *m, const char **call, cl_event *ev)
{
    cl_command_queue q = m->av->queue;
    cl_int rc;
    /* Blocking both ways: an upload, so that the caller may change its
     * memory as soon as the call returns, as with any C API; a download,
     * so that the data is there when it does. A deferred upload is waited
     * for at amp__stg_defer_end instead, before the caller returns. */
    cl_event *done = m->to_device ? defer_slot(m->av->acc) : NULL;
    cl_bool blocking = done ? CL_FALSE : CL_TRUE;
    /* A deferred upload's event belongs to the deferred list; the timeline
     * times only what has finished when the call returns, so it places a
     * deferred upload on the host's clock. */
    cl_event *out = done ? done : ev;
    if (amp__rg_box_contiguous(m->dbox) && amp__rg_box_contiguous(m->hbox)) {
        size_t n = (size_t)amp__rg_box_bytes(m->dbox);
        if (m->to_device) {
            *call = "clEnqueueWriteBuffer";
            rc = amp__clapi.EnqueueWriteBuffer(q, m->mem, blocking, (size_t)m->dbox->offset, n,
                                               m->host + m->hbox->offset, 0, NULL, out);
        } else {
            *call = "clEnqueueReadBuffer";
            rc = amp__clapi.EnqueueReadBuffer(q, m->mem, CL_TRUE, (size_t)m->dbox->offset, n,
                                              m->host + m->hbox->offset, 0, NULL, ev);
        }
        if (done && rc == CL_SUCCESS)
            ndeferred++;
        return rc;
    }
    stg_rect d = amp__stg_rect_of(m->dbox), h = amp__stg_rect_of(m->hbox);
    if (m->to_device) {
        *call = "clEnqueueWriteBufferRect";
        rc = amp__clapi.EnqueueWriteBufferRect(q, m->mem, blocking, d.origin, h.origin, d.region,
                                               d.row_pitch, d.slice_pitch, h.row_pitch,
                                               h.slice_pitch, m->host, 0, NULL, out);
        if (done && rc == CL_SUCCESS)
            ndeferred++;
        return rc;
    }
    *call = "clEnqueueReadBufferRect";
    return amp__clapi.EnqueueReadBufferRect(q, m->mem, CL_TRUE, d.origin, h.origin, d.region,
                                            d.row_pitch, d.slice_pitch, h.row_pitch, h.slice_pitch,
                                            m->host, 0, NULL, ev);
}

static cl_int move_direct(const stg_move *m, const char **call)
{
    /* The timeline's event, read as soon as the blocking call returns. */
    cl_event ev = NULL;
    cl_int rc = direct_call(m, call, amp__tl_active ? &ev : NULL);
    if (ev) {
        timed(ev);
        amp__clapi.ReleaseEvent(ev);
    }
    return rc;
}

/* ---- Events ---- */

/* Wait for ev; CL_SUCCESS, or why the command failed. */
static cl_int wait_event(cl_event ev, const char **call)
{
    cl_int rc = amp__clapi.WaitForEvents(1, &ev);
    if (rc == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST) {
        cl_int status = CL_COMPLETE;
        cl_int q = amp__clapi.GetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                                           &status, NULL);
        if (q != CL_SUCCESS) {
            *call = "clGetEventInfo";
            return q;
        }
        if (status < 0)
            rc = status; /* the command's own error */
    }
    if (rc != CL_SUCCESS)
        *call = "clWaitForEvents";
    return rc;
}

/* ---- Mapped (CPU devices) ---- */

static cl_int move_mapped(const stg_move *m, const plan *p, const char **call)
{
    cl_command_queue q = m->av->queue;
    int64_t lo = p->d_off;
    int64_t hi = p->d_off + (p->outer - 1) * p->d_pitch[0] + (p->inner - 1) * p->d_pitch[1] +
                 p->width;
    /* An upload of a whole range replaces it: nothing to read first. */
    cl_map_flags flags = !m->to_device              ? CL_MAP_READ
                         : p->outer * p->inner == 1 ? CL_MAP_WRITE_INVALIDATE_REGION
                                                    : CL_MAP_WRITE;
    cl_int rc = CL_SUCCESS;
    char *mapped = amp__clapi.EnqueueMapBuffer(q, m->mem, CL_TRUE, flags, (size_t)lo,
                                               (size_t)(hi - lo), 0, NULL, NULL, &rc);
    if (!mapped) {
        *call = "clEnqueueMapBuffer";
        return rc != CL_SUCCESS ? rc : CL_OUT_OF_RESOURCES;
    }
    char *dev = mapped - lo + p->d_off, *host = m->host + p->h_off;
    mcp_rows job = {m->to_device ? dev : host,
                    m->to_device ? host : dev,
                    {p->outer, p->inner},
                    {m->to_device ? p->d_pitch[0] : p->h_pitch[0],
                     m->to_device ? p->d_pitch[1] : p->h_pitch[1]},
                    {m->to_device ? p->h_pitch[0] : p->d_pitch[0],
                     m->to_device ? p->h_pitch[1] : p->d_pitch[1]},
                    p->width};
    amp__mcp_copy(&job);
    cl_event ev = NULL;
    rc = amp__clapi.EnqueueUnmapMemObject(q, m->mem, mapped, 0, NULL, &ev);
    if (rc != CL_SUCCESS) {
        /* A buffer still mapped is never freed: try once more, and report
         * the first failure either way. */
        *call = "clEnqueueUnmapMemObject";
        if (amp__clapi.EnqueueUnmapMemObject(q, m->mem, mapped, 0, NULL, NULL) == CL_SUCCESS)
            amp__clapi.Finish(q);
        return rc;
    }
    /* An upload is in the buffer only once the unmap is done. */
    rc = wait_event(ev, call);
    amp__clapi.ReleaseEvent(ev);
    if (rc != CL_SUCCESS)
        amp__clapi.Finish(q);
    return rc;
}

/* ---- Staged (other devices) ---- */

/* A chunk: rows rows of width bytes, at pitches, on each side. */
typedef struct chunk {
    int64_t h_off, d_off, rows, width, h_pitch, d_pitch;
} chunk;

/* Where the walk over a plan's chunks is. */
typedef struct walk {
    const plan *p;
    int64_t size; /* bytes per chunk at most */
    int64_t outer, inner, at;
} walk;

/* The next chunk: whole rows while a row fits, else parts of one row;
 * never across slices (their pitch differs). 0 after the last. */
static int next_chunk(walk *w, chunk *c)
{
    const plan *p = w->p;
    if (w->outer >= p->outer)
        return 0;
    c->h_off = p->h_off + w->outer * p->h_pitch[0] + w->inner * p->h_pitch[1] + w->at;
    c->d_off = p->d_off + w->outer * p->d_pitch[0] + w->inner * p->d_pitch[1] + w->at;
    c->h_pitch = p->h_pitch[1];
    c->d_pitch = p->d_pitch[1];
    if (p->width <= w->size) {
        int64_t k = w->size / p->width;
        c->rows = p->inner - w->inner < k ? p->inner - w->inner : k;
        c->width = p->width;
        w->inner += c->rows;
    } else {
        c->rows = 1;
        c->width = p->width - w->at < w->size ? p->width - w->at : w->size;
        w->at += c->width;
        if (w->at == p->width) {
            w->at = 0;
            w->inner++;
        }
    }
    if (w->inner == p->inner) {
        w->inner = 0;
        w->outer++;
    }
    return 1;
}

/* Queue the device's side of a chunk between slot (rows packed) and the
 * buffer, without waiting; its event in *ev. */
static cl_int enqueue_chunk(const stg_move *m, const chunk *c, char *slot, cl_event *ev,
                            const char **call)
{
    cl_command_queue q = m->av->queue;
    if (c->rows == 1) {
        *call = m->to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer";
        return m->to_device ? amp__clapi.EnqueueWriteBuffer(q, m->mem, CL_FALSE, (size_t)c->d_off,
                                                            (size_t)c->width, slot, 0, NULL, ev)
                            : amp__clapi.EnqueueReadBuffer(q, m->mem, CL_FALSE, (size_t)c->d_off,
                                                           (size_t)c->width, slot, 0, NULL, ev);
    }
    size_t origin[3] = {(size_t)(c->d_off % c->d_pitch), (size_t)(c->d_off / c->d_pitch), 0};
    size_t zero[3] = {0, 0, 0};
    size_t region[3] = {(size_t)c->width, (size_t)c->rows, 1};
    *call = m->to_device ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect";
    return m->to_device ? amp__clapi.EnqueueWriteBufferRect(q, m->mem, CL_FALSE, origin, zero,
                                                            region, (size_t)c->d_pitch, 0,
                                                            (size_t)c->width, 0, slot, 0, NULL, ev)
                        : amp__clapi.EnqueueReadBufferRect(q, m->mem, CL_FALSE, origin, zero,
                                                           region, (size_t)c->d_pitch, 0,
                                                           (size_t)c->width, 0, slot, 0, NULL, ev);
}

/* The host's side of a chunk: its rows into the slot, or out of it. */
static void host_chunk(const stg_move *m, const chunk *c, char *slot)
{
    char *host = m->host + c->h_off;
    mcp_rows job = {m->to_device ? slot : host,
                    m->to_device ? host : slot,
                    {1, c->rows},
                    {0, m->to_device ? c->width : c->h_pitch},
                    {0, m->to_device ? c->h_pitch : c->width},
                    c->width};
    amp__mcp_copy(&job);
}

/* Submit what was queued, so that the device starts on it while the host
 * fills the next slot. */
static cl_int submit(cl_command_queue q, const char **call)
{
    cl_int rc = amp__clapi.Flush(q);
    if (rc != CL_SUCCESS)
        *call = "clFlush";
    return rc;
}

static cl_int move_staged(const stg_move *m, const plan *p, stg_device *d, const char **call)
{
    int64_t total = plan_bytes(p);
    int64_t size = (int64_t)d->slot_bytes;
    /* An eighth of the transfer per chunk, so that the first fill and the
     * last move, which nothing overlaps, are short. */
    if (total / 8 < size)
        size = total / 8 > (int64_t)CHUNK_MIN ? total / 8 : (int64_t)CHUNK_MIN;
    if (size > (int64_t)d->slot_bytes)
        size = (int64_t)d->slot_bytes;
    walk w = {p, size, 0, 0, 0};
    cl_event ev[SLOTS] = {NULL};
    chunk pending[SLOTS];
    cl_int rc = CL_SUCCESS;
    chunk c;
    if (m->to_device) {
        for (int i = 0; rc == CL_SUCCESS && next_chunk(&w, &c); i = (i + 1) % SLOTS) {
            if (ev[i]) {
                rc = wait_event(ev[i], call);
                timed(ev[i]);
                amp__clapi.ReleaseEvent(ev[i]);
                ev[i] = NULL;
                if (rc != CL_SUCCESS)
                    break;
            }
            host_chunk(m, &c, d->slot_ptr[i]);
            rc = enqueue_chunk(m, &c, d->slot_ptr[i], &ev[i], call);
            if (rc == CL_SUCCESS)
                rc = submit(m->av->queue, call);
        }
    } else {
        int more = 1;
        for (int i = 0; i < SLOTS && rc == CL_SUCCESS && (more = next_chunk(&w, &pending[i])); i++)
            rc = enqueue_chunk(m, &pending[i], d->slot_ptr[i], &ev[i], call);
        if (rc == CL_SUCCESS)
            rc = submit(m->av->queue, call);
        for (int i = 0; rc == CL_SUCCESS && ev[i]; i = (i + 1) % SLOTS) {
            rc = wait_event(ev[i], call);
            timed(ev[i]);
            amp__clapi.ReleaseEvent(ev[i]);
            ev[i] = NULL;
            if (rc != CL_SUCCESS)
                break;
            host_chunk(m, &pending[i], d->slot_ptr[i]);
            if (more && (more = next_chunk(&w, &pending[i]))) {
                rc = enqueue_chunk(m, &pending[i], d->slot_ptr[i], &ev[i], call);
                if (rc == CL_SUCCESS)
                    rc = submit(m->av->queue, call);
            }
        }
    }
    /* The last chunks' moves; after a failure, whatever is still queued,
     * so that no command uses a slot after this returns. */
    for (int i = 0; i < SLOTS; i++) {
        if (!ev[i])
            continue;
        if (rc == CL_SUCCESS)
            rc = wait_event(ev[i], call);
        timed(ev[i]);
        amp__clapi.ReleaseEvent(ev[i]);
    }
    if (rc != CL_SUCCESS)
        amp__clapi.Finish(m->av->queue);
    return rc;
}

/* ---- The choice ---- */

static stg_path choose(const stg_move *m, const plan *p)
{
    int64_t n = plan_bytes(p);
    amp_accelerator *acc = m->av->acc;
    /* The whole extent of the host box, first byte to last. */
    int64_t span = (p->outer - 1) * p->h_pitch[0] + (p->inner - 1) * p->h_pitch[1] + p->width;
    if (forced != STG_AUTO) {
        if (n < (int64_t)forced_min)
            return STG_DIRECT;
        /* Staging, as on a GPU: page-locked memory goes direct. */
        if (forced == STG_STAGED && is_pinned(m->host + p->h_off, span, acc->context))
            return STG_DIRECT;
        return forced;
    }
    if (is_cpu(acc))
        return n < (int64_t)MAPPED_MIN ? STG_DIRECT : STG_MAPPED;
    if (n < (int64_t)STAGED_MIN || is_pinned(m->host + p->h_off, span, acc->context))
        return STG_DIRECT;
    return STG_STAGED;
}

/* A transfer on the device's transfer queue runs beside the kernels queued
 * on its other queues only if those have reached the device: submit them
 * first (a view in automatic mode holds its kernels until it is flushed).
 * A flush that fails changes nothing: the next wait submits them. */
static void submit_other_queues(const amp_accelerator_view *av)
{
    const stg_device *d = NULL;
    for (const stg_device *e = devices; e && !d; e = e->next)
        if (&e->transfer == av)
            d = e;
    if (!d)
        return;
    if (d->acc->default_view)
        amp__clapi.Flush(d->acc->default_view->queue);
    for (const amp_accelerator_view *v = d->acc->views; v; v = v->next)
        amp__clapi.Flush(v->queue);
}

cl_int amp__stg_move(const stg_move *m, const char **call)
{
    LOCK_ASSERT_HELD();
    last_timing.device = 0;
    submit_other_queues(m->av);
    plan p = plan_of(m->hbox, m->dbox);
    stg_path path = choose(m, &p);
    stg_device *d = NULL;
    if (path == STG_STAGED && !make_slots(m->av->acc, forced_slot ? forced_slot : SLOT_BYTES, &d))
        path = STG_DIRECT;
    last_path = path;
    if (path == STG_MAPPED)
        return move_mapped(m, &p, call);
    if (path == STG_STAGED)
        return move_staged(m, &p, d, call);
    return move_direct(m, call);
}
