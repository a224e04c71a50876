/*
 * runtime/data/coherence.c - lazy copies between host memory and devices, by
 * the byte ranges views cover, and the transfer ledger.
 *
 * Invariant: every byte of a source that is not in `undefined` is current
 * in at least one copy (host or device); a copy's `stale` set holds the
 * bytes in which it is older than that. A record without host memory acts
 * as if its host copy were stale wherever the data is defined; the memory
 * is allocated (and its stale set filled so) on the first host access.
 */
#include "data/coherence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "core/error.h"
#include "core/lock.h"
#include "core/timeline.h"
#include "data/ledger.h"
#include "data/memcopy.h"
#include "data/staging.h"

struct coh_copy {
    coh_copy *next;
    amp_accelerator *acc;
    /* While the timeline records: its number for the view that made the copy
     * or last ran a kernel on it, which its transfers are shown for (a
     * number, not the view: a view the copy no longer uses may be gone). */
    int track;
    coh_order order; /* the view that used it last: later work waits on it */
    cl_mem mem;
    rg_set stale;
};

/* A data source's record. The handles this file hands out and takes
 * (coh_source, coherence.h) are never defined as a type: a public function
 * reaches the record behind one only through changing(), which counts the
 * change and keeps the count as the record's version, or reading(), which
 * gives it read only, or visiting(), for a function that would leave this
 * record as it is (found so by reading it first). So no function can
 * change a record without counting it (amp__coh_epoch) and changing its
 * version (amp__coh_version). */
typedef struct coh_record coh_record;

struct coh_record {
    void *host;    /* the caller's memory, or the record's own, or NULL */
    int owns_host; /* host was allocated here */
    int hashed;    /* in `sources`, by the caller's pointer */
    void *key;     /* the caller's pointer (the hash key) */
    size_t bytes;
    int refs;
    rg_set host_stale; /* meaningful once host is set */
    rg_set undefined;
    amp_accelerator *home; /* arrays: the device the data lives on */
    coh_copy *copies;
    amp_transfer_stats stats;
    UT_hash_handle hh;
    coh_record *prev, *next; /* every record, for shutdown */
    uint64_t version;        /* the layer's count at its last change (amp__coh_version) */
};

/* The one place that counts the data layer's changes (core/changes.h):
 * every change of a record, of a copy, or of the order of a memory's uses
 * comes through it, by changing(), visiting(), changed() or ordering(). */
static void count_change(void)
{
    amp__changes_count(CHANGES_DATA);
}

/* A change of src's record: counted, and the count kept as its version.
 * A new record's version is so above every version given before, and a
 * record freed and another made at the same address never look alike. */
static void changed(coh_record *src)
{
    count_change();
    src->version = amp__coh_epoch();
}

/* The record behind a handle, about to change. */
static coh_record *changing(coh_source *src)
{
    coh_record *r = (coh_record *)(void *)src;
    changed(r);
    return r;
}

/* The record behind a handle, for a function that leaves what it holds as
 * it is: a caller that read the record and found nothing to change (its
 * range sets may still make room, which changes no range). Counted all
 * the same, as any change of the layer may be (amp__coh_epoch); the
 * version stays. */
static coh_record *visiting(coh_source *src)
{
    count_change();
    return (coh_record *)(void *)src;
}

/* The record behind a handle, to read. */
static const coh_record *reading(const coh_source *src)
{
    return (const coh_record *)(const void *)src;
}

/* The handle of a record. */
static coh_source *handle_of(coh_record *src)
{
    return (coh_source *)(void *)src;
}

static coh_record *sources; /* records of the caller's memory, by pointer */
static coh_record *all_sources;

static void link_source(coh_record *src)
{
    src->next = all_sources;
    if (all_sources)
        all_sources->prev = src;
    all_sources = src;
}

static void unlink_source(coh_record *src)
{
    if (src->prev)
        src->prev->next = src->next;
    else
        all_sources = src->next;
    if (src->next)
        src->next->prev = src->prev;
}
/* Count a transfer of src's data in the ledger (ledger.c), moved on
 * queue's queue for the view the timeline numbers track (the transfer
 * queue carries a kernel's uploads) from the host's time began on; the
 * timeline takes its device times from the move's (staging.c) when it
 * moved through stg_move. */
static void record(coh_record *src, amp_transfer_direction dir, amp_transfer_reason reason,
                   int64_t bytes, amp_accelerator_view *queue, int track, const char *label,
                   int64_t began, int staged)
{
    char text[96] = "";
    if (label)
        snprintf(text, sizeof text, "view %s", label);
    ledger_move move = {src, NULL, label, queue, track, began, 0, 0, 0, NULL};
    if (amp__tl_active && staged) {
        stg_timing t = amp__stg_last_timing();
        move.device = t.device;
        move.start = t.start;
        move.end = t.end;
        move.path = amp__stg_last_path_name();
    }
    amp__ledger_add(&src->stats, dir, reason, (uint64_t)bytes, queue->acc, label ? text : NULL,
                    src->hashed ? "host memory" : "data", src->hashed ? src->key : (void *)src,
                    amp__tl_active ? &move : NULL);
}

/* The bytes of [0, n) in a or b, two sets of ranges in order. */
static int64_t union_bytes(const rg_set *a, const rg_set *b)
{
    int64_t total = 0, end = 0;
    size_t i = 0, j = 0;
    while (i < a->count || j < b->count) {
        int take_a = j >= b->count || (i < a->count && a->lo[i] <= b->lo[j]);
        int64_t lo = take_a ? a->lo[i] : b->lo[j], hi = take_a ? a->hi[i++] : b->hi[j++];
        if (lo < end)
            lo = end;
        if (hi > lo) {
            total += hi - lo;
            end = hi;
        }
    }
    return total;
}

/* Where src's current copy is, on the timeline (core/timeline.h): the
 * share of its bytes current on the host, and on its most current device
 * copy. */
static void show_where(const coh_record *src)
{
    if (!amp__tl_active || src->bytes == 0)
        return;
    double n = (double)src->bytes;
    double host = src->host ? (n - (double)union_bytes(&src->host_stale, &src->undefined)) / n
                            : 0.0;
    double device = 0.0;
    for (const coh_copy *c = src->copies; c; c = c->next) {
        double d = (n - (double)union_bytes(&c->stale, &src->undefined)) / n;
        device = d > device ? d : device;
    }
    amp__tl_where(src, host, device);
}

void amp__coh_show_where(const coh_source *src)
{
    show_where(reading(src));
}

/* The timeline's number for av's queue (device/queue.h). */
static int timeline_track(amp_accelerator_view *av)
{
    int profiled;
    return amp__queue_timeline(av, &profiled);
}

static amp_status no_memory(void)
{
    return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory tracking a view's data.");
}

/* dst = [0, bytes) less `undefined`: what a new copy lacks. */
static int stale_everywhere_defined(const coh_record *src, rg_set *dst)
{
    amp__rg_clear(dst);
    if (!amp__rg_add(dst, 0, (int64_t)src->bytes))
        return 0;
    for (size_t i = 0; i < src->undefined.count; i++)
        if (!amp__rg_remove(dst, src->undefined.lo[i], src->undefined.hi[i]))
            return 0;
    return 1;
}

amp_status amp__coh_source_acquire(void *host, size_t bytes, coh_source **out)
{
    coh_record *src = NULL;
    HASH_FIND_PTR(sources, &host, src);
    if (src) {
        if (src->bytes < bytes)
            return amp__err_set(
                AMP_ERROR_INVALID_ARGUMENT,
                "Host memory %p is already wrapped by a live view of %zu bytes; a new"
                " view of it must fit inside (%zu bytes asked). Release the other"
                " view first, or view the larger memory first.",
                host, src->bytes, bytes);
        *out = handle_of(src);
        changing(*out)->refs++;
        return AMP_OK;
    }
    src = calloc(1, sizeof *src);
    if (!src)
        return no_memory();
    changed(src);
    src->host = host;
    src->key = host;
    src->hashed = 1;
    src->bytes = bytes;
    src->refs = 1;
    HASH_ADD_PTR(sources, key, src);
    link_source(src);
    *out = handle_of(src);
    return AMP_OK;
}

static coh_copy *copy_on(const coh_record *src, const amp_accelerator *acc)
{
    for (coh_copy *c = src->copies; c; c = c->next)
        if (c->acc == acc)
            return c;
    return NULL;
}

/* What needs the memory, for a message: arrays have no name of their own. */
static void memory_owner(const coh_record *src, const char *label, char *who, size_t size)
{
    if (src->home)
        snprintf(who, size, "An array");
    else if (label)
        snprintf(who, size, "View '%s'", label);
    else
        snprintf(who, size, "A view");
}

/* The device could not allocate src's memory: at clCreateBuffer, or at
 * the first transfer for drivers that allocate lazily (NVIDIA's), which
 * report CL_MEM_OBJECT_ALLOCATION_FAILURE from an enqueue. The message
 * names what needed the memory (the view by its capture name, else an
 * array or a view), and how much, in the same words wherever it failed. */
static amp_status device_memory_failed(const coh_record *src, const char *label,
                                       const amp_accelerator *acc, cl_int rc, const char *call)
{
    char who[96];
    memory_owner(src, label, who, sizeof who);
    return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                        "%s needs %zu bytes on %s, which has %llu bytes of memory (%s from %s). Use"
                        " smaller views or another accelerator.",
                        who, src->bytes, acc->name, (unsigned long long)acc->global_mem,
                        amp__err_cl_name(rc), call);
}

static amp_status new_copy(coh_record *src, amp_accelerator_view *av, const char *label,
                           coh_copy **out)
{
    amp_accelerator *acc = av->acc;
    coh_copy *c = calloc(1, sizeof *c);
    if (!c || !stale_everywhere_defined(src, &c->stale)) {
        if (c)
            amp__rg_free(&c->stale);
        free(c);
        return no_memory();
    }
    /* OpenCL allows no single buffer over CL_DEVICE_MAX_MEM_ALLOC_SIZE.
     * Some drivers (NVIDIA's) accept one anyway; refuse it everywhere, so
     * that a program that runs on one device does not fail on the next. */
    if ((uint64_t)src->bytes + COH_SPARE_BYTES > acc->max_alloc) {
        amp__rg_free(&c->stale);
        free(c);
        char who[96];
        memory_owner(src, label, who, sizeof who);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                            "%s needs %zu bytes on %s, which allocates at most %llu bytes at"
                            " once (CL_DEVICE_MAX_MEM_ALLOC_SIZE). Use smaller views or arrays, or"
                            " split the data into parts of at most that size.",
                            who, src->bytes, acc->name, (unsigned long long)acc->max_alloc);
    }
    cl_int rc = CL_SUCCESS;
    c->mem = amp__clapi.CreateBuffer(acc->context, CL_MEM_READ_WRITE, src->bytes + COH_SPARE_BYTES,
                                     NULL, &rc);
    if (!c->mem) {
        amp__rg_free(&c->stale);
        free(c);
        if (amp__err_status_of_cl(rc) == AMP_ERROR_OUT_OF_MEMORY ||
            (uint64_t)src->bytes > acc->global_mem)
            return device_memory_failed(src, label, acc, rc, "clCreateBuffer");
        return amp__err_cl(rc, "clCreateBuffer", "Allocating device memory for a view");
    }
    c->acc = acc;
    c->track = amp__tl_active ? timeline_track(av) : 0;
    amp__coh_order_begin(&c->order, av);
    c->next = src->copies;
    src->copies = c;
    *out = c;
    return AMP_OK;
}

amp_status amp__coh_source_create(size_t bytes, amp_accelerator_view *home, const char *label,
                                  coh_source **out)
{
    coh_record *src = calloc(1, sizeof *src);
    if (!src)
        return no_memory();
    changed(src);
    src->bytes = bytes;
    src->refs = 1;
    if (!amp__rg_add(&src->undefined, 0, (int64_t)bytes)) {
        free(src);
        return no_memory();
    }
    if (home) {
        src->home = home->acc;
        coh_copy *c;
        amp_status st = new_copy(src, home, label, &c);
        if (st != AMP_OK) {
            amp__rg_free(&src->undefined);
            free(src);
            return st;
        }
    }
    link_source(src);
    *out = handle_of(src);
    return AMP_OK;
}

amp_status amp__coh_source_wrap(void *host, size_t bytes, coh_source **out)
{
    coh_record *src = calloc(1, sizeof *src);
    if (!src)
        return no_memory();
    changed(src);
    src->host = host;
    src->bytes = bytes;
    src->refs = 1;
    link_source(src);
    *out = handle_of(src);
    return AMP_OK;
}

int amp__coh_source_last_ref(const coh_source *src)
{
    return reading(src)->refs == 1;
}

void amp__coh_source_retain(coh_source *src)
{
    changing(src)->refs++;
}

int amp__coh_host_in_use(const void *lo, size_t bytes)
{
    /* Addresses as numbers: the records' memory is any object. */
    uintptr_t a = (uintptr_t)lo;
    int copy = 0;
    for (const coh_record *src = all_sources; src; src = src->next) {
        if (src->owns_host || !src->host)
            continue;
        uintptr_t b = (uintptr_t)(src->hashed ? src->key : src->host);
        if (b < a + bytes && a < b + src->bytes) {
            if (src->hashed)
                return COH_HOST_VIEW;
            copy = COH_HOST_COPY;
        }
    }
    return copy;
}

void *amp__coh_source_user_host(const coh_source *src)
{
    return reading(src)->hashed ? reading(src)->host : NULL;
}

size_t amp__coh_source_bytes(const coh_source *src)
{
    return reading(src)->bytes;
}

amp_accelerator *amp__coh_source_home(const coh_source *src)
{
    return reading(src)->home;
}

/* ---- Copies of boxes ---- */

/* One transfer between a source's host memory and one of its device
 * copies, over the same box on both sides. */
typedef struct xfer {
    coh_record *src;
    coh_copy *copy;
    amp_transfer_direction dir;
    amp_transfer_reason reason;
    const char *label;
    amp_accelerator_view *queue_view;
    char *host; /* host memory the device box maps onto */
    amp_status status;
    int track; /* the timeline's number of the view whose data moves */
} xfer;

/* A failed transfer. Drivers that allocate device memory lazily (NVIDIA's)
 * report a buffer too large for the device here, not at clCreateBuffer:
 * say so in the same words as an allocation that fails at once. */
static amp_status transfer_failed(const xfer *x, cl_int rc, const char *call)
{
    const amp_accelerator *acc = x->copy->acc;
    if (amp__err_status_of_cl(rc) == AMP_ERROR_OUT_OF_MEMORY)
        return device_memory_failed(x->src, x->label, acc, rc, call);
    return amp__err_cl(rc, call,
                       x->dir == AMP_TO_DEVICE ? "Copying a view to the device"
                                               : "Copying a view back to the host");
}

/* Move a box between the host memory and the device copy (staging.c picks
 * how), and count it in the ledger. */
static amp_status move_box(xfer *x, const rg_box *b)
{
    stg_move m = {x->queue_view, x->copy->mem, b, x->host, b, x->dir == AMP_TO_DEVICE};
    const char *call = "";
    x->copy->order.idle = 0;
    int64_t began = amp__tl_active ? amp__tl_now() : 0;
    cl_int rc = amp__stg_move(&m, &call);
    if (rc != CL_SUCCESS)
        return transfer_failed(x, rc, call);
    record(x->src, x->dir, x->reason, amp__rg_box_bytes(b), x->queue_view, x->track, x->label,
           began, 1);
    return AMP_OK;
}

/* Move one contiguous range [lo, hi) of the source between host and device. */
static int move_range(int64_t lo, int64_t hi, void *user)
{
    xfer *x = user;
    rg_box b = amp__rg_box_linear(lo, hi - lo);
    x->status = move_box(x, &b);
    return x->status != AMP_OK;
}

/* Move the bytes of box b that are in `need`: the whole box as one
 * rectangle when all of it is needed, else range by range. */
static amp_status move_needed(xfer *x, const rg_set *need, const rg_box *b)
{
    int64_t n = amp__rg_box_overlap(need, b);
    if (n == 0)
        return AMP_OK;
    if (n == amp__rg_box_bytes(b))
        return move_box(x, b);
    x->status = AMP_OK;
    amp__rg_each_in_box(need, b, move_range, x);
    return x->status;
}

static amp_status ensure_host_memory(coh_record *src)
{
    if (src->host)
        return AMP_OK;
    src->host = malloc(src->bytes ? src->bytes : 1);
    if (!src->host)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                            "Out of host memory: %zu bytes for the host copy of a view.",
                            src->bytes);
    src->owns_host = 1;
    if (!stale_everywhere_defined(src, &src->host_stale)) {
        free(src->host);
        src->host = NULL;
        src->owns_host = 0;
        return no_memory();
    }
    return AMP_OK;
}

/* Copy the set `from` minus `less` into `to`. */
static int set_minus(rg_set *to, const rg_set *from, const rg_set *less)
{
    amp__rg_clear(to);
    for (size_t i = 0; i < from->count; i++)
        if (!amp__rg_add(to, from->lo[i], from->hi[i]))
            return 0;
    for (size_t i = 0; i < less->count; i++)
        if (!amp__rg_remove(to, less->lo[i], less->hi[i]))
            return 0;
    return 1;
}

/* Make the box current in host memory; of it, only the bytes in want when
 * want is not NULL (what one device lacks, on its way there through the
 * host: the rest stays where it is current). */
static amp_status host_ready_of(coh_record *src, const rg_box *box, const rg_set *want,
                                amp_transfer_reason reason, void **host)
{
    amp_status st = ensure_host_memory(src);
    if (st != AMP_OK)
        return st;
    /* need = host_stale, or host_stale and want: want less what of it is
     * current on the host. */
    rg_set supply = RG_SET_INIT, need = RG_SET_INIT, current = RG_SET_INIT;
    const rg_set *stale = &src->host_stale;
    if (want && (!set_minus(&current, want, &src->host_stale) || !set_minus(&need, want, &current)))
        st = no_memory();
    if (want)
        stale = &need;
    /* Each device supplies the stale bytes it holds current; with one
     * device that is all of them. */
    for (coh_copy *c = src->copies; st == AMP_OK && c && amp__rg_box_overlap(stale, box) > 0;
         c = c->next) {
        if (!set_minus(&supply, stale, &c->stale)) {
            st = no_memory();
            break;
        }
        xfer x = {src,       c,      AMP_TO_HOST, reason, NULL, c->order.last_view,
                  src->host, AMP_OK, c->track};
        st = move_needed(&x, &supply, box);
        if (st == AMP_OK && !amp__rg_remove_in_box(&src->host_stale, &supply, box))
            st = no_memory();
        if (st == AMP_OK && want && !amp__rg_remove_in_box(&need, &supply, box))
            st = no_memory();
    }
    amp__rg_free(&supply);
    amp__rg_free(&need);
    amp__rg_free(&current);
    if (st == AMP_OK)
        *host = src->host;
    return st;
}

static amp_status host_ready(coh_record *src, const rg_box *box, amp_transfer_reason reason,
                             void **host)
{
    return host_ready_of(src, box, NULL, reason, host);
}

amp_status amp__coh_host_ready(coh_source *src, const rg_box *box, amp_transfer_reason reason,
                               void **host)
{
    amp_status st = host_ready(changing(src), box, reason, host);
    show_where(reading(src));
    return st;
}

/* Nonzero when some of [lo, hi) is stale on the host too. */
static int stale_on_host(int64_t lo, int64_t hi, void *user)
{
    const coh_record *src = user;
    rg_box r = amp__rg_box_linear(lo, hi - lo);
    return amp__rg_box_overlap(&src->host_stale, &r) > 0;
}

/* At most how many ranges adding or removing the box's rows adds to a set:
 * one per run of contiguous rows (as ranges.c walks them). */
static size_t box_runs(const rg_box *b)
{
    if (b->rows[1] == 1 || b->pitch[1] == b->width) {
        int64_t n = b->rows[1] * b->width;
        return b->rows[0] == 1 || b->pitch[0] == n ? 1 : (size_t)b->rows[0];
    }
    return (size_t)(b->rows[0] * b->rows[1]);
}

/* Room in every set that written_at changes for the box. */
static int reserve_for_write(coh_record *src, const rg_box *box)
{
    size_t n = box_runs(box);
    for (coh_copy *c = src->copies; c; c = c->next)
        if (!amp__rg_reserve(&c->stale, c->stale.count + n))
            return 0;
    if (src->host && !amp__rg_reserve(&src->host_stale, src->host_stale.count + n))
        return 0;
    return amp__rg_reserve(&src->undefined, src->undefined.count + n);
}

/* ---- The order of the uses of device memory across views ---- */

/* An order about to change: counted as a record's change is. */
static coh_order *ordering(coh_order *o)
{
    count_change();
    return o;
}

static void order_begin(coh_order *o, amp_accelerator_view *av)
{
    amp__queue_use(av);
    o->last_view = av;
    o->idle = 1;
}

void amp__coh_order_begin(coh_order *o, amp_accelerator_view *av)
{
    order_begin(ordering(o), av);
}

void amp__coh_order_end(coh_order *o)
{
    o = ordering(o);
    amp__queue_unuse(o->last_view);
    o->last_view = NULL;
}

/* Two views of one accelerator are two queues of one context, ordered on
 * the device: a marker on the last view's queue, and a barrier on av's
 * that waits for it, so that the host does not wait. Each use so waits for
 * the one before it, which waited for its own: every use before. */
static amp_status order_after_last_use(coh_order *o, amp_accelerator_view *av)
{
    amp_accelerator_view *last = o->last_view;
    int idle = o->idle;
    /* The caller queues work that uses the memory. */
    o->idle = 0;
    if (last == av)
        return AMP_OK;
    if (idle) { /* nothing queued has used it yet: nothing to wait for */
        amp__queue_use(av);
        o->last_view = av;
        amp__queue_unuse(last);
        return AMP_OK;
    }
    cl_event ev = NULL;
    cl_int rc = amp__clapi.EnqueueMarkerWithWaitList(last->queue, 0, NULL, &ev);
    const char *call = "clEnqueueMarkerWithWaitList";
    /* The marker must reach the device for av's barrier to end. */
    if (rc == CL_SUCCESS && (rc = amp__clapi.Flush(last->queue)) != CL_SUCCESS)
        call = "clFlush";
    if (rc == CL_SUCCESS &&
        (rc = amp__clapi.EnqueueBarrierWithWaitList(av->queue, 1, &ev, NULL)) != CL_SUCCESS)
        call = "clEnqueueBarrierWithWaitList";
    if (ev)
        amp__clapi.ReleaseEvent(ev);
    if (rc != CL_SUCCESS) {
        o->idle = idle;
        return amp__err_cl(rc, call, "Ordering the work of two views of one accelerator");
    }
    amp__queue_use(av);
    o->last_view = av;
    amp__queue_unuse(last);
    return AMP_OK;
}

amp_status amp__coh_order_use(coh_order *o, amp_accelerator_view *av)
{
    return order_after_last_use(ordering(o), av);
}

/* Whether the box is current on av's device, and the copy's last use was
 * queued on av (and shown on its track): making it ready there would change
 * nothing. */
static int ready_already(const coh_record *src, amp_accelerator_view *av, const rg_box *box)
{
    const coh_copy *c = copy_on(src, av->acc);
    return c && c->order.last_view == av && !c->order.idle &&
           (!amp__tl_active || c->track == timeline_track(av)) &&
           amp__rg_box_overlap(&c->stale, box) == 0;
}

amp_status amp__coh_device_ready(coh_source *source, amp_accelerator_view *av, const rg_box *box,
                                 const char *label, cl_mem *mem)
{
    coh_record *src = ready_already(reading(source), av, box) ? visiting(source) : changing(source);
    coh_copy *c = copy_on(src, av->acc);
    amp_status st = AMP_OK;
    if (!c && (st = new_copy(src, av, label, &c)) != AMP_OK)
        return st;
    if (amp__tl_active)
        c->track = timeline_track(av);
    /* A large upload goes on the device's transfer queue, where it may run
     * beside kernels on av's (staging.h); av's work then waits for it on
     * the device. */
    int64_t stale = amp__rg_box_overlap(&c->stale, box);
    amp_accelerator_view *q = stale > 0 ? amp__stg_upload_view(av, stale) : av;
    if ((st = order_after_last_use(&c->order, q)) != AMP_OK)
        return st;
    if (stale > 0) {
        /* Bytes this device lacks and the host lacks too are on another
         * device: bring them through the host first, those alone (after a
         * launch split across accelerators, each holds its own rows: only
         * the rows that change hands move). */
        int through_host = !src->host ||
                           (amp__rg_box_overlap(&src->host_stale, box) > 0 &&
                            amp__rg_each_in_box(&c->stale, box, stale_on_host, src) != 0);
        if (through_host) {
            void *host;
            st = host_ready_of(src, box, &c->stale, AMP_REASON_KERNEL, &host);
            if (st != AMP_OK)
                return st;
        }
        xfer x = {src, c, AMP_TO_DEVICE, AMP_REASON_KERNEL, label, q, src->host, AMP_OK, c->track};
        st = move_needed(&x, &c->stale, box);
        if (st != AMP_OK)
            return st;
        if (!amp__rg_remove_box(&c->stale, box))
            return no_memory();
    }
    if (q != av && (st = order_after_last_use(&c->order, av)) != AMP_OK)
        return st;
    /* A kernel may write the box: make room now for marking that, so that
     * amp__coh_device_written, after the kernel is queued, cannot fail. */
    if (!reserve_for_write(src, box))
        return no_memory();
    *mem = c->mem;
    show_where(src);
    return AMP_OK;
}

/* Every copy but `current` (NULL: the host's) is stale in the box. */
static amp_status written_at(coh_record *src, coh_copy *current, const rg_box *box)
{
    int ok = 1;
    for (coh_copy *c = src->copies; c; c = c->next)
        ok &= c == current ? amp__rg_remove_box(&c->stale, box) : amp__rg_add_box(&c->stale, box);
    if (src->host)
        ok &= current ? amp__rg_add_box(&src->host_stale, box)
                      : amp__rg_remove_box(&src->host_stale, box);
    ok &= amp__rg_remove_box(&src->undefined, box);
    return ok ? AMP_OK : no_memory();
}

/* Whether the box is already written on av's device as written_at would
 * leave it: current in its copy, stale in every other copy and on the
 * host, defined. (No copy there: nothing is marked.) */
static int written_already(const coh_record *src, const amp_accelerator *acc, const rg_box *box)
{
    const coh_copy *current = copy_on(src, acc);
    if (!current)
        return 1;
    int64_t bytes = amp__rg_box_bytes(box);
    for (const coh_copy *c = src->copies; c; c = c->next)
        if (amp__rg_box_overlap(&c->stale, box) != (c == current ? 0 : bytes))
            return 0;
    return (!src->host || amp__rg_box_overlap(&src->host_stale, box) == bytes) &&
           amp__rg_box_overlap(&src->undefined, box) == 0;
}

amp_status amp__coh_device_written(coh_source *source, amp_accelerator_view *av, const rg_box *box)
{
    coh_record *src = written_already(reading(source), av->acc, box) ? visiting(source)
                                                                     : changing(source);
    coh_copy *c = copy_on(src, av->acc);
    /* amp__coh_device_ready made av the copy's last view, and made room in
     * the sets for this. */
    amp_status st = c ? written_at(src, c, box) : AMP_OK;
    show_where(src);
    return st;
}

amp_status amp__coh_host_written(coh_source *source, const rg_box *box)
{
    coh_record *src = changing(source);
    amp_status st = ensure_host_memory(src);
    if (st == AMP_OK)
        st = written_at(src, NULL, box);
    show_where(src);
    return st;
}

amp_status amp__coh_discard(coh_source *source, const rg_box *box)
{
    coh_record *src = changing(source);
    int ok = 1;
    for (coh_copy *c = src->copies; c; c = c->next)
        ok &= amp__rg_remove_box(&c->stale, box);
    if (src->host)
        ok &= amp__rg_remove_box(&src->host_stale, box);
    ok &= amp__rg_add_box(&src->undefined, box);
    show_where(src);
    return ok ? AMP_OK : no_memory();
}

/* ---- Copies between sources ---- */

/* Where a box of src is current as a whole: a device copy (*from set), the
 * host (*from NULL, returns 1), or neither (returns 0). */
static int current_at(coh_record *src, const rg_box *box, coh_copy **from)
{
    *from = NULL;
    if (src->host && amp__rg_box_overlap(&src->host_stale, box) == 0)
        return 1;
    for (coh_copy *c = src->copies; c; c = c->next)
        if (amp__rg_box_overlap(&c->stale, box) == 0) {
            *from = c;
            return 1;
        }
    return 0;
}

/* The first and last byte + 1 a box covers, as numbers: the two boxes of a
 * copy may lie in any two objects. */
/* The bytes [*lo, *hi) a box spans, from the start of its buffer. */
static void box_span(const rg_box *b, int64_t *lo, int64_t *hi)
{
    *lo = b->offset;
    *hi = *lo + (b->rows[0] - 1) * b->pitch[0] + (b->rows[1] - 1) * b->pitch[1] + b->width;
}

/* Whether two boxes of buffers at a and b share a byte's span. */
static int spans_meet(const char *a, const rg_box *abox, const char *b, const rg_box *bbox)
{
    int64_t alo, ahi, blo, bhi;
    box_span(abox, &alo, &ahi);
    box_span(bbox, &blo, &bhi);
    uintptr_t a0 = (uintptr_t)a + (uintptr_t)alo, a1 = (uintptr_t)a + (uintptr_t)ahi;
    uintptr_t b0 = (uintptr_t)b + (uintptr_t)blo, b1 = (uintptr_t)b + (uintptr_t)bhi;
    return a0 < b1 && b0 < a1;
}

/* src's box to dst's box, row by row, on several threads when large. */
static void copy_rows(char *dst, const rg_box *dbox, const char *src, const rg_box *sbox)
{
    mcp_rows job = {dst + dbox->offset,
                    src + sbox->offset,
                    {sbox->rows[0], sbox->rows[1]},
                    {dbox->pitch[0], dbox->pitch[1]},
                    {sbox->pitch[0], sbox->pitch[1]},
                    sbox->width};
    amp__mcp_copy(&job);
}

/* Host memory to host memory. Boxes whose spans meet (two views over
 * overlapping pointers) go through a buffer of their own: copied row by
 * row in place, a row written early is read later as source (a box moved
 * down by a row repeated its first row). Returns 0, or -1 when that
 * buffer cannot be had. */
static int host_copy_box(char *dst, const rg_box *dbox, const char *src, const rg_box *sbox)
{
    if (!spans_meet(dst, dbox, src, sbox)) {
        copy_rows(dst, dbox, src, sbox);
        return 0;
    }
    int64_t bytes = amp__rg_box_bytes(sbox);
    char *through = malloc((size_t)bytes);
    if (!through)
        return -1;
    /* The box's shape, its rows packed one after another. */
    rg_box packed = {
        0, {sbox->rows[0], sbox->rows[1]}, {sbox->rows[1] * sbox->width, sbox->width}, sbox->width};
    copy_rows(through, &packed, src, sbox);
    copy_rows(dst, dbox, through, &packed);
    free(through);
    return 0;
}

/* Copy sbox of from to dbox of to, on q, both on q's device. Between two
 * buffers, one rectangular copy. Inside one buffer (two sections of an
 * array), OpenCL refuses a copy whose regions it takes to overlap, and its
 * rule reads a rectangle's rows within its row pitch, which a one-row box
 * at an offset past that pitch is not: disjoint sections were refused
 * with CL_MEM_COPY_OVERLAP. There two runs of bytes apart take one plain
 * copy, and any other pair goes through a buffer of its own, which also
 * gives sections that do overlap the source as it was. */
static cl_int copy_on_device(amp_accelerator_view *q, cl_mem from, const rg_box *sbox, cl_mem to,
                             const rg_box *dbox, const char **call)
{
    stg_rect sr = amp__stg_rect_of(sbox), dr = amp__stg_rect_of(dbox);
    if (from != to) {
        *call = "clEnqueueCopyBufferRect";
        return amp__clapi.EnqueueCopyBufferRect(q->queue, from, to, sr.origin, dr.origin, sr.region,
                                                sr.row_pitch, sr.slice_pitch, dr.row_pitch,
                                                dr.slice_pitch, 0, NULL, NULL);
    }
    int64_t bytes = amp__rg_box_bytes(sbox);
    if (amp__rg_box_contiguous(sbox) && amp__rg_box_contiguous(dbox) &&
        !spans_meet(NULL, sbox, NULL, dbox)) {
        /* Both runs as one row, in rows as long as the buffer up to the
         * later one's end (one buffer: one pitch for both). */
        size_t so[3] = {(size_t)sbox->offset, 0, 0}, dst_origin[3] = {(size_t)dbox->offset, 0, 0};
        size_t region[3] = {(size_t)bytes, 1, 1};
        size_t pitch = (size_t)(sbox->offset > dbox->offset ? sbox->offset : dbox->offset) +
                       (size_t)bytes;
        *call = "clEnqueueCopyBufferRect";
        return amp__clapi.EnqueueCopyBufferRect(q->queue, from, to, so, dst_origin, region, pitch,
                                                pitch, pitch, pitch, 0, NULL, NULL);
    }
    cl_int rc = CL_SUCCESS;
    *call = "clCreateBuffer";
    cl_mem through = amp__clapi.CreateBuffer(q->acc->context, CL_MEM_READ_WRITE, (size_t)bytes,
                                             NULL, &rc);
    if (!through)
        return rc != CL_SUCCESS ? rc : CL_MEM_OBJECT_ALLOCATION_FAILURE;
    /* The box's shape, its rows packed one after another. */
    size_t zero[3] = {0, 0, 0};
    size_t row = sr.region[0], slice = sr.region[0] * sr.region[1];
    *call = "clEnqueueCopyBufferRect";
    rc = amp__clapi.EnqueueCopyBufferRect(q->queue, from, through, sr.origin, zero, sr.region,
                                          sr.row_pitch, sr.slice_pitch, row, slice, 0, NULL, NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.EnqueueCopyBufferRect(q->queue, through, to, zero, dr.origin, sr.region,
                                              row, slice, dr.row_pitch, dr.slice_pitch, 0, NULL,
                                              NULL);
    /* Released now, freed by OpenCL once the copies that use it are done. */
    amp__clapi.ReleaseMemObject(through);
    return rc;
}

amp_status amp__coh_copy_box(coh_source *source, const rg_box *sbox, coh_source *destination,
                             const rg_box *dbox)
{
    coh_record *src = changing(source), *dst = changing(destination);
    coh_copy *from;
    amp_status st = AMP_OK;
    if (!current_at(src, sbox, &from)) {
        void *h;
        if ((st = host_ready(src, sbox, AMP_REASON_COPY, &h)) != AMP_OK)
            return st;
        from = NULL;
    }
    /* Where dst's data lives: an array's device, else its host memory. */
    coh_copy *to = dst->home ? copy_on(dst, dst->home) : NULL;
    if (to && from && from->acc != to->acc) {
        /* Two devices: through src's host memory. */
        void *h;
        if ((st = host_ready(src, sbox, AMP_REASON_COPY, &h)) != AMP_OK)
            return st;
        from = NULL;
    }
    if (!to && (st = ensure_host_memory(dst)) != AMP_OK)
        return st;
    cl_int rc = CL_SUCCESS;
    const char *call = NULL;
    int64_t began = amp__tl_active ? amp__tl_now() : 0;
    if (from && to) {
        amp_accelerator_view *q = to->order.last_view;
        if ((st = order_after_last_use(&from->order, q)) != AMP_OK)
            return st;
        to->order.idle = 0;
        rc = copy_on_device(q, from->mem, sbox, to->mem, dbox, &call);
        if (rc == CL_SUCCESS && (rc = amp__clapi.Finish(q->queue)) != CL_SUCCESS)
            call = "clFinish";
        if (rc == CL_SUCCESS)
            record(dst, AMP_ON_DEVICE, AMP_REASON_COPY, amp__rg_box_bytes(dbox), q, to->track, NULL,
                   began, 0);
    } else if (from) {
        stg_move m = {from->order.last_view, from->mem, sbox, dst->host, dbox, 0};
        from->order.idle = 0;
        rc = amp__stg_move(&m, &call);
        if (rc == CL_SUCCESS)
            record(src, AMP_TO_HOST, AMP_REASON_COPY, amp__rg_box_bytes(sbox), m.av, from->track,
                   NULL, began, 1);
    } else if (to) {
        /* As a kernel's upload: large ones on the transfer queue. */
        amp_accelerator_view *q = amp__stg_upload_view(to->order.last_view,
                                                       amp__rg_box_bytes(dbox));
        if ((st = order_after_last_use(&to->order, q)) != AMP_OK)
            return st;
        stg_move m = {q, to->mem, dbox, src->host, sbox, 1};
        rc = amp__stg_move(&m, &call);
        if (rc == CL_SUCCESS)
            record(dst, AMP_TO_DEVICE, AMP_REASON_COPY, amp__rg_box_bytes(dbox), q, to->track, NULL,
                   began, 1);
    } else {
        if (host_copy_box(dst->host, dbox, src->host, sbox) != 0)
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                                "Out of host memory for a copy between overlapping host memory.");
    }
    /* The buffer that may have failed to allocate: the destination's when
     * the copy writes one, else the source's. */
    if (rc != CL_SUCCESS && amp__err_status_of_cl(rc) == AMP_ERROR_OUT_OF_MEMORY)
        return to ? device_memory_failed(dst, NULL, to->acc, rc, call)
                  : device_memory_failed(src, NULL, from->acc, rc, call);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, call, "Copying data");
    /* Only now has the data replaced whatever dst had there: after a failed
     * copy, dst's newer data elsewhere must still count as newer. */
    if (to && !amp__rg_remove_box(&to->stale, dbox))
        return no_memory();
    if (!to && !amp__rg_remove_box(&dst->host_stale, dbox))
        return no_memory();
    st = written_at(dst, to, dbox);
    show_where(src);
    show_where(dst);
    return st;
}

/* ---- Release and the ledger ---- */

static void free_copies(coh_record *src)
{
    coh_copy *c = src->copies;
    while (c) {
        coh_copy *next = c->next;
        amp__clapi.ReleaseMemObject(c->mem);
        amp__coh_order_end(&c->order);
        amp__rg_free(&c->stale);
        free(c);
        c = next;
    }
    src->copies = NULL;
}

static amp_status write_back(coh_record *src, amp_transfer_reason reason)
{
    if (!src->hashed)
        return AMP_OK; /* no caller's memory to write to */
    rg_box all = amp__rg_box_linear(0, (int64_t)src->bytes);
    void *host;
    return host_ready(src, &all, reason, &host);
}

amp_status amp__coh_source_release(coh_source *source)
{
    coh_record *src = changing(source);
    if (--src->refs > 0)
        return AMP_OK;
    amp_status st = write_back(src, AMP_REASON_RELEASE);
    amp__tl_data_end(src);
    if (src->hashed)
        HASH_DEL(sources, src);
    unlink_source(src);
    free_copies(src);
    if (src->owns_host)
        free(src->host);
    amp__rg_free(&src->host_stale);
    amp__rg_free(&src->undefined);
    free(src);
    return st;
}

uint64_t amp__coh_version(const coh_source *src)
{
    return reading(src)->version;
}

void amp__coh_source_stats(const coh_source *src, amp_transfer_stats *out)
{
    *out = reading(src)->stats;
}

amp_status amp__coh_drop_all_device_copies(void)
{
    amp_status st = AMP_OK;
    for (coh_record *r = all_sources; r; r = r->next) {
        coh_record *src = changing(handle_of(r));
        /* An extent-only view's data stays with it, as every view's does
         * (amp_shutdown): in a host copy of its own, made now. An array's
         * (home set) is the device's, and goes with it. */
        amp_status w = AMP_OK;
        if (!src->hashed && !src->home && (!src->host || src->owns_host)) {
            rg_box all = amp__rg_box_linear(0, (int64_t)src->bytes);
            void *host;
            w = host_ready(src, &all, AMP_REASON_SYNCHRONIZE, &host);
        } else {
            /* The last chance: a failure leaves the host memory as it was,
             * and is the status; the device copies go regardless. */
            w = write_back(src, AMP_REASON_SYNCHRONIZE);
        }
        if (st == AMP_OK)
            st = w;
        if (!src->hashed && !src->host) {
            /* Data only a device held is gone with it. */
            amp__rg_clear(&src->undefined);
            (void)amp__rg_add(&src->undefined, 0, (int64_t)src->bytes);
        } else if (!src->hashed) {
            /* The record's own host copy keeps what it has; what it lacked
             * is gone with the device. */
            for (size_t i = 0; i < src->host_stale.count; i++)
                (void)amp__rg_add(&src->undefined, src->host_stale.lo[i], src->host_stale.hi[i]);
        }
        free_copies(src);
        amp__rg_clear(&src->host_stale);
        src->home = NULL;
        show_where(src);
    }
    /* No copy names a transfer queue now: they, the staging buffers and the
     * copy threads go. */
    amp__stg_shutdown();
    return st;
}
