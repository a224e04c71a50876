/*
 * runtime/kernel/bind.h - a compiled kernel made ready for one launch: its
 * work sizes, its arguments, and the sink of a padded domain.
 *
 * A kernel cache entry (kcache.h) remembers the bytes last passed to each
 * argument, and counts every clSetKernelArg on its kernel; this file is the
 * only one that writes them. OpenCL keeps a kernel's arguments between
 * launches, and on a CPU device clSetKernelArg costs about as much as the
 * launch itself, so a repeated launch sets only the arguments that changed.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_KERNEL_BIND_H
#define AMP_KERNEL_BIND_H

#include "amp/kernel.h"
#include "device/queue.h"
#include "kernel/kcache.h"

/* The domain of a launch, as its kernel runs it. */
typedef struct kb_domain {
    amp_extent extent;   /* of a padded domain, the padded extent */
    amp_extent original; /* of a padded domain, the extent before padding */
    int tiled;
    int guarded; /* a padded domain: threads past the original extent are guarded */
    int tile[AMP_MAX_TILE_RANK];
    /* A part of a launch split across accelerators: the rows part_lo ..
     * part_hi - 1 of dimension 0, whole tiles of a tiled domain, run at a
     * global offset so that each thread keeps its index; both 0: all. */
    int part_lo, part_hi;
} kb_domain;

/* What a launch needs of its kernel once the call is checked: the cache
 * entry, and the kernel as its queue takes it, with its work sizes in
 * OpenCL's order (dimension 0 is C++ AMP's last). */
typedef struct kb_launch {
    kc_entry *entry;
    queue_kernel run;
    int wide, checked; /* as the spec says: 64-bit offsets; AMP_CHECK's accessors */
} kb_launch;

/* The kernel of spec on acc (compiled on a miss, kcache.c), checked against
 * what the compiled kernel can run (threads per tile, tile_static memory),
 * with its work sizes for domain d: a launch in *out. Untiled domains get
 * a work-group shape chosen here and a global size rounded up to it; the
 * kernel's guard skips the extra threads. A failure names the call site
 * (spec->source). */
amp_status amp__kb_plan(const cg_spec *spec, const kb_domain *d, amp_accelerator *acc,
                        kb_launch *out);

/* Set the arguments of l's kernel for captures, d and acc: each view's
 * buffer mems[i], each texture's image mems[i] and each captured struct;
 * then the launch's values, one struct argument (translate.c's
 * amp_launch_values) of the views' offsets, strides and extents, the
 * textures' extents, the scalar, index and extent values, and the domain's
 * extent; a padded domain's sink. Only those that changed since they were
 * last set are set. *nargs is how many arguments the kernel took. Call it after
 * every buffer that it passes is made: a buffer made since the arguments
 * were remembered may have a released buffer's handle, and the memo is
 * forgotten then (amp__clapi_mems_made). */
amp_status amp__kb_bind(const kb_launch *l, const kb_domain *d, const amp_capture_list *captures,
                        const cl_mem *mems, amp_accelerator *acc, cl_uint *nargs);

/* Set argument index of e's kernel to size bytes at value, unless it holds
 * them already; what names it in a failure's message. */
amp_status amp__kb_set_arg(kc_entry *e, cl_uint index, size_t size, const void *value,
                           const char *what);

/* A count that moves with every clSetKernelArg on e's kernel: while it
 * stands where a caller noted it, the kernel's arguments are as that
 * caller's last launch left them. */
static inline uint64_t amp__kb_args_set(const kc_entry *e)
{
    return e->args_set;
}

/* Release the sinks of padded domains, before the contexts go
 * (amp_shutdown). */
void amp__kb_shutdown(void);

#endif
