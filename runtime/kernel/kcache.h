/*
 * runtime/kernel/kcache.h - compiled kernels, by call site, capture signature and
 * device.
 *
 * The key is the address of the body's string literal (each call site has
 * its own), the accelerator, and a 64-bit hash of the spec's few numbers
 * (ranks, types, tile shape, constants). A repeated call therefore costs one
 * small hash lookup, a comparison of those numbers and one of the body's
 * text with the text compiled (a string rewritten in place under the same
 * address is another body): no hashing of source. Only a miss generates source; it then loads the
 * program from the on-disk cache (diskcache.c) when it is there, and
 * compiles it otherwise.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_KERNEL_KCACHE_H
#define AMP_KERNEL_KCACHE_H

#include <stdint.h>

#include "core/changes.h"
#include "core/limits.h"
#include "device/accel.h"
#include "kernel/codegen.h"

/* The value last passed to one kernel argument. */
typedef struct kc_arg {
    unsigned char size;      /* 0: unknown, set it next time */
    unsigned char bytes[32]; /* up to an int8 (an index of rank 5 to 8) */
} kc_arg;

typedef struct kc_entry {
    /* What a repeated launch reads, together at the front. */
    cl_kernel kernel;
    uint64_t args_epoch; /* see args */
    /* Counts every clSetKernelArg on the kernel: while it has not moved,
     * the kernel's arguments are as the last caller to note it left them.
     * It and the memo below (args, args_epoch) are written by
     * kernel/bind.c alone. */
    uint64_t args_set;
    const char *name;
    /* The body's text as it was compiled (the call site's string may be
     * rewritten in place, under the same address): a hit compares it. */
    const char *body_text;
    uint32_t written_mask; /* captures the body may write */
    size_t max_work_group; /* CL_KERNEL_WORK_GROUP_SIZE */
    uint64_t local_mem;    /* CL_KERNEL_LOCAL_MEM_SIZE: tile_static bytes */
    /* Under AMP_CHECK, the generated source, kept to move the checker's
     * reports to the user's lines; NULL otherwise. */
    const cg_kernel *generated;
    /* Where the body uses its views, for a launch split across
     * accelerators (translate.h): bit i of own_mask, view i only at the
     * thread's own index; of tile_mask, only at its tile's; else unowned
     * says why, per capture, each ending in a NUL ("" for the others). */
    uint32_t own_mask, tile_mask;
    const char *unowned;
    /* What each argument holds now. OpenCL keeps a kernel's arguments
     * between launches, and on a CPU device clSetKernelArg costs about as
     * much as the launch itself, so a repeated call sets only what changed.
     * Valid while args_epoch equals amp__clapi_mems_made(): a buffer made
     * since may have the handle of one released before, and must be set
     * again. */
    kc_arg args[LIMIT_ARGUMENT_MEMO];
    /* The work sizes (a hash of the dimensions, global and local sizes)
     * of its last LIMIT_LAUNCH_SIZES launches, newest first, 0 where none;
     * written by kernel/bind.c. Once the process has begun to exit, a
     * launch runs only at one of them: an OpenCL implementation may build
     * a kernel again for new work sizes (PoCL does, for each work-group
     * size), and its compiler may be gone then (device/ending.h). */
    uint64_t sizes[LIMIT_LAUNCH_SIZES];
    /* The layout of the kernel's launch values (one struct argument:
     * translate.h's amp__translate_values_layout): its bytes, 0 if it
     * takes none, and where the fields of each size begin and end. */
    size_t values_bytes;
    size_t values_start[TR_VALUE_SIZES + 1];
    /* The launch values last passed, as args above (values_size 0:
     * unknown). They hold no memory object's handle, so args_epoch does
     * not concern them. Written by kernel/bind.c. */
    size_t values_size;
    unsigned char values[LIMIT_LAUNCH_VALUES];
} kc_entry;

/* The compiled kernel for spec on acc, compiled now if needed. */
amp_status amp__kc_get(const cg_spec *spec, amp_accelerator *acc, kc_entry **out);

/* How many kernels this process compiled from source, how many it loaded
 * from the disk cache instead, and how many calls found theirs in memory
 * (for tests and the benchmark). */
void amp__kc_counts(uint64_t *builds, uint64_t *disk_hits, uint64_t *hits);

/* A number that changes whenever a compiled kernel is freed: the kernel
 * layer's count of change (core/changes.h), counted where a kernel is
 * freed and nowhere else. An entry that amp__kc_get gave out stays valid
 * while this number is unchanged. */
static inline uint64_t amp__kc_generation(void)
{
    return amp__changes_of(CHANGES_KERNEL);
}

/* Release the kernels compiled from a body that is about to be freed. */
void amp__kc_forget_body(const char *body);

/* Release every compiled kernel. */
void amp__kc_clear(void);

#endif
