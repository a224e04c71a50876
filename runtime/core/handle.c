/*
 * runtime/core/handle.c - the registry of handles: their memory, cut in
 * sequence from blocks of address space that are never unmapped, so that
 * no address is handed out twice; a table of the live ones by address; and
 * the leak report at exit (AMP_LEAKS).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and madvise() */
#include "core/handle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/env.h"
#include "core/error.h"
#include "core/lock.h"

/* LeakSanitizer looks for pointers in the heap and the program's data, not
 * in memory mapped by hand: the handles' regions are roots it must scan, or
 * what only a handle points to (an accelerator's names) would look leaked.
 * A program may run under it while the library was built without it (a
 * user's -fsanitize=address over the installed library): so the call is a
 * weak reference, made wherever the sanitizer's runtime is loaded. */
void __lsan_register_root_region(const void *p, size_t size) __attribute__((weak));

static void scan_for_leaks(const void *p, size_t size)
{
    if (__lsan_register_root_region)
        __lsan_register_root_region(p, size);
}

/* A failed insertion into the table is reported, not fatal (uthash's
 * default is exit()): the allocation then fails as out of memory. */
static int table_out_of_memory;
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(obj) (table_out_of_memory = 1)
#include <uthash.h>

/* ---- Kinds, for messages ---- */

static const struct {
    const char *a; /* "a" or "an" */
    const char *name;
    const char *ended;  /* what releases one */
    const char *remedy; /* what to do instead */
} kinds[HD_KIND_COUNT] = {
    [HD_ACCELERATOR] = {"an", "accelerator", "amp_shutdown() releases every accelerator",
                        "Get it again with amp_accelerator_get() or"
                        " amp_accelerator_get_default()."},
    [HD_ACCELERATOR_VIEW] = {"an", "accelerator view",
                             "by amp_accelerator_view_release(), or by amp_shutdown(), which"
                             " ends every accelerator view",
                             "Use a view from amp_accelerator_create_view() or"
                             " amp_accelerator_get_default_view()."},
    [HD_VIEW] = {"a", "view", "by amp_array_view_release()",
                 "A view is released once, and not used after; make a new one."},
    [HD_ARRAY] = {"an", "array", "by amp_array_release()",
                  "An array is released once, and not used after; make a new one."},
    [HD_TEXTURE] = {"a", "texture", "by amp_texture_release()",
                    "A texture is released once, and not used after; make a new one."},
    [HD_COMPLETION] = {"a", "completion", "by amp_completion_release()",
                       "Wait on a completion before its release, and release it once."},
    [HD_KERNEL_SOURCE] = {"a", "kernel source", "by amp_kernel_source_release()",
                          "Only what amp_kernel_source_load() made is released, once; a"
                          " source made by AMP_KERNEL_SOURCE(...) belongs to its call site"
                          " and is never released."},
    [HD_ACCELERATOR_SET] = {"an", "accelerator set", "by amp_accelerator_set_release()",
                            "A set is released once, and not used after; make a new one with"
                            " amp_accelerator_set_create()."},
};

/* ---- The record in front of every handle ---- */

typedef struct hd_entry {
    const void *handle; /* the table's key: the address handed out */
    hd_kind kind;
    hd_owner owner;
    int live;         /* in the table */
    const char *file; /* where the caller asked for it, or NULL */
    const char *call;
    int line;
    UT_hash_handle hh;
} hd_entry;

/* Blocks are aligned to their size, so that a handle finds its block's
 * header by rounding its address down. 64 KiB holds a few hundred handles;
 * each costs its own size of address space, never reused. */
#define HD_BLOCK ((uintptr_t)64 * 1024)
#define HD_ALIGN ((uintptr_t)16)
#define ROUND(n) (((n) + HD_ALIGN - 1) / HD_ALIGN * HD_ALIGN)

typedef struct hd_block {
    size_t unfreed; /* handles of this block not yet freed */
    int exhausted;  /* no more handles are cut from it */
} hd_block;

#define HD_HEADER ROUND(sizeof(hd_block))
#define HD_ENTRY ROUND(sizeof(hd_entry))

static hd_entry *live;    /* live handles, by address, in the order made */
static hd_block *current; /* the block handles are cut from now */
static uintptr_t next_at; /* the next free address in it */

/* Drop the pages of a block whose handles are all freed. The mapping stays,
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
/* Every region's start, to tell the library's handle memory from any
 * other address. */
static uintptr_t *regions;
static size_t region_count, region_capacity;

/* A new block, aligned to HD_BLOCK. A new region maps HD_BLOCK more than it
 * needs and unmaps the parts before and after the aligned region (no handle
 * was ever there). */
static hd_block *new_block(void)
{
    if (region_next == region_end) {
        if (region_count == region_capacity) {
            size_t cap = region_capacity ? 2 * region_capacity : 16;
            uintptr_t *grown = realloc(regions, cap * sizeof *grown);
            if (!grown)
                return NULL;
            regions = grown;
            region_capacity = cap;
        }
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
        regions[region_count++] = start;
        scan_for_leaks((void *)start, HD_REGION);
        region_next = start;
        region_end = start + HD_REGION;
    }
    hd_block *b = (hd_block *)region_next;
    region_next += HD_BLOCK;
    return b;
}

/* ---- Sites, and the leak report ---- */

static _Thread_local struct {
    const char *file, *call;
    int line;
    int data_type; /* amp__handle_site_data: what the caller's data points to */
} site;

void amp__handle_site(const char *file, int line, const char *call)
{
    site.file = file;
    site.line = line;
    site.call = call;
}

void amp__handle_site_data(int data_type)
{
    site.data_type = data_type;
}

int amp__handle_site_data_type(void)
{
    return site.data_type;
}

amp_status amp__handle_site_end(amp_status status)
{
    site.file = site.call = NULL;
    site.line = 0;
    site.data_type = 0;
    return status;
}

static void report_leaks(void)
{
    amp__lock_acquire();
    size_t n = 0;
    for (hd_entry *e = live; e; e = e->hh.next)
        n += e->owner == HD_CALLER;
    if (n == 0)
        fprintf(stderr, "[amp] AMP_LEAKS: every handle the program made was released.\n");
    else
        fprintf(stderr, "[amp] AMP_LEAKS: %zu handle%s the program made %s never released:\n", n,
                n == 1 ? "" : "s", n == 1 ? "was" : "were");
    for (hd_entry *e = live; e; e = e->hh.next) {
        if (e->owner != HD_CALLER)
            continue;
        if (e->file)
            fprintf(stderr, "  %s %p, made by %s at %s:%d\n", kinds[e->kind].name, e->handle,
                    e->call, e->file, e->line);
        else
            fprintf(stderr, "  %s %p, made through a pointer to its function (no file and line)\n",
                    kinds[e->kind].name, e->handle);
    }
    amp__lock_release();
}

/* AMP_LEAKS is read once, when the program makes its first handle. */
static void watch_for_leaks(void)
{
    static int decided;
    if (decided)
        return;
    decided = 1;
    if (amp__env_leaks() && atexit(report_leaks) != 0)
        fprintf(stderr, "[amp] AMP_LEAKS: cannot register the report at exit.\n");
}

/* ---- Handles ---- */

void *amp__handle_alloc(hd_kind kind, size_t size, hd_owner owner)
{
    LOCK_ASSERT_HELD();
    size = HD_ENTRY + ROUND(size);
    if (size > HD_BLOCK - HD_HEADER)
        return NULL;
    if (!current || next_at + size > (uintptr_t)current + HD_BLOCK) {
        hd_block *b = new_block();
        if (!b)
            return NULL;
        if (current) {
            current->exhausted = 1;
            if (current->unfreed == 0)
                retire(current);
        }
        current = b;
        next_at = (uintptr_t)b + HD_HEADER;
    }
    /* Fresh anonymous memory: zeroed. */
    hd_entry *e = (hd_entry *)next_at;
    void *p = (char *)e + HD_ENTRY;
    e->handle = p;
    e->kind = kind;
    e->owner = owner;
    if (owner == HD_CALLER && site.file) {
        e->file = site.file;
        e->line = site.line;
        e->call = site.call;
    }
    table_out_of_memory = 0;
    HASH_ADD_PTR(live, handle, e);
    if (table_out_of_memory) {
        memset(e, 0, HD_ENTRY); /* as fresh for the next handle: none was handed out */
        return NULL;
    }
    e->live = 1;
    next_at += size;
    current->unfreed++;
    if (owner == HD_CALLER)
        watch_for_leaks();
    return p;
}

static hd_entry *entry_of(const void *p)
{
    return (hd_entry *)((char *)p - HD_ENTRY);
}

void amp__handle_end(void *p)
{
    LOCK_ASSERT_HELD();
    if (!p)
        return;
    hd_entry *e = entry_of(p);
    if (e->live) {
        HASH_DEL(live, e);
        e->live = 0;
        amp__changes_count(CHANGES_CORE); /* amp__handle_ended */
    }
}

void amp__handle_free(void *p)
{
    LOCK_ASSERT_HELD();
    if (!p)
        return;
    amp__handle_end(p);
    hd_block *b = (hd_block *)((uintptr_t)p & ~(HD_BLOCK - 1));
    if (--b->unfreed == 0 && b->exhausted)
        retire(b);
}

/* Nonzero when p is in the handle memory handed out so far: blocks are cut
 * in order, so that is every region before the last, and the last up to
 * the next free address. */
static int handed_out(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    for (size_t i = 0; i < region_count; i++) {
        uintptr_t end = i + 1 == region_count ? next_at : regions[i] + HD_REGION;
        if (a >= regions[i] && a < end)
            return 1;
    }
    return 0;
}

hd_state amp__handle_state(const void *p, hd_kind *kind)
{
    LOCK_ASSERT_HELD();
    hd_entry *e = NULL;
    HASH_FIND_PTR(live, &p, e);
    if (e) {
        if (kind)
            *kind = e->kind;
        return HD_LIVE;
    }
    return p && handed_out(p) ? HD_RELEASED : HD_FOREIGN;
}

int amp__handle_is(const void *p, hd_kind kind)
{
    LOCK_ASSERT_HELD();
    hd_entry *e = NULL;
    HASH_FIND_PTR(live, &p, e);
    return e && e->kind == kind;
}

amp_status amp__handle_check_as(const char *fn, const char *role, const void *p, hd_kind kind)
{
    LOCK_ASSERT_HELD();
    const char *name = kinds[kind].name;
    role = role ? role : "";
    if (!p)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: the %s%s is NULL.", fn, role, name);
    hd_kind found = kind;
    switch (amp__handle_state(p, &found)) {
    case HD_LIVE:
        if (found == kind)
            return AMP_OK;
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %s%s %p is %s %s, not %s %s. Pass the %s this call takes.", fn,
                            role, name, p, kinds[found].a, kinds[found].name, kinds[kind].a, name,
                            name);
    case HD_RELEASED:
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %s%s %p was already released (%s). %s", fn, role, name, p,
                            kinds[kind].ended, kinds[kind].remedy);
    case HD_FOREIGN: break;
    }
    return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                        "%s: the %s%s %p is not %s %s the library made (a made-up, foreign or"
                        " uninitialised pointer). %s",
                        fn, role, name, p, kinds[kind].a, name, kinds[kind].remedy);
}

amp_status amp__handle_check(const char *fn, const void *p, hd_kind kind)
{
    return amp__handle_check_as(fn, NULL, p, kind);
}

void amp__handle_each(hd_kind kind, void (*fn)(void *handle, void *user), void *user)
{
    LOCK_ASSERT_HELD();
    hd_entry *e, *next;
    HASH_ITER(hh, live, e, next)
    {
        if (e->kind == kind)
            fn((void *)e->handle, user);
    }
}
