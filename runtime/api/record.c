/*
 * runtime/api/record.c - the launch record: a cache, per call site and
 * accelerator view, of what its last launch found.
 *
 * A loop that launches one kernel over and over asks the same questions
 * every time, and on a GPU the driver's work between two launches evicts
 * from the processor's caches what answered them: the spec, the kernel
 * cache's node, the work sizes (docs/performance.md). A record per call
 * site and accelerator view keeps the answers together. A call equal to
 * the recorded one in everything the checks, the kernel and the work sizes
 * depend on (the domain, the device, every capture as validate.c describes
 * it) takes its launch from the record. Every capture is still checked as
 * the full path checks it, so a view released since is refused the same
 * way; a call that differs in anything, or a kernel freed since
 * (amp__kc_generation), takes the full path.
 *
 * The record is valid by construction: what it relies on is counted by
 * the layer that changes it, in one place each (core/changes.h): ended
 * handles (amp__handle_ended), changed data sources (amp__coh_epoch), freed
 * kernels (amp__kc_generation); and the arguments a kernel holds by the
 * kernel layer's count of clSetKernelArg (amp__kb_args_set). Where a data
 * source changed since, each captured view's own source may not have: two
 * kernels launched in turns, the second reading what the first wrote, each
 * leave the other's views as they were. Each view's source's version
 * (amp__coh_version) says so.
 */
#include "api/record.h"

#include <limits.h>
#include <string.h>

#include "api/validate.h"
#include "core/handle.h"
#include "core/limits.h"
#include "core/lock.h"
#include "data/coherence.h"
#include "data/view.h"
#include "device/oclcheck.h"
#include "device/queue.h"
#include "kernel/kcache.h"

/* What a view is, for the record: its data source and the part of it; or
 * a texture, and its image. */
typedef struct lr_view {
    cl_mem mem; /* its buffer or image on the device */
    const amp_array_view *view;
    const amp_texture *texture;
    const coh_source *src;
    int64_t offset;
    amp_extent extent;
    int64_t strides[AMP_MAX_RANK];
    uint64_t version; /* src's, as the last launch left it */
} lr_view;

/* One capture, as the record knows it. */
typedef struct lr_capture {
    _Alignas(64) amp_capture item; /* as last checked in full (known_items) */
    lr_view view;                  /* a view's data as the last launch left it; its
                                      buffer first, in the item's line */
} lr_capture;

/* What a repeated launch reads comes first, and each capture's item and
 * view are together: between two launches the driver's work evicts the
 * record from the processor's caches, and each line read costs. */
typedef struct launch_record {
    _Alignas(64) const amp_kernel_source *kernel; /* NULL: an empty slot */
    const amp_accelerator_view *given_av;
    uint64_t used; /* the recall that last chose it (uses): the oldest is replaced */
    /* The call as last checked in full: the given accelerator view, the
     * capture items as bytes (caps[].item), and how many handles had ended
     * then (amp__handle_ended). While no handle has ended and no data
     * source has changed since (amp__coh_epoch), every pointer in the same
     * items is as live as it was, and what the checks read of the objects
     * is as it was (amp_shutdown changes data sources first): the same
     * items pass the same checks, and amp__validate_capture is skipped. */
    uint64_t handles_ended;
    /* The views' data as the last launch left it (data_known): made
     * current on the device and marked written there. While no data
     * source has changed since (amp__coh_epoch), or no view's own source
     * (views_as_kept), and the views are the same, doing that again
     * would change nothing, and is skipped. */
    uint64_t coh_epoch;
    uint64_t generation;
    /* The kernel's arguments as this record's last launch set them: valid
     * while the entry's count of arguments set has not moved
     * (amp__kb_args_set; record_known.args). Another
     * record of the same kernel (another accelerator view given) may set
     * them in between without changing any data source: a kernel of
     * scalars only, say, readies no view. */
    uint64_t args_set;
    uint64_t hits; /* launches it answered: kernel cache hits, counted here */
    /* The timeline's description of the launch with the items checked
     * last (amp__record_keep_timeline); forgotten when others are. */
    const struct tl_desc *timeline_desc;
    int data_known, args_known;
    int ncaptures;
    kb_launch launch;
    amp_kernel_source source; /* what it held: a source may be rewritten in place */
    const char *body_text;    /* and the text compiled (its kernel's), while generation holds */
    amp_accelerator_view *av;
    const amp_accelerator *acc;
    kb_domain domain;
    int tile_rank;
    lr_capture caps[AMP_MAX_CAPTURES];
    cg_capture captures[AMP_MAX_CAPTURES]; /* read only when the items are not known */
} launch_record;

/* The records, in sets of RECORD_WAYS: a call's set is chosen by its kernel
 * source's address and given view, and any way of it may hold its record.
 * A kernel source written by AMP_KERNEL_SOURCE is a compound literal on
 * the caller's stack, so kernels launched in turns from functions called
 * at one depth pass one address: each keeps a way of its own, told apart
 * by what the source holds (same_kernel). */
enum { RECORD_WAYS = 4, RECORD_SETS = LIMIT_LAUNCH_RECORDS / RECORD_WAYS };
_Static_assert(LIMIT_LAUNCH_RECORDS % RECORD_WAYS == 0, "whole sets of records");
static launch_record records[LIMIT_LAUNCH_RECORDS];
static uint64_t uses;             /* recalls so far */
static uint64_t hits_of_replaced; /* of records replaced or cleared */

/* Whether n bytes at a and b are equal; n a small multiple of 4 (extents,
 * tiles, capture items). Inline, where memcmp would be a call through the
 * PLT on every repeated launch. */
static inline int same_words(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    uint64_t differ = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x, y;
        memcpy(&x, p + i, 8);
        memcpy(&y, q + i, 8);
        differ |= x ^ y;
    }
    if (i < n) {
        uint32_t x, y;
        memcpy(&x, p + i, 4);
        memcpy(&y, q + i, 4);
        differ |= x ^ y;
    }
    return differ == 0;
}
_Static_assert(sizeof(kb_domain) % 4 == 0 && sizeof(amp_capture) % 4 == 0,
               "same_words compares whole words");

static int same_source(const amp_kernel_source *a, const amp_kernel_source *b)
{
    return a->file == b->file && a->line == b->line && a->index_name == b->index_name &&
           a->body == b->body && a->body_length == b->body_length && a->from_file == b->from_file;
}

/* Whether the record is of the call's kernel source, as it was, and given
 * accelerator view. Reads only the record until the pointers are equal. */
static int same_kernel(const launch_record *r, const call *c)
{
    return r->kernel && r->kernel == c->kernel && r->given_av == c->given_av &&
           same_source(&r->source, c->kernel) && r->body_text &&
           r->generation == amp__kc_generation() && /* else body_text may be freed */
           memcmp(r->body_text, c->kernel->body, c->kernel->body_length) == 0;
}

/* Whether the call's kernel source is the record's, and no handle has
 * ended since the record checked it: then it is as live as it was, and
 * amp__kfile_check would pass again. */
static int known_source(const launch_record *r, const call *c)
{
    return r->handles_ended == amp__handle_ended() && same_kernel(r, c);
}

static int same_items(const launch_record *r, const call *c)
{
    for (int i = 0; i < c->captures.count; i++)
        if (!same_words(&r->caps[i].item, &c->captures.items[i], sizeof r->caps[i].item))
            return 0;
    return 1;
}

static int same_view(const lr_view *k, const amp_array_view *v)
{
    return k->view == v && k->src == v->src && k->offset == v->offset &&
           same_words(&k->extent, &v->extent, sizeof k->extent) &&
           same_words(k->strides, v->strides, sizeof k->strides);
}

/* Whether each captured view and texture is the one the last launch left
 * (data_known). While data has changed since (amp__coh_epoch), by_version
 * asks too that each view's data source has not (amp__coh_version), and
 * that no texture is captured: an image has no version. The views must be
 * live: checked again, or the same items with no handle ended since. */
static int views_as_kept(const launch_record *r, const call *c, int by_version)
{
    for (int i = 0; i < c->captures.count; i++) {
        const amp_capture *cap = &c->captures.items[i];
        const lr_view *k = &r->caps[i].view;
        if (cap->kind == AMP_CAPTURE_TEXTURE && (by_version || k->texture != cap->value.texture))
            return 0;
        if (cap->kind == AMP_CAPTURE_VIEW &&
            (!same_view(k, cap->value.view) ||
             (by_version && amp__coh_version(k->src) != k->version)))
            return 0;
    }
    return 1;
}

/* Whether the call's capture items are the record's, byte for byte, with
 * nothing ended or changed since they were checked (launch_record). For a
 * call of the record's kernel (same_kernel), "no handle ended since" is
 * what known_source found. What the checks read of a view is the view
 * and its data source, so a view whose source is unchanged passes them
 * again. */
static int known_items(const launch_record *r, const call *c, int source_known)
{
    return source_known && r->data_known && same_items(r, c) &&
           (r->coh_epoch == amp__coh_epoch() || views_as_kept(r, c, 1));
}

/* Note the call as checked in full now. */
static void checked_now(launch_record *r, const call *c)
{
    r->handles_ended = amp__handle_ended();
    r->timeline_desc = NULL;
    for (int i = 0; i < c->captures.count; i++)
        r->caps[i].item = c->captures.items[i];
}

/* source_known: known_source found it so already. */
static int same_call(const launch_record *r, const call *c, const amp_accelerator *acc,
                     int source_known)
{
    return (source_known || same_kernel(r, c)) && r->av == c->av && r->acc == acc &&
           r->generation == amp__kc_generation() && r->launch.checked == amp__ock_installed() &&
           r->ncaptures == c->captures.count && (c->captures.count == 0 || c->captures.items) &&
           r->tile_rank == c->tile_rank && same_words(&r->domain, &c->domain, sizeof r->domain);
}

/* When the record holds a launch of this same call (the same domain,
 * device and captures, each checked again unless the items are known),
 * known->record and known->launch say so. A capture that fails its check
 * fails the call, with the full path's status and message. */
static amp_status match(const call *c, record_known *known, int source_known)
{
    launch_record *r = known->slot;
    const amp_accelerator *acc = c->av->acc;
    if (!same_call(r, c, acc, source_known))
        return AMP_OK;
    if (known_items(r, c, source_known)) {
        known->items = 1;
    } else {
        /* Every capture checked again: one released since is refused the
         * same way as on the full path. */
        int wide = amp_extent_size(c->domain.extent) > INT_MAX;
        for (int i = 0; i < c->captures.count; i++) {
            cg_capture g;
            amp_status st = amp__validate_capture(c, i, acc, &g, &wide);
            if (st != AMP_OK)
                return st;
            if (memcmp(&g, &r->captures[i], sizeof g) != 0)
                return AMP_OK;
        }
        if (wide != r->launch.wide)
            return AMP_OK;
        checked_now(r, c);
    }
    known->record = r;
    known->launch = &r->launch;
    r->hits++;
    return AMP_OK;
}

void amp__record_keep_launch(const call *c, record_known *known, const cg_spec *spec,
                             const kb_launch *l)
{
    launch_record *r = known->slot;
    hits_of_replaced += r->hits;
    r->hits = 0;
    r->data_known = 0;
    r->kernel = c->kernel;
    r->given_av = c->given_av;
    r->source = *c->kernel;
    r->body_text = l->entry ? l->entry->body_text : NULL;
    r->av = c->av;
    r->acc = c->av->acc;
    r->generation = amp__kc_generation();
    r->domain = c->domain;
    r->tile_rank = c->tile_rank;
    r->ncaptures = spec->ncaptures;
    r->launch = *l;
    memcpy(r->captures, spec->captures, (size_t)spec->ncaptures * sizeof spec->captures[0]);
    checked_now(r, c);
    r->args_known = 0;
    known->record = r;
    known->launch = &r->launch;
}

/* Whether the views' data is as the record's last launch left it, and
 * the textures are the ones it ordered the kernel after. */
static int data_as_kept(const launch_record *r, const call *c)
{
    return r->data_known && views_as_kept(r, c, r->coh_epoch != amp__coh_epoch());
}

void amp__record_args_bound(const record_known *known, const kc_entry *e, int bound)
{
    launch_record *r = known->record;
    if (r) {
        r->args_known = bound;
        r->args_set = amp__kb_args_set(e);
    }
}

void amp__record_keep_data(const call *c, const record_known *known, const cl_mem *mems)
{
    launch_record *r = known->record;
    if (!r)
        return;
    for (int i = 0; i < c->captures.count; i++) {
        lr_view *k = &r->caps[i].view;
        memset(k, 0, sizeof *k);
        if (c->captures.items[i].kind == AMP_CAPTURE_TEXTURE) {
            k->texture = c->captures.items[i].value.texture;
            k->mem = mems[i];
        }
        if (c->captures.items[i].kind != AMP_CAPTURE_VIEW)
            continue;
        const amp_array_view *v = c->captures.items[i].value.view;
        k->view = v;
        k->src = v->src;
        k->offset = v->offset;
        k->extent = v->extent;
        memcpy(k->strides, v->strides, sizeof k->strides);
        k->mem = mems[i];
        /* Every view is marked written by now (dispatch.c): two views of
         * one source keep its last version. */
        k->version = amp__coh_version(v->src);
    }
    r->coh_epoch = amp__coh_epoch();
    r->data_known = 1;
}

/* Whether the call captures a struct by value: the items hold where its
 * bytes are, not the bytes, which may have changed since. */
static int struct_values(const call *c)
{
    for (int i = 0; i < c->captures.count; i++)
        if (c->captures.items[i].kind == AMP_CAPTURE_STRUCT)
            return 1;
    return 0;
}

/* The view the call runs on, into c->av. A call whose source the record
 * knows (known_source) was given the record's view, which resolved to the
 * record's av when the record last checked it, and no handle has ended
 * since: it resolves so again. (The default accelerator is fixed once
 * used, and its default view lives until amp_shutdown, which clears the
 * records.) Only a removal of the accelerator since is left to see, and
 * amp__queue_resolve says what it is. */
static amp_status resolve(call *c, const launch_record *r, int source_known)
{
    if (source_known && !r->acc->removed) {
        c->av = r->av;
        return AMP_OK;
    }
    return amp__queue_resolve(c->av, &c->av);
}

/* The way of the call's set whose source the call's is, with no handle
 * ended since (known_source), or NULL. */
static launch_record *known_way(launch_record *set, const call *c)
{
    for (int w = 0; w < RECORD_WAYS; w++)
        if (known_source(&set[w], c))
            return &set[w];
    return NULL;
}

/* For a call whose source is checked: the way of its kernel source (as
 * same_kernel finds it), else an empty way, else the one chosen longest
 * ago, whose record the call's replaces. */
static launch_record *way_for(launch_record *set, const call *c)
{
    for (int w = 0; w < RECORD_WAYS; w++)
        if (same_kernel(&set[w], c))
            return &set[w];
    launch_record *oldest = &set[0];
    for (int w = 0; w < RECORD_WAYS; w++) {
        if (!set[w].kernel)
            return &set[w];
        if (set[w].used < oldest->used)
            oldest = &set[w];
    }
    return oldest;
}

amp_status amp__record_recall(call *c, record_known *known, cl_mem *mems)
{
    uintptr_t h = (uintptr_t)c->kernel * 31u + (uintptr_t)c->given_av;
    launch_record *set = &records[(h >> 4 ^ h >> 12) % RECORD_SETS * RECORD_WAYS];
    *known = (record_known){NULL, NULL, NULL, 0, 0, 0};
    /* The source is read only once the registry says it may be: a source
     * loaded from a file and released is refused unread. */
    launch_record *r = known_way(set, c);
    int source_known = r != NULL;
    amp_status st = source_known ? AMP_OK : amp__validate_source(c);
    if (st != AMP_OK)
        return st;
    if (!r)
        r = way_for(set, c);
    r->used = ++uses;
    known->slot = r;
    st = resolve(c, r, source_known);
    if (st == AMP_OK)
        st = match(c, known, source_known);
    if (st != AMP_OK || !known->record)
        return st;
    /* Under AMP_CHECK every launch takes the full path of the data. Known
     * items are the same live views, whose data is as kept (known_items),
     * and a view's part of its data source is fixed when it is made
     * (amp__view_make): nothing to compare. */
    known->data = !r->launch.checked && (known->items || data_as_kept(r, c));
    if (known->data)
        for (int i = 0; i < c->captures.count; i++)
            mems[i] = r->caps[i].view.mem;
    /* The kernel's arguments are as this record's last launch set them
     * when nothing has set any since, and the same items and views, whose
     * buffers are kept, would set them to the same values. A padded
     * domain's sink may be a new buffer; it is always set. */
    known->args = known->data && known->items && r->args_known &&
                  r->args_set == amp__kb_args_set(r->launch.entry) && !c->domain.guarded &&
                  !struct_values(c);
    return AMP_OK;
}

const struct tl_desc *amp__record_timeline(const record_known *known)
{
    return known->items ? known->record->timeline_desc : NULL;
}

void amp__record_keep_timeline(const record_known *known, const struct tl_desc *desc)
{
    if (known->record)
        known->record->timeline_desc = desc;
}

uint64_t amp__record_hits(void)
{
    uint64_t hits = hits_of_replaced;
    for (int i = 0; i < LIMIT_LAUNCH_RECORDS; i++)
        hits += records[i].hits;
    return hits;
}

void amp__record_clear(void)
{
    LOCK_ASSERT_HELD();
    for (int i = 0; i < LIMIT_LAUNCH_RECORDS; i++)
        hits_of_replaced += records[i].hits;
    memset(records, 0, sizeof records);
}
