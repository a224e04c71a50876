/*
 * runtime/core/timeline.c - the timeline's records (timeline.h), which
 * timeline_file.c writes as docs/timeline.md says.
 *
 * Records are kept in blocks that never move, so that a record's number
 * stays valid while device times arrive for it. A kernel's description
 * (name, call site, domain, views) is found by the numbers and addresses
 * it is made of: a loop that launches one kernel again and again shares
 * one description, and a launch costs a compare of a few hundred bytes, not
 * a string's allocation.
 */
#define _GNU_SOURCE /* syscall(), MADV_POPULATE_WRITE */
#include "core/timeline.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <uthash.h>

#include <amp/kernel.h>

#include "core/changes.h"
#include "core/clock.h"
#include "core/env.h"
#include "core/error.h"
#include "core/lock.h"
#include "core/timeline_records.h"

#define TL_DEFAULT_MAX_EVENTS 1000000LL

int amp__tl_active;

int64_t amp__tl_now(void)
{
    return amp__clock_ns();
}

/* ---- Strings, copied once: number 0 is none ---- */

typedef struct tl_string {
    char *text;
    uint32_t id;
    UT_hash_handle hh;
} tl_string;

static tl_string *strings;
static char **string_texts;
static uint32_t string_count, string_capacity;

/* The strings met last, by address: a launch's call site and kernel name
 * are the same addresses every time. An address may come back for another
 * string after a free: a kernel's name after the kernel layer frees one,
 * a kernel file's name after its handle ended. Each layer counts those
 * (core/changes.h): while neither count moved since a hit was compared,
 * the string at the address is the same one. */
#define RECENT 64

static seen now_seen(void)
{
    return (seen){amp__changes_of(CHANGES_CORE), amp__changes_of(CHANGES_KERNEL)};
}

static int still(seen a, seen b)
{
    return a.core == b.core && a.kernel == b.kernel;
}

static struct {
    const char *at;
    uint32_t id;
    seen when;
} recent_strings[RECENT];

static size_t slot_of(const void *p)
{
    uintptr_t v = (uintptr_t)p;
    return (size_t)((v >> 4) ^ (v >> 10)) & (RECENT - 1);
}

static uint32_t intern_text(const char *s);

static uint32_t intern(const char *s)
{
    if (!s)
        return 0;
    size_t slot = slot_of(s);
    seen now = now_seen();
    if (recent_strings[slot].at == s && (still(recent_strings[slot].when, now) ||
                                         strcmp(string_texts[recent_strings[slot].id], s) == 0)) {
        recent_strings[slot].when = now;
        return recent_strings[slot].id;
    }
    uint32_t id = intern_text(s);
    if (id) {
        recent_strings[slot].at = s;
        recent_strings[slot].id = id;
        recent_strings[slot].when = now;
    }
    return id;
}

static uint32_t intern_text(const char *s)
{
    tl_string *found = NULL;
    HASH_FIND_STR(strings, s, found);
    if (found)
        return found->id;
    if (string_count + 1 >= string_capacity) {
        uint32_t cap = string_capacity ? 2 * string_capacity : 64;
        char **grown = realloc(string_texts, cap * sizeof *grown);
        if (!grown)
            return 0;
        string_texts = grown;
        string_capacity = cap;
    }
    tl_string *n = malloc(sizeof *n);
    char *copy = strdup(s);
    if (!n || !copy) {
        free(n);
        free(copy);
        return 0;
    }
    n->text = copy;
    n->id = ++string_count;
    string_texts[n->id] = copy;
    HASH_ADD_KEYPTR(hh, strings, n->text, strlen(n->text), n);
    return n->id;
}

static const char *text_of(uint32_t id)
{
    return id ? string_texts[id] : NULL;
}

/* ---- Views, data sources and textures, by address ---- */

typedef struct tl_view {
    const void *key;
    uint32_t id, data, label;
    UT_hash_handle hh;
} tl_view;

typedef struct tl_data {
    const void *key;
    uint32_t id;
    uint32_t view;   /* the view its transfers name: the one used last */
    uint32_t pseudo; /* a number for its transfers when no view of it was seen */
    int where_known;
    double host, device; /* the last where written */
    UT_hash_handle hh;
} tl_data;

typedef struct tl_texture {
    const void *key;
    uint32_t id;
    UT_hash_handle hh;
} tl_texture;

static tl_view *views;
static tl_data *datas;
static tl_texture *textures;
static uint32_t view_count, data_count, texture_count;

/* The id of the texture whose data is at data: a new one at its first
 * sight (0 without memory). */
static uint32_t texture_id(const void *data)
{
    tl_texture *x = NULL;
    HASH_FIND_PTR(textures, &data, x);
    if (!x && (x = calloc(1, sizeof *x)) != NULL) {
        x->key = data;
        x->id = ++texture_count;
        HASH_ADD_PTR(textures, key, x);
    }
    return x ? x->id : 0;
}

/* Each view number's data number, and its name (0: none yet). */
static uint32_t *view_data, *view_label;
static uint32_t view_capacity;

static tl_data *data_of(const void *key, int make)
{
    tl_data *d = NULL;
    HASH_FIND_PTR(datas, &key, d);
    if (d || !make)
        return d;
    d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->key = key;
    d->id = ++data_count;
    HASH_ADD_PTR(datas, key, d);
    return d;
}

static uint32_t new_view_number(uint32_t data)
{
    if (view_count + 1 >= view_capacity) {
        uint32_t cap = view_capacity ? 2 * view_capacity : 64;
        uint32_t *vd = realloc(view_data, cap * sizeof *vd);
        if (!vd)
            return 0;
        view_data = vd;
        uint32_t *vl = realloc(view_label, cap * sizeof *vl);
        if (!vl)
            return 0;
        view_label = vl;
        view_capacity = cap;
    }
    view_count++;
    view_data[view_count] = data;
    view_label[view_count] = 0;
    return view_count;
}

/* The view at key; made with its data source's number when data is given
 * and it is new. */
static tl_view *view_of(const void *key, const void *data)
{
    tl_view *v = NULL;
    if (!key)
        return NULL;
    HASH_FIND_PTR(views, &key, v);
    if (v || !data)
        return v;
    tl_data *d = data_of(data, 1);
    v = d ? calloc(1, sizeof *v) : NULL;
    if (!v)
        return NULL;
    v->id = new_view_number(d->id);
    if (!v->id) {
        free(v);
        return NULL;
    }
    v->key = key;
    v->data = d->id;
    if (!d->view)
        d->view = v->id;
    HASH_ADD_PTR(views, key, v);
    return v;
}

/* ---- Threads and queues ---- */

static _Thread_local int thread_track_id;
static char **thread_names;
static int thread_count;

/* This thread's track, numbered on first use. */
static int thread_track(void)
{
    if (thread_track_id)
        return thread_track_id;
    char **grown = realloc(thread_names, (size_t)(thread_count + 2) * sizeof *grown);
    if (!grown)
        return 1;
    thread_names = grown;
    char name[48];
    if (syscall(SYS_gettid) == getpid())
        snprintf(name, sizeof name, "main thread");
    else
        snprintf(name, sizeof name, "host thread %d", thread_count + 1);
    thread_names[thread_count + 1] = strdup(name);
    thread_track_id = ++thread_count;
    return thread_track_id;
}


static tl_queue *queues;
static int queue_count;
static char **acc_names;
static size_t acc_capacity;

int amp__tl_queue(const void *key, size_t acc_index, const char *acc_name, const char *view_kind,
                  int transfer, int *first)
{
    LOCK_ASSERT_HELD();
    *first = 0;
    for (int i = queue_count - 1; i >= 0; i--)
        if (queues[i].key == key)
            return i + 1;
    if (acc_index >= acc_capacity) {
        size_t cap = acc_index + 8;
        char **grown = realloc(acc_names, cap * sizeof *grown);
        if (!grown)
            return 0;
        for (size_t i = acc_capacity; i < cap; i++)
            grown[i] = NULL;
        acc_names = grown;
        acc_capacity = cap;
    }
    if (!acc_names[acc_index]) {
        char name[200];
        snprintf(name, sizeof name, "accelerator %zu: %s", acc_index, acc_name);
        acc_names[acc_index] = strdup(name);
        if (!acc_names[acc_index])
            return 0;
    }
    tl_queue *grown = realloc(queues, (size_t)(queue_count + 1) * sizeof *grown);
    if (!grown)
        return 0;
    queues = grown;
    tl_queue *q = &queues[queue_count];
    memset(q, 0, sizeof *q);
    char name[96];
    if (transfer)
        snprintf(name, sizeof name, "transfer queue");
    else
        snprintf(name, sizeof name, "view %d (%s)", queue_count + 1, view_kind);
    q->name = strdup(name);
    if (!q->name)
        return 0;
    q->key = key;
    q->acc = acc_index;
    q->transfer = transfer;
    *first = 1;
    return ++queue_count;
}

void amp__tl_queue_offset(int queue, int64_t offset)
{
    LOCK_ASSERT_HELD();
    if (queue >= 1 && queue <= queue_count) {
        queues[queue - 1].offset = offset;
        queues[queue - 1].offset_known = 1;
    }
}

void amp__tl_forget_queues(void)
{
    LOCK_ASSERT_HELD();
    for (int i = 0; i < queue_count; i++)
        queues[i].key = NULL;
}

/* ---- Kernels' descriptions, shared by equal launches ---- */


static tl_desc *descs;

/* The key of a launch's description: its numbers and the addresses of its
 * strings and views (a handle's address is never another handle's; a
 * string's, compared on a hit, may be another string's after a free).
 * Only the first nrefs refs are part of it. */
typedef struct desc_key {
    const char *name, *file, *mode;
    int line, rank, tile_rank, checked, nrefs;
    int extent[AMP_MAX_RANK], original[AMP_MAX_RANK], tile[AMP_MAX_TILE_RANK];
    tl_ref refs[AMP_MAX_CAPTURES];
} desc_key;

static size_t desc_key_of(const tl_kernel *k, desc_key *key)
{
    int nrefs = k->nrefs < AMP_MAX_CAPTURES ? k->nrefs : AMP_MAX_CAPTURES;
    size_t n = offsetof(desc_key, refs) + (size_t)nrefs * sizeof key->refs[0];
    memset(key, 0, n); /* the padding too: the key is compared as bytes */
    key->name = k->name;
    key->file = k->file;
    key->mode = k->mode;
    key->line = k->line;
    key->rank = k->rank < AMP_MAX_RANK ? k->rank : AMP_MAX_RANK;
    key->tile_rank = k->tile_rank < AMP_MAX_TILE_RANK ? k->tile_rank : AMP_MAX_TILE_RANK;
    key->checked = k->checked;
    key->nrefs = nrefs;
    for (int d = 0; d < key->rank; d++) {
        key->extent[d] = k->extent[d];
        key->original[d] = k->original ? k->original[d] : 0;
    }
    for (int d = 0; d < key->tile_rank; d++)
        key->tile[d] = k->tile[d];
    for (int i = 0; i < nrefs; i++) {
        key->refs[i].view = k->refs[i].view;
        key->refs[i].data = k->refs[i].data;
        key->refs[i].name = k->refs[i].name;
        key->refs[i].writes = k->refs[i].writes != 0;
        key->refs[i].texture = k->refs[i].texture;
        key->refs[i].texture_data = k->refs[i].texture_data;
    }
    return n;
}

static void name_view(tl_view *v, const char *name)
{
    if (v && name && !view_label[v->id])
        view_label[v->id] = intern(name);
}

static tl_desc *make_desc(const tl_kernel *k, const desc_key *key, size_t keylen)
{
    tl_desc *d = calloc(1, sizeof *d + (size_t)k->nrefs * sizeof d->refs[0]);
    if (!d)
        return NULL;
    d->key = malloc(keylen);
    if (!d->key) {
        free(d);
        return NULL;
    }
    memcpy(d->key, key, keylen);
    d->keylen = keylen;
    d->name = intern(k->name);
    d->file = intern(k->file);
    d->line = k->line;
    d->rank = key->rank;
    for (int i = 0; i < d->rank; i++) {
        d->extent[i] = k->extent[i];
        d->original[i] = k->original ? k->original[i] : k->extent[i];
    }
    d->tile_rank = key->tile_rank;
    for (int i = 0; i < d->tile_rank; i++)
        d->tile[i] = k->tile[i];
    d->mode = k->mode;
    d->checked = k->checked;
    for (int i = 0; i < key->nrefs; i++) {
        if (k->refs[i].texture) {
            uint32_t id = texture_id(k->refs[i].texture_data);
            if (id)
                d->refs[d->nrefs++] = (tl_desc_ref){0, 0, intern(k->refs[i].name),
                                                    k->refs[i].writes != 0, id};
            continue;
        }
        tl_view *v = view_of(k->refs[i].view, k->refs[i].data);
        name_view(v, k->refs[i].name);
        if (!v)
            continue; /* out of memory: the view is left out */
        d->refs[d->nrefs++] = (tl_desc_ref){v->id, v->data, intern(k->refs[i].name),
                                            k->refs[i].writes != 0, 0};
    }
    return d;
}

/* Whether d's strings are still those at the key's addresses. */
static int same_strings(const tl_desc *d, const tl_kernel *k)
{
    return strcmp(text_of(d->name) ? text_of(d->name) : "", k->name ? k->name : "") == 0 &&
           strcmp(text_of(d->file) ? text_of(d->file) : "", k->file ? k->file : "") == 0;
}

/* The descriptions used last, by their kernel name's address: a loop's
 * launch finds its own here without a lookup in the table. */
static tl_desc *recent_descs[RECENT];

static tl_desc *desc_of(const tl_kernel *k)
{
    desc_key key;
    size_t keylen = desc_key_of(k, &key);
    tl_desc **recent = &recent_descs[slot_of(k->name)];
    tl_desc *d = *recent;
    seen now = now_seen();
    if (d && d->keylen == keylen && memcmp(d->key, &key, keylen) == 0 &&
        (still(d->compared, now) || same_strings(d, k))) {
        d->compared = now;
        return d;
    }
    HASH_FIND(hh, descs, &key, keylen, d);
    if (d && !same_strings(d, k)) {
        /* A string freed and another made at its address: this key is
         * the new one's now (records keep the old description). */
        HASH_DEL(descs, d);
        d = NULL;
    }
    if (!d && (d = make_desc(k, &key, keylen)) != NULL)
        HASH_ADD_KEYPTR(hh, descs, d->key, keylen, d);
    if (d)
        d->compared = now;
    *recent = d;
    return d;
}

/* ---- Records ---- */


static tl_rec **blocks;
static uint32_t block_count, rec_count;
static uint64_t kept, dropped;
static int64_t first_dropped_ts;
static long long max_events;
static uint32_t next_id;
static int dirty;
/* Findings of AMP_CHECK made before their kernel is recorded (the check
 * runs inside the launch): the next kernel recorded claims them. */
static uint32_t *unclaimed;
static size_t unclaimed_count, unclaimed_capacity;

static const tl_rec no_record;

/* How many records ahead new_rec asks the cache for. */
#define TL_AHEAD 4

static tl_rec *rec_at(uint32_t i)
{
    return &blocks[i >> TL_BLOCK_SHIFT][i & (TL_BLOCK - 1)];
}

/* A block of records, its pages mapped now, in one system call where the
 * kernel has one (Linux 5.14): touched one by one as records fill it, each
 * page would cost a fault, and on a virtual machine a fault costs a few
 * microseconds, about what the launch itself costs. It is malloc's, so
 * that a leak checker sees the strings the records point to. Blocks are
 * kept for the life of the process. Huge pages were measured and left
 * out: on the H100's host they map a record's memory in 21 to 27 ns
 * against 46, but on the 2-core CPU machine the kernel compacts memory
 * for them first, 6 to 7 ms a block: 400 ns a record. */
static tl_rec *new_block(void)
{
    size_t bytes = TL_BLOCK * sizeof(tl_rec);
    tl_rec *block = malloc(bytes);
#ifdef MADV_POPULATE_WRITE
    long page = sysconf(_SC_PAGESIZE);
    if (block && page > 0) {
        uintptr_t start = ((uintptr_t)block + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
        uintptr_t end = ((uintptr_t)block + bytes) & ~((uintptr_t)page - 1);
        if (end > start) /* no harm where it fails: the pages come as they are written */
            (void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
    }
#endif
    return block;
}

/* Whether `weight` more events fit under the bound. */
static int fits(int weight)
{
    return !dropped && kept + (uint64_t)weight <= (uint64_t)max_events;
}

/* `weight` events not kept: counted, with the first dropped one's ts. */
static void drop(int weight, int64_t ts)
{
    if (!dropped)
        first_dropped_ts = ts;
    dropped += (uint64_t)weight;
    dirty = 1;
}

/* `weight` more events in the file, without a record of their own: kept
 * when they fit, else dropped. */
static int admit(int weight, int64_t ts)
{
    if (!fits(weight)) {
        drop(weight, ts);
        return 0;
    }
    kept += (uint64_t)weight;
    dirty = 1;
    return 1;
}

/* Room for one more record: a block is added when the last is full. */
static int room(void)
{
    if ((rec_count >> TL_BLOCK_SHIFT) < block_count)
        return 1;
    tl_rec **grown = realloc(blocks, (block_count + 1) * sizeof *grown);
    if (!grown)
        return 0;
    blocks = grown;
    blocks[block_count] = new_block();
    if (!blocks[block_count])
        return 0;
    block_count++;
    return 1;
}

/* A new record of `weight` events in the file, or NULL: the timeline is
 * full (then it keeps what it has and counts what it drops) or out of
 * memory (counted the same way). */
static tl_rec *new_rec(int kind, int weight, int64_t ts)
{
    if (!fits(weight) || !room()) {
        drop(weight, ts);
        return NULL;
    }
    kept += (uint64_t)weight;
    dirty = 1;
    uint32_t at = rec_count++;
    tl_rec *r = rec_at(at);
    /* The records a few launches on are asked for now: between two
     * launches the driver's work pushes them out of the cache, and a
     * record written to a line not in the cache waits for memory (on the
     * H100's host, amp / raw with the timeline on 1.091 to 1.123 with
     * this, 1.097 to 1.155 without, three runs each in turns). */
    if ((at & (TL_BLOCK - 1)) + TL_AHEAD < TL_BLOCK) {
        const char *ahead = (const char *)(r + TL_AHEAD);
        __builtin_prefetch(ahead, 1, 3);
        __builtin_prefetch(ahead + sizeof *r - 1, 1, 3);
    }
    /* Copied from a record of zeros rather than memset: for these 96
     * bytes gcc makes a memset a `rep stos`, whose start-up alone costs
     * more than six 16-byte stores. */
    *r = no_record;
    r->kind = (uint8_t)kind;
    r->ts = ts;
    return r;
}

void amp__tl_counts(uint64_t *kept_out, uint64_t *dropped_out)
{
    LOCK_ASSERT_HELD();
    *kept_out = kept;
    *dropped_out = dropped;
}

static uint32_t index_of(const tl_rec *r)
{
    return rec_count - 1 - (uint32_t)(rec_at(rec_count - 1) - r);
}

/* ---- Calls ---- */

static _Thread_local tl_call *current;

void amp__tl_call_begin(tl_call *c)
{
    LOCK_ASSERT_HELD();
    c->id = 0;
    c->outer = NULL;
    c->kernel = TL_NO_RECORD;
    /* A call inside a call (none today) is the outer one's work. */
    if (!amp__tl_active || current)
        return;
    c->id = ++next_id;
    c->began = amp__tl_now();
    current = c;
}

/* The call c, which queued the kernel of record c->kernel, kept in that
 * record: one event more in the file, admitted as a record's are. */
static void keep_in_kernel(const tl_call *c, const char *fn, amp_status st, int64_t end)
{
    if (!admit(1, c->began))
        return;
    tl_rec *k = rec_at(c->kernel);
    k->flags |= TLF_CALL;
    k->u.kernel.call.fn = fn;
    k->u.kernel.call.ts = c->began;
    k->u.kernel.call.dur = end - c->began;
    k->u.kernel.call.status = (int)st;
}

void amp__tl_call_end(tl_call *c, const char *fn, amp_status st, const tl_about *about)
{
    LOCK_ASSERT_HELD();
    if (!c->id)
        return;
    current = c->outer;
    if (!amp__tl_active)
        return;
    int64_t end = about && about->ended ? about->ended : amp__tl_now();
    if (c->kernel != TL_NO_RECORD) {
        keep_in_kernel(c, fn, st, end);
        return;
    }
    tl_rec *r = new_rec(TL_CALL, 1, c->began);
    if (!r)
        return;
    r->dur = end - c->began;
    r->id = c->id;
    r->tid = (uint16_t)thread_track();
    r->u.call.fn = fn;
    r->u.call.status = (int)st;
    if (about) {
        tl_view *v = view_of(about->view, about->data);
        if (v) {
            r->u.call.view = v->id;
            r->u.call.data = v->data;
        }
        r->u.call.site = intern(about->site_file);
        r->u.call.line = about->site_line;
        r->u.call.kernel = intern(about->kernel);
    }
}

/* ---- Views and data ---- */

void amp__tl_view_created(const void *view, const void *data, int rank, const int *dims,
                          size_t element_bytes, const char *kind)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active)
        return;
    tl_rec *r = new_rec(TL_CREATED, 1, amp__tl_now());
    tl_view *v = r ? view_of(view, data) : NULL;
    if (!v) {
        if (r)
            r->kind = TL_MARK, r->u.mark.name = NULL; /* written as nothing */
        return;
    }
    r->tid = (uint16_t)thread_track();
    r->u.view.view = v->id;
    r->u.view.data = v->data;
    r->u.view.element_bytes = (uint32_t)element_bytes;
    r->u.view.rank = rank < AMP_MAX_RANK ? rank : AMP_MAX_RANK;
    for (int d = 0; d < r->u.view.rank; d++)
        r->u.view.dims[d] = dims[d];
    r->u.view.kind = kind;
}

void amp__tl_view_released(const void *view, int last)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active)
        return;
    tl_view *v = view_of(view, NULL);
    if (!v)
        return; /* never seen: nothing to say which data it was */
    tl_rec *r = new_rec(TL_RELEASED, 1, amp__tl_now());
    if (!r)
        return;
    r->tid = (uint16_t)thread_track();
    r->u.view.view = v->id;
    r->u.view.data = v->data;
    r->flags = last ? TLF_LAST : 0;
}

void amp__tl_focus(const void *view, const void *data, const char *name)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active || dropped)
        return;
    tl_view *v = view_of(view, data);
    if (!v)
        return;
    name_view(v, name);
    tl_data *d = data_of(data, 0);
    if (d && d->id == v->data)
        d->view = v->id;
}

void amp__tl_where(const void *data, double host, double device)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active)
        return;
    /* Data made before the timeline started is met here first, during the
     * launch that writes it, before the launch names its views. */
    tl_data *d = data_of(data, 1);
    if (!d || (d->where_known && d->host == host && d->device == device))
        return;
    tl_rec *r = new_rec(TL_WHERE, 1, amp__tl_now());
    if (!r)
        return;
    d->where_known = 1;
    d->host = host;
    d->device = device;
    r->u.where.data = d->id;
    r->u.where.host = (float)host;
    r->u.where.device = (float)device;
}

void amp__tl_data_end(const void *data)
{
    LOCK_ASSERT_HELD();
    tl_data *d = data_of(data, 0);
    if (!d)
        return;
    HASH_DEL(datas, d);
    free(d);
}

void amp__tl_texture_end(const void *texture)
{
    LOCK_ASSERT_HELD();
    tl_texture *x = NULL;
    HASH_FIND_PTR(textures, &texture, x);
    if (!x)
        return;
    HASH_DEL(textures, x);
    free(x);
}

/* ---- Work on queues ---- */

/* A kernel's record, described by desc; TL_NO_RECORD when the timeline is
 * full, or had no memory for the description (desc NULL: dropped as a
 * full timeline drops it). The findings of AMP_CHECK made before it are
 * claimed by it. */
static uint32_t kernel_record(const tl_desc *desc, int queue, tl_timing timing, int64_t began,
                              int64_t queued)
{
    int weight = current ? 3 : 1; /* the kernel, and the flow from its call */
    tl_rec *r = NULL;
    if (!desc)
        drop(weight, queued);
    else
        r = new_rec(TL_KERNEL, weight, queued);
    if (!r) {
        unclaimed_count = 0; /* their kernel is not in the file: nor are they */
        return TL_NO_RECORD;
    }
    r->queued = queued;
    /* The device's times place it no earlier than its launch began (the
     * call's begin once the record keeps the call, the same moment). */
    r->u.kernel.call.ts = began;
    r->id = ++next_id;
    r->call_id = current ? current->id : 0;
    r->call_tid = current ? (uint16_t)thread_track() : 0;
    r->tid = (uint16_t)queue;
    r->flags = timing == TL_DEVICE_TIMED  ? TLF_PENDING | TLF_DEVICE
               : timing == TL_NOT_SAMPLED ? TLF_UNSAMPLED
                                          : 0;
    r->u.kernel.desc = desc;
    uint32_t self = rec_count - 1; /* r, the newest */
    if (current && current->kernel == TL_NO_RECORD)
        current->kernel = self;
    for (size_t i = 0; i < unclaimed_count; i++) {
        tl_rec *f = rec_at(unclaimed[i]);
        f->u.check.kernel = self;
        f->tid = r->tid;
    }
    unclaimed_count = 0;
    return self;
}

const struct tl_desc *amp__tl_describe(const tl_kernel *k)
{
    LOCK_ASSERT_HELD();
    /* Described only when its record fits: a full timeline keeps no more. */
    return amp__tl_active && fits(current ? 3 : 1) ? desc_of(k) : NULL;
}

uint32_t amp__tl_launch_kernel(tl_call *c, const struct tl_desc *desc, int queue, tl_timing timing,
                               int64_t began, int64_t queued, const char *fn, amp_status st)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active)
        return TL_NO_RECORD;
    uint32_t self = kernel_record(desc, queue, timing, began, queued);
    if (self != TL_NO_RECORD && c->id && current == c && c->kernel == self) {
        /* The call ends with its kernel queued: kept in the kernel's
         * record, as amp__tl_call_end would keep it, without a second
         * pass over the call. */
        current = c->outer;
        keep_in_kernel(c, fn, st, queued);
        c->id = 0;
    }
    return self;
}

void amp__tl_kernel_span(uint32_t record, uint64_t start, uint64_t end, int ok)
{
    LOCK_ASSERT_HELD();
    if (record >= rec_count)
        return;
    tl_rec *r = rec_at(record);
    if (r->kind != TL_KERNEL)
        return;
    dirty = 1;
    if (ok && end >= start) {
        r->ts = (int64_t)start;
        r->dur = (int64_t)(end - start);
        r->flags = (r->flags & TLF_CALL) | TLF_RAW | TLF_DEVICE;
    } else {
        r->ts = r->queued;
        r->dur = 0;
        r->flags &= TLF_CALL;
    }
}

void amp__tl_transfer(const tl_transfer *t)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active)
        return;
    tl_rec *r = new_rec(TL_TRANSFER, current ? 3 : 1, t->began);
    if (!r)
        return;
    r->queued = t->began;
    r->id = ++next_id;
    r->call_id = current ? current->id : 0;
    r->call_tid = current ? (uint16_t)thread_track() : 0;
    r->tid = (uint16_t)t->queue;
    r->u.transfer.bytes = t->bytes;
    r->u.transfer.dir = (uint8_t)t->dir;
    r->u.transfer.reason = (uint8_t)t->reason;
    r->u.transfer.av = (uint16_t)(t->view ? t->view : t->queue);
    r->u.transfer.path = t->path;
    if (t->device && t->end >= t->start) {
        r->ts = (int64_t)t->start;
        r->dur = (int64_t)(t->end - t->start);
        r->flags = TLF_RAW | TLF_DEVICE;
    } else {
        r->dur = t->ended > t->began ? t->ended - t->began : 0;
    }
    if (t->texture) {
        r->u.transfer.texture = texture_id(t->texture);
        r->u.transfer.label = intern(t->label ? t->label : "texture");
        return;
    }
    tl_data *d = data_of(t->data, 1);
    if (!d)
        return;
    uint32_t view = d->view;
    if (!view) {
        /* No view of it was seen since the timeline started: a number of
         * its own, so that its transfers still name one. */
        if (!d->pseudo)
            d->pseudo = new_view_number(d->id);
        view = d->pseudo;
    }
    r->u.transfer.view = view;
    r->u.transfer.data = d->id;
    r->u.transfer.label = intern(t->label);
}

void amp__tl_finding(const char *problem, const char *args)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active)
        return;
    if (unclaimed_count == unclaimed_capacity) {
        size_t cap = unclaimed_capacity ? 2 * unclaimed_capacity : 8;
        uint32_t *grown = realloc(unclaimed, cap * sizeof *grown);
        if (!grown)
            return;
        unclaimed = grown;
        unclaimed_capacity = cap;
    }
    char *copy = strdup(args ? args : "");
    tl_rec *r = copy ? new_rec(TL_CHECK, 1, amp__tl_now()) : NULL;
    if (!r) {
        free(copy);
        return;
    }
    r->u.check.kernel = TL_NO_RECORD;
    r->u.check.problem = problem;
    r->u.check.args = copy;
    unclaimed[unclaimed_count++] = index_of(r);
}

/* ---- Switching ---- */

static char *file_path;
static int ever_on;
static int owner;
static int64_t zero;

static void write_at_exit(void)
{
    /* Inside the library (exit() from a callback): the records may be half
     * made. */
    if (amp__lock_held())
        return;
    amp__lock_acquire();
    if (amp__tl_write_changes() != AMP_OK)
        amp__tl_say_write_error();
    amp__lock_release();
}

amp_status amp__tl_write_changes(void)
{
    LOCK_ASSERT_HELD();
    return dirty ? amp__tl_write() : AMP_OK;
}

int amp__tl_wants_profiling(void)
{
    return ever_on;
}

int amp__tl_has_file(void)
{
    return file_path != NULL;
}

static void mark(const char *name)
{
    tl_rec *r = new_rec(TL_MARK, 1, amp__tl_now());
    if (r)
        r->u.mark.name = name;
}

amp_status amp__tl_start(const char *path)
{
    LOCK_ASSERT_HELD();
    if (path && !*path)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "amp_timeline_start: the path is empty: pass a file's path, such as"
                            " \"run.json\".");
    if (path && (!file_path || strcmp(path, file_path) != 0)) {
        char *copy = strdup(path);
        if (!copy)
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory starting the"
                                                         " timeline.");
        free(file_path);
        file_path = copy;
    }
    if (!file_path)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "amp_timeline_start: no file to write the timeline to: pass its"
                            " path, or set AMP_TIMELINE=FILE.json.");
    if (amp__tl_active)
        return AMP_OK;
    if (!ever_on) {
        ever_on = 1;
        owner = (int)getpid();
        zero = amp__tl_now();
        max_events = amp__env_timeline_max_events(TL_DEFAULT_MAX_EVENTS);
        atexit(write_at_exit);
    } else {
        amp__tl_active = 1;
        mark("timeline started");
    }
    amp__tl_active = 1;
    dirty = 1;
    return AMP_OK;
}

void amp__tl_stop(void)
{
    LOCK_ASSERT_HELD();
    if (!amp__tl_active)
        return;
    mark("timeline stopped");
    amp__tl_active = 0;
}

/* AMP_TIMELINE starts the timeline as the library is loaded, so that it
 * holds the program's first call. */
__attribute__((constructor)) static void start_from_environment(void)
{
    const char *path = amp__env_timeline();
    if (!path)
        return;
    amp__lock_acquire();
    (void)amp__tl_start(path);
    amp__lock_release();
}

/* ---- What the writer reads (timeline_records.h) ---- */

void amp__tlr_store(tl_store *out)
{
    LOCK_ASSERT_HELD();
    *out = (tl_store){.blocks = blocks,
                      .rec_count = rec_count,
                      .next_id = next_id,
                      .data_count = data_count,
                      .view_count = view_count,
                      .view_label = view_label,
                      .string_texts = string_texts,
                      .thread_names = thread_names,
                      .thread_count = thread_count,
                      .queues = queues,
                      .queue_count = queue_count,
                      .acc_names = acc_names,
                      .acc_capacity = acc_capacity,
                      .zero = zero,
                      .first_dropped_ts = first_dropped_ts,
                      .dropped = dropped,
                      .max_events = max_events,
                      .file_path = file_path,
                      .owner = owner};
}

void amp__tlr_written(void)
{
    LOCK_ASSERT_HELD();
    dirty = 0;
}
