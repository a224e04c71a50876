/*
 * runtime/data/host_memory.c - page-locked host memory for views
 * (amp_host_alloc, amp_host_free: C++ AMP's staging arrays, in C).
 *
 * OpenCL has no call that locks host memory; a buffer made with
 * CL_MEM_ALLOC_HOST_PTR and mapped is page-locked memory on NVIDIA's
 * driver and others (NVIDIA's OpenCL best-practices guide), and a transfer
 * from the mapped pointer to any buffer of the context is a DMA at the
 * link's speed. Each allocation keeps its buffer mapped, and a queue of
 * its own to unmap it with, so that it outlives amp_shutdown(), which
 * releases the library's queues. staging.c keeps the list of allocations,
 * so that transfers of their bytes go direct.
 */
#include <stdint.h>
#include <stdlib.h>

#include "amp/array_view.h"
#include "core/error.h"
#include "core/lock.h"
#include "data/coherence.h"
#include "data/staging.h"

/* The caller's part starts at a multiple of this. */
#define ALIGN 64

/* Release what an allocation holds (any part may be missing). Returns the
 * first failure of unmapping, CL_SUCCESS if none, naming the call. */
static cl_int release(stg_pinned *p, const char **call)
{
    cl_int rc = CL_SUCCESS;
    if (p->mapped) {
        rc = amp__clapi.EnqueueUnmapMemObject(p->queue, p->mem, p->mapped, 0, NULL, NULL);
        *call = "clEnqueueUnmapMemObject";
        /* A buffer still mapped is never freed: try once more. */
        if (rc != CL_SUCCESS)
            amp__clapi.EnqueueUnmapMemObject(p->queue, p->mem, p->mapped, 0, NULL, NULL);
        cl_int done = amp__clapi.Finish(p->queue);
        if (rc == CL_SUCCESS && done != CL_SUCCESS) {
            rc = done;
            *call = "clFinish";
        }
    }
    if (p->queue)
        amp__clapi.ReleaseCommandQueue(p->queue);
    if (p->mem)
        amp__clapi.ReleaseMemObject(p->mem);
    free(p);
    return rc;
}

static amp_status alloc_locked(size_t bytes, amp_accelerator_view *av, void **out)
{
    static const char fn[] = "amp_host_alloc";
    amp_status st = amp__queue_resolve(av, &av);
    if (st != AMP_OK)
        return st;
    amp_accelerator *acc = av->acc;
    if (bytes > SIZE_MAX - ALIGN || bytes + ALIGN > acc->max_alloc)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                            "%s: %zu bytes of page-locked memory for %s are more than it allocates"
                            " at once (%llu bytes, CL_DEVICE_MAX_MEM_ALLOC_SIZE). Allocate less,"
                            " in parts, or use ordinary host memory for the rest.",
                            fn, bytes, acc->name, (unsigned long long)acc->max_alloc);
    stg_pinned *p = calloc(1, sizeof *p);
    if (!p)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    size_t total = bytes + ALIGN;
    cl_int rc = CL_SUCCESS;
    const char *call = "clCreateBuffer";
    p->context = acc->context;
    p->mem = amp__clapi.CreateBuffer(acc->context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, total,
                                     NULL, &rc);
    if (p->mem) {
        call = "clCreateCommandQueue";
        p->queue = amp__clapi.CreateCommandQueue(acc->context, acc->device, 0, &rc);
    }
    if (p->queue) {
        call = "clEnqueueMapBuffer";
        p->mapped = amp__clapi.EnqueueMapBuffer(p->queue, p->mem, CL_TRUE,
                                                CL_MAP_READ | CL_MAP_WRITE, 0, total, 0, NULL, NULL,
                                                &rc);
    }
    if (!p->mapped) {
        const char *ignored;
        release(p, &ignored);
        if (rc == CL_SUCCESS)
            rc = CL_OUT_OF_RESOURCES;
        if (amp__err_status_of_cl(rc) == AMP_ERROR_OUT_OF_MEMORY)
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                                "%s: %s could not lock %zu bytes of host memory (%s from %s). Free"
                                " some, allocate less, or use ordinary host memory.",
                                fn, acc->name, bytes, amp__err_cl_name(rc), call);
        return amp__err_cl(rc, call, "Allocating page-locked host memory");
    }
    uintptr_t at = ((uintptr_t)p->mapped + ALIGN - 1) / ALIGN * ALIGN;
    p->user = (char *)p->mapped + (at - (uintptr_t)p->mapped);
    p->bytes = bytes;
    amp__stg_pinned_add(p);
    *out = p->user;
    return AMP_OK;
}

amp_status amp_host_alloc(size_t bytes, amp_accelerator_view *av, void **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_host_alloc: out is NULL.");
    *out = NULL;
    if (bytes == 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "amp_host_alloc: bytes is 0; ask for at least one byte.");
    amp__lock_acquire();
    amp_status st = alloc_locked(bytes, av, out);
    amp__lock_release();
    return st;
}

amp_status amp_host_free(void *mem)
{
    if (!mem)
        return AMP_OK;
    amp__lock_acquire();
    amp_status st = AMP_OK;
    stg_pinned *p = amp__stg_pinned_take(mem);
    if (!p) {
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                          "amp_host_free: %p is not memory from amp_host_alloc(), or it was freed"
                          " already.",
                          mem);
    } else if (amp__coh_host_in_use(p->user, p->bytes) == COH_HOST_VIEW) {
        amp__stg_pinned_add(p);
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "amp_host_free: a view of the memory at %p is still alive; release every"
                          " view of it first (nothing was freed).",
                          mem);
    } else if (amp__coh_host_in_use(p->user, p->bytes) == COH_HOST_COPY) {
        amp__stg_pinned_add(p);
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "amp_host_free: an asynchronous copy (amp_copy_async) still uses the"
                          " memory at %p; wait for its completion first (nothing was freed).",
                          mem);
    } else {
        const char *call = "";
        cl_int rc = release(p, &call);
        if (rc != CL_SUCCESS)
            st = amp__err_cl(rc, call,
                             "Unlocking page-locked host memory (it is freed all the same)");
    }
    amp__lock_release();
    return st;
}
