/*
 * runtime/core/handle.c - handle memory from blocks of address space that are
 * never unmapped, cut in sequence so that no address is handed out twice.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and madvise() */
#include "core/handle.h"

#include <stdint.h>
#include <sys/mman.h>

/* A block is aligned to its size, so that a handle finds its block's
 * header by rounding its address down. 64 KiB holds several hundred
 * handles; each costs its own size of address space, never reused. */
#define HD_BLOCK ((uintptr_t)64 * 1024)
#define HD_ALIGN ((uintptr_t)16)

typedef struct hd_block {
    size_t live;   /* handles of this block not yet freed */
    int exhausted; /* no more handles are cut from it */
} hd_block;

#define HD_HEADER ((sizeof(hd_block) + HD_ALIGN - 1) / HD_ALIGN * HD_ALIGN)

static hd_block *current;  /* the block handles are cut from now */
static uintptr_t next_at;  /* the next free address in it */

/* Drop the pages of a block whose handles are all gone. The mapping stays,
 * so that its addresses are never mapped, and handed out, again. */
static void retire(hd_block *b)
{
    (void)madvise(b, HD_BLOCK, MADV_DONTNEED);
}

/* Blocks are cut in turn from regions of 64 MiB, each one mapping, so that
 * the process's count of mappings (65530 at most by default on Linux)
 * grows by one per 1024 blocks, several hundred thousand handles, and not
 * by one per block. Pages of a region cost nothing until a handle is there. */
#define HD_REGION ((uintptr_t)64 * 1024 * 1024)

static uintptr_t region_next, region_end; /* the blocks not yet cut */

/* A new block, aligned to HD_BLOCK. A new region maps HD_BLOCK more than it
 * needs and unmaps the parts before and after the aligned region (no handle
 * was ever there). */
static hd_block *new_block(void)
{
    if (region_next == region_end) {
        size_t span = HD_REGION + HD_BLOCK;
        char *p = mmap(NULL, span, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        uintptr_t start = ((uintptr_t)p + HD_BLOCK - 1) & ~(HD_BLOCK - 1);
        size_t before = start - (uintptr_t)p, after = span - before - HD_REGION;
        if (before)
            munmap(p, before);
        if (after)
            munmap((char *)start + HD_REGION, after);
        region_next = start;
        region_end = start + HD_REGION;
    }
    hd_block *b = (hd_block *)region_next;
    region_next += HD_BLOCK;
    return b;
}

void *amp__handle_alloc(size_t size)
{
    size = (size + HD_ALIGN - 1) / HD_ALIGN * HD_ALIGN;
    if (size == 0 || size > HD_BLOCK - HD_HEADER)
        return NULL;
    if (!current || next_at + size > (uintptr_t)current + HD_BLOCK) {
        hd_block *b = new_block();
        if (!b)
            return NULL;
        if (current) {
            current->exhausted = 1;
            if (current->live == 0)
                retire(current);
        }
        current = b;
        next_at = (uintptr_t)b + HD_HEADER;
    }
    void *p = (void *)next_at;
    next_at += size;
    current->live++;
    return p; /* fresh anonymous memory: zeroed */
}

void amp__handle_free(void *p)
{
    if (!p)
        return;
    hd_block *b = (hd_block *)((uintptr_t)p & ~(HD_BLOCK - 1));
    if (--b->live == 0 && b->exhausted)
        retire(b);
}
