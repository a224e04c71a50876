/*
 * runtime/coherence.c - lazy copies between host memory and devices, and the
 * transfer ledger.
 */
#include "coherence.h"

#include <stdio.h>
#include <stdlib.h>
#include <uthash.h>

#include "error.h"
#include "runtime.h"

struct coh_copy {
    coh_copy *next;
    amp_accelerator *acc;
    amp_accelerator_view *last_view; /* the queue that last used it: later copies wait on it */
    cl_mem mem;
    int valid;
};

struct coh_source {
    void *host; /* the key: the caller's memory */
    size_t bytes;
    size_t elem_size;
    int views;      /* live views of this memory */
    int host_valid; /* the host memory holds the newest data */
    int discarded;  /* the data is not needed: skip the next copy */
    coh_copy *copies;
    amp_transfer_stats stats;
    UT_hash_handle hh;
};

static coh_source *sources; /* every live record, by host address */
static amp_transfer_stats global_stats;

static const char *reason_names[AMP_REASON_COUNT] = {"kernel", "host access", "synchronize",
                                                     "release", "copy"};

const char *amp_transfer_reason_name(amp_transfer_reason reason)
{
    return (unsigned)reason < AMP_REASON_COUNT ? reason_names[reason] : "unknown";
}

static void stats_add(amp_transfer_stats *s, amp_transfer_direction dir,
                      amp_transfer_reason reason, size_t bytes)
{
    s->count[dir][reason]++;
    s->bytes[dir][reason] += bytes;
    if (dir == AMP_TO_DEVICE) {
        s->uploads++;
        s->upload_bytes += bytes;
    } else {
        s->downloads++;
        s->download_bytes += bytes;
    }
}

static void record(coh_source *src, amp_transfer_direction dir, amp_transfer_reason reason,
                   const amp_accelerator *acc, const char *label)
{
    stats_add(&src->stats, dir, reason, src->bytes);
    stats_add(&global_stats, dir, reason, src->bytes);
    if (rt_trace_transfers())
        fprintf(stderr, "[amp] %-8s %10zu bytes %s %s  (%s%s%s, host memory %p)\n",
                dir == AMP_TO_DEVICE ? "upload" : "download", src->bytes,
                dir == AMP_TO_DEVICE ? "to" : "from", acc->name,
                amp_transfer_reason_name(reason), label ? ", view " : "", label ? label : "",
                src->host);
}

amp_status coh_source_acquire(void *host, size_t bytes, size_t elem_size, coh_source **out)
{
    coh_source *src = NULL;
    HASH_FIND_PTR(sources, &host, src);
    if (src) {
        if (src->elem_size != elem_size || src->bytes < bytes)
            return err_set(AMP_ERROR_INVALID_ARGUMENT,
                           "Host memory %p is already wrapped by a live view of %zu bytes with"
                           " %zu-byte elements; a new view of it must have the same element size"
                           " and fit inside (%zu bytes of %zu-byte elements asked). Release the"
                           " other view first, or view the larger memory first.",
                           host, src->bytes, src->elem_size, bytes, elem_size);
        src->views++;
        *out = src;
        return AMP_OK;
    }
    src = calloc(1, sizeof *src);
    if (!src)
        return err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a view.");
    src->host = host;
    src->bytes = bytes;
    src->elem_size = elem_size;
    src->views = 1;
    src->host_valid = 1;
    HASH_ADD_PTR(sources, host, src);
    *out = src;
    return AMP_OK;
}

void *coh_source_host(const coh_source *src)
{
    return src->host;
}

size_t coh_source_elements(const coh_source *src)
{
    return src->bytes / src->elem_size;
}

static coh_copy *copy_on(coh_source *src, const amp_accelerator *acc)
{
    for (coh_copy *c = src->copies; c; c = c->next)
        if (c->acc == acc)
            return c;
    return NULL;
}

/* Bring the host copy up to date from the newest device copy. */
static amp_status download(coh_source *src, amp_transfer_reason reason)
{
    coh_copy *from = NULL;
    for (coh_copy *c = src->copies; c && !from; c = c->next)
        if (c->valid)
            from = c;
    if (!from) {
        /* No copy holds the data: it was discarded, or a failed kernel left
         * nothing valid. The host memory keeps what it had. */
        src->host_valid = 1;
        return AMP_OK;
    }
    /* A blocking read on the queue that last used the buffer waits for the
     * kernels that write it. */
    cl_int rc = clapi.EnqueueReadBuffer(from->last_view->queue, from->mem, CL_TRUE, 0, src->bytes,
                                        src->host, 0, NULL, NULL);
    if (rc != CL_SUCCESS)
        return err_cl(rc, "clEnqueueReadBuffer", "Copying a view back to the host");
    src->host_valid = 1;
    record(src, AMP_TO_HOST, reason, from->acc, NULL);
    return AMP_OK;
}

amp_status coh_device_ready(coh_source *src, amp_accelerator_view *av, const char *label,
                            cl_mem *mem)
{
    amp_accelerator *acc = av->acc;
    coh_copy *c = copy_on(src, acc);
    if (!c) {
        c = calloc(1, sizeof *c);
        if (!c)
            return err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory for a device copy.");
        cl_int rc = CL_SUCCESS;
        /* One spare element past the end: threads past the extent of a
         * padded domain are sent there (codegen.c, AMP_AT). It is never
         * copied. */
        c->mem = clapi.CreateBuffer(acc->context, CL_MEM_READ_WRITE, src->bytes + src->elem_size,
                                    NULL, &rc);
        if (!c->mem) {
            free(c);
            if (err_status_of_cl(rc) == AMP_ERROR_OUT_OF_MEMORY ||
                (uint64_t)src->bytes > acc->global_mem)
                return err_set(AMP_ERROR_OUT_OF_MEMORY,
                               "View '%s' needs %zu bytes on %s, which has %llu bytes of memory"
                               " (%s). Use smaller views or another accelerator.",
                               label, src->bytes, acc->name, (unsigned long long)acc->global_mem,
                               err_cl_name(rc));
            return err_cl(rc, "clCreateBuffer", "Allocating device memory for a view");
        }
        c->acc = acc;
        c->last_view = av;
        c->next = src->copies;
        src->copies = c;
    }
    if (!c->valid) {
        if (src->discarded) {
            src->discarded = 0;
        } else {
            if (!src->host_valid) {
                /* The newest data is on another device: bring it through the host. */
                amp_status st = download(src, AMP_REASON_KERNEL);
                if (st != AMP_OK)
                    return st;
            }
            /* Blocking, so that the caller may change its memory as soon as
             * this returns, as with any C API. */
            cl_int rc = clapi.EnqueueWriteBuffer(av->queue, c->mem, CL_TRUE, 0, src->bytes,
                                                 src->host, 0, NULL, NULL);
            if (rc != CL_SUCCESS)
                return err_cl(rc, "clEnqueueWriteBuffer", "Copying a view to the device");
            record(src, AMP_TO_DEVICE, AMP_REASON_KERNEL, acc, label);
        }
        c->valid = 1;
    }
    c->last_view = av;
    *mem = c->mem;
    return AMP_OK;
}

void coh_device_written(coh_source *src, amp_accelerator_view *av)
{
    for (coh_copy *c = src->copies; c; c = c->next)
        c->valid = c->acc == av->acc;
    src->host_valid = 0;
    src->discarded = 0;
}

amp_status coh_host_ready(coh_source *src, amp_transfer_reason reason)
{
    if (src->host_valid)
        return AMP_OK;
    if (src->discarded) {
        /* Discarded data need not be fetched: the host memory is current by
         * definition, and its content is whatever it holds. */
        src->discarded = 0;
        src->host_valid = 1;
        return AMP_OK;
    }
    return download(src, reason);
}

void coh_host_written(coh_source *src)
{
    for (coh_copy *c = src->copies; c; c = c->next)
        c->valid = 0;
    src->host_valid = 1;
    src->discarded = 0;
}

void coh_discard(coh_source *src)
{
    for (coh_copy *c = src->copies; c; c = c->next)
        c->valid = 0;
    src->host_valid = 0;
    src->discarded = 1;
}

static void free_copies(coh_source *src)
{
    coh_copy *c = src->copies;
    while (c) {
        coh_copy *next = c->next;
        clapi.ReleaseMemObject(c->mem);
        free(c);
        c = next;
    }
    src->copies = NULL;
}

amp_status coh_source_release(coh_source *src)
{
    if (--src->views > 0)
        return AMP_OK;
    amp_status st = coh_host_ready(src, AMP_REASON_RELEASE);
    HASH_DEL(sources, src);
    free_copies(src);
    free(src);
    return st;
}

void coh_source_stats(const coh_source *src, amp_transfer_stats *out)
{
    *out = src->stats;
}

void coh_global_stats(amp_transfer_stats *out)
{
    *out = global_stats;
}

void coh_reset_global_stats(void)
{
    amp_transfer_stats zero = {0};
    global_stats = zero;
}

void coh_drop_all_device_copies(void)
{
    coh_source *src, *tmp;
    HASH_ITER(hh, sources, src, tmp)
    {
        /* Best effort: a failure leaves the host memory as it was. */
        (void)coh_host_ready(src, AMP_REASON_SYNCHRONIZE);
        src->host_valid = 1;
        src->discarded = 0;
        free_copies(src);
    }
}
