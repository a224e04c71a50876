/*
 * runtime/core/timeline_file.c - the timeline's file, written from its
 * records (timeline_records.h): trace-event JSON as docs/timeline.md
 * defines it, every event in ts order, written beside the file and renamed
 * over it.
 */
#define _GNU_SOURCE /* program_invocation_short_name */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <amp/version.h>

#include "core/env.h"
#include "core/json.h"
#include "core/lock.h"
#include "core/strbuf.h"
#include "core/timeline.h"
#include "core/timeline_records.h"

/* The records as this write sees them. */
static tl_store S;

static const tl_rec *rec_at(uint32_t i)
{
    return &S.blocks[i >> TL_BLOCK_SHIFT][i & (TL_BLOCK - 1)];
}

static const char *text_of(uint32_t id)
{
    return id ? S.string_texts[id] : NULL;
}

/* Why the last write failed. */
/* The last write's failure, and the last one said on stderr (cleared by a
 * write that succeeds, so that a failure again is said again). Two paths
 * of PATH_MAX fit. */
static char write_error[9000];
static char said_error[sizeof write_error];

const char *amp__tl_write_error(void)
{
    return write_error;
}

void amp__tl_say_write_error(void)
{
    LOCK_ASSERT_HELD();
    if (strcmp(said_error, write_error) == 0)
        return;
    memcpy(said_error, write_error, sizeof said_error);
    fprintf(stderr, "[amp] %s\n", write_error);
}

/* What each failure to write the file says to do. */
#define WRITE_ADVICE                                                                               \
    " Give AMP_TIMELINE (or amp_timeline_start) a file in a folder that can be written, such"      \
    " as run.json."

/* ---- Writing ---- */

/* One event of the file: a record's main event, its flow's start or
 * finish, or the call a kernel's record holds (TLF_CALL). */
enum { PART_MAIN, PART_FLOW_START, PART_FLOW_END, PART_CALL };

typedef struct tl_item {
    int64_t ts, dur;
    uint32_t rec;
    uint8_t part;
} tl_item;

static int by_time(const void *a, const void *b)
{
    const tl_item *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    if (x->dur != y->dur)
        return x->dur > y->dur ? -1 : 1; /* an enclosing event before what it encloses */
    if (x->rec != y->rec)
        return x->rec < y->rec ? -1 : 1;
    return x->part < y->part ? -1 : x->part > y->part;
}

/* What one write works out before it writes. */
typedef struct plan {
    int64_t *placed;     /* each work record's ts on the host's clock */
    uint32_t *kernel_of; /* each call's kernel record + 1, by the call's id */
    uint8_t *shown;      /* each record is written */
    uint8_t *mentioned;  /* each data number appears in an event besides where */
    uint8_t *threads, *queues, *pids;
    tl_item *items;
    size_t count;
} plan;

static int is_work(const tl_rec *r)
{
    return r->kind == TL_KERNEL || r->kind == TL_TRANSFER;
}

/* The earliest moment a record's work can have started: a kernel, when
 * its launch began (a driver may start it before its enqueue returns); a
 * transfer, when it was queued. */
static int64_t earliest(const tl_rec *r)
{
    return r->kind == TL_KERNEL ? r->u.kernel.call.ts : r->queued;
}

/* Device work on the host's clock: never before it could start, and in
 * order on its queue, each after the one before (docs/timeline.md,
 * "Time"). A kernel whose times are not known yet is left for a later
 * write. */
static void place_work(plan *p)
{
    int64_t *last_end = calloc((size_t)S.queue_count + 1, sizeof *last_end);
    for (uint32_t i = 0; i < S.rec_count; i++) {
        const tl_rec *r = rec_at(i);
        if (!is_work(r) || (r->flags & TLF_PENDING) || r->tid < 1 || r->tid > S.queue_count)
            continue;
        const tl_queue *q = &S.queues[r->tid - 1];
        int64_t ts = r->ts;
        if (r->flags & TLF_RAW)
            ts = q->offset_known ? r->ts + q->offset : r->queued;
        if (ts < earliest(r))
            ts = earliest(r);
        if (last_end && ts < last_end[r->tid])
            ts = last_end[r->tid];
        if (last_end)
            last_end[r->tid] = ts + r->dur;
        p->placed[i] = ts;
        p->shown[i] = 1;
    }
    free(last_end);
}

static void mention(plan *p, uint32_t data)
{
    if (data && data <= S.data_count)
        p->mentioned[data] = 1;
}

static int add_item(plan *p, int64_t ts, int64_t dur, uint32_t rec, int part)
{
    p->items[p->count++] = (tl_item){ts, dur, rec, (uint8_t)part};
    return 1;
}

/* Which records are written, and their events in ts order. */
static int make_plan(plan *p)
{
    memset(p, 0, sizeof *p);
    size_t n = S.rec_count ? S.rec_count : 1;
    p->placed = calloc(n, sizeof *p->placed);
    p->shown = calloc(n, 1);
    p->mentioned = calloc((size_t)S.data_count + 1, 1);
    p->threads = calloc((size_t)S.thread_count + 1, 1);
    p->queues = calloc((size_t)S.queue_count + 1, 1);
    p->pids = calloc(S.acc_capacity + 1, 1);
    p->items = malloc(4 * n * sizeof *p->items);
    p->kernel_of = calloc((size_t)S.next_id + 1, sizeof *p->kernel_of);
    if (!p->placed || !p->shown || !p->mentioned || !p->threads || !p->queues || !p->pids ||
        !p->items || !p->kernel_of)
        return 0;
    for (uint32_t i = 0; i < S.rec_count; i++)
        if (rec_at(i)->kind == TL_KERNEL && rec_at(i)->call_id <= S.next_id)
            p->kernel_of[rec_at(i)->call_id] = i + 1;
    place_work(p);
    for (uint32_t i = 0; i < S.rec_count; i++) {
        const tl_rec *r = rec_at(i);
        switch (r->kind) {
        case TL_CALL:
            p->shown[i] = 1;
            mention(p, r->u.call.data);
            break;
        case TL_KERNEL:
            for (int k = 0; p->shown[i] && k < r->u.kernel.desc->nrefs; k++)
                mention(p, r->u.kernel.desc->refs[k].data);
            break;
        case TL_TRANSFER:
            if (p->shown[i])
                mention(p, r->u.transfer.data);
            break;
        case TL_CREATED:
        case TL_RELEASED:
            p->shown[i] = 1;
            mention(p, r->u.view.data);
            break;
        case TL_CHECK:
            /* Kernels were placed above, before every other record. */
            p->shown[i] = r->u.check.kernel < S.rec_count && p->shown[r->u.check.kernel];
            break;
        case TL_MARK: p->shown[i] = r->u.mark.name != NULL; break;
        default: break;
        }
    }
    for (uint32_t i = 0; i < S.rec_count; i++) {
        const tl_rec *r = rec_at(i);
        if (r->kind == TL_WHERE)
            p->shown[i] = r->u.where.data <= S.data_count && p->mentioned[r->u.where.data];
        /* A kernel's call is written before its device times are known. */
        if (r->kind == TL_KERNEL && (r->flags & TLF_CALL)) {
            add_item(p, r->u.kernel.call.ts, r->u.kernel.call.dur, i, PART_CALL);
            p->threads[r->call_tid] = 1;
        }
        if (!p->shown[i])
            continue;
        switch (r->kind) {
        case TL_KERNEL:
        case TL_TRANSFER:
            add_item(p, p->placed[i], r->dur, i, PART_MAIN);
            p->queues[r->tid] = 1;
            p->pids[S.queues[r->tid - 1].acc] = 1;
            if (r->call_id) {
                /* Where it was queued; a kernel that the device began
                 * before its enqueue returned, where it began. */
                int64_t from = r->queued < p->placed[i] ? r->queued : p->placed[i];
                add_item(p, from, 0, i, PART_FLOW_START);
                add_item(p, p->placed[i], 0, i, PART_FLOW_END);
                p->threads[r->call_tid] = 1;
            }
            break;
        case TL_CHECK: {
            const tl_rec *k = rec_at(r->u.check.kernel);
            uint32_t ki = r->u.check.kernel;
            add_item(p, p->placed[ki] + k->dur, 0, i, PART_MAIN);
            break;
        }
        case TL_CALL:
        case TL_CREATED:
        case TL_RELEASED:
            p->threads[r->tid] = 1;
            add_item(p, r->ts, r->dur, i, PART_MAIN);
            break;
        default: add_item(p, r->ts, r->dur, i, PART_MAIN); break;
        }
    }
    qsort(p->items, p->count, sizeof *p->items, by_time);
    return 1;
}

static void free_plan(plan *p)
{
    free(p->placed);
    free(p->shown);
    free(p->mentioned);
    free(p->threads);
    free(p->queues);
    free(p->pids);
    free(p->items);
    free(p->kernel_of);
}

/* ---- The events as JSON ---- */

static void head(strbuf *sb, const char *ph, const char *cat, const char *name, int pid, int tid,
                 int64_t ts)
{
    amp__sb_printf(sb, "{\"ph\": \"%s\", ", ph);
    if (ph[0] == 'i') /* instants: thread-scoped, or global on tid 0 */
        amp__sb_printf(sb, "\"s\": \"%s\", ", tid ? "t" : "g");
    if (cat)
        amp__sb_printf(sb, "\"cat\": \"%s\", ", cat);
    amp__sb_append(sb, "\"name\": ");
    amp__json_string(sb, name);
    amp__sb_printf(sb, ", \"pid\": %d, \"tid\": %d, \"ts\": ", pid, tid);
    amp__json_micros(sb, ts - S.zero);
}

static void view_ref(strbuf *sb, const tl_desc_ref *r)
{
    amp__sb_append(sb, "{\"name\": ");
    const char *name = text_of(r->name);
    char fallback[32];
    if (!name) {
        snprintf(fallback, sizeof fallback, "view %u", r->view);
        name = fallback;
    }
    amp__json_string(sb, name);
    amp__sb_printf(sb, ", \"view_id\": %u, \"data_id\": %u}", r->view, r->data);
}

static void texture_ref(strbuf *sb, const tl_desc_ref *r)
{
    amp__sb_append(sb, "{\"name\": ");
    const char *name = text_of(r->name);
    amp__json_string(sb, name ? name : "texture");
    amp__sb_printf(sb, ", \"texture_id\": %u, \"writes\": %s}", r->texture,
                   r->writes ? "true" : "false");
}

static void site(strbuf *sb, int *first, uint32_t file, int line)
{
    if (!file)
        return;
    amp__json_key(sb, first, "site");
    char tail[24];
    snprintf(tail, sizeof tail, ":%d", line);
    strbuf s = STRBUF_INIT;
    amp__sb_append(&s, text_of(file));
    amp__sb_append(&s, tail);
    amp__json_string(sb, s.data);
    amp__sb_free(&s);
}

static int pid_of_queue(int tid)
{
    return 2 + (int)S.queues[tid - 1].acc;
}

static void kernel_event(strbuf *sb, const tl_rec *r, int64_t ts)
{
    const tl_desc *d = r->u.kernel.desc;
    head(sb, "X", "amp.kernel", text_of(d->name), pid_of_queue(r->tid), r->tid, ts);
    amp__sb_append(sb, ", \"dur\": ");
    amp__json_micros(sb, r->dur);
    int first = 1;
    amp__sb_append(sb, ", \"args\": {");
    amp__json_key(sb, &first, "id");
    amp__sb_printf(sb, "%u", r->id);
    amp__json_key(sb, &first, "call_id");
    amp__sb_printf(sb, "%u", r->call_id);
    amp__json_key(sb, &first, "kernel");
    amp__json_string(sb, text_of(d->name));
    site(sb, &first, d->file, d->line);
    amp__json_key(sb, &first, "accelerator_view");
    amp__sb_printf(sb, "%d", r->tid);
    amp__json_key(sb, &first, "extent");
    amp__json_ints(sb, d->extent, d->rank);
    amp__json_key(sb, &first, "tile");
    if (d->tile_rank)
        amp__json_ints(sb, d->tile, d->tile_rank);
    else
        amp__sb_append(sb, "null");
    amp__json_key(sb, &first, "mode");
    amp__json_string(sb, d->mode);
    if (strcmp(d->mode, "padded") == 0 || strcmp(d->mode, "truncated") == 0) {
        amp__json_key(sb, &first, "original");
        amp__json_ints(sb, d->original, d->rank);
    }
    for (int w = 0; w < 2; w++) {
        amp__json_key(sb, &first, w ? "writes" : "reads");
        amp__sb_append(sb, "[");
        int n = 0;
        for (int i = 0; i < d->nrefs; i++)
            if (!d->refs[i].texture && d->refs[i].writes == w) {
                if (n++)
                    amp__sb_append(sb, ", ");
                view_ref(sb, &d->refs[i]);
            }
        amp__sb_append(sb, "]");
    }
    /* Textures apart, so that a reader of view refs meets only those. */
    int textures = 0;
    for (int i = 0; i < d->nrefs; i++)
        if (d->refs[i].texture) {
            if (!textures++) {
                amp__json_key(sb, &first, "textures");
                amp__sb_append(sb, "[");
            } else {
                amp__sb_append(sb, ", ");
            }
            texture_ref(sb, &d->refs[i]);
        }
    if (textures)
        amp__sb_append(sb, "]");
    amp__json_key(sb, &first, "timed");
    amp__json_string(sb, (r->flags & TLF_DEVICE) ? "device" : "host");
    if (r->flags & TLF_UNSAMPLED) {
        amp__json_key(sb, &first, "sampled");
        amp__sb_append(sb, "false");
    }
    if (d->checked) {
        amp__json_key(sb, &first, "check");
        amp__sb_append(sb, "true");
    }
    amp__sb_append(sb, "}}");
}

static const char *const direction_names[] = {"host_to_device", "device_to_host",
                                              "device_to_device"};
static const char *const transfer_names[] = {"upload", "download", "copy"};
/* The ledger's reasons, as amp_transfer_reason_name spells them (that is
 * the data layer's, above this one). */
static const char *const reason_names[] = {"kernel", "host access", "synchronize", "release",
                                           "copy"};

/* The view a transfer names: for a launch's upload, the captured view of
 * the kernel it was for; else the view of its data used last. */
static const tl_desc_ref *launch_view(const plan *p, const tl_rec *r)
{
    uint32_t k = r->call_id ? p->kernel_of[r->call_id] : 0;
    const tl_desc *d = k ? rec_at(k - 1)->u.kernel.desc : NULL;
    for (int i = 0; d && i < d->nrefs; i++)
        if (d->refs[i].data == r->u.transfer.data)
            return &d->refs[i];
    return NULL;
}

static void transfer_event(strbuf *sb, const plan *p, const tl_rec *r, int64_t ts)
{
    int dir = r->u.transfer.dir < 3 ? r->u.transfer.dir : 0;
    head(sb, "X", "amp.transfer", transfer_names[dir], pid_of_queue(r->tid), r->tid, ts);
    amp__sb_append(sb, ", \"dur\": ");
    amp__json_micros(sb, r->dur);
    int first = 1;
    amp__sb_append(sb, ", \"args\": {");
    amp__json_key(sb, &first, "id");
    amp__sb_printf(sb, "%u", r->id);
    const tl_desc_ref *ref = r->u.transfer.texture ? NULL : launch_view(p, r);
    uint32_t view = ref ? ref->view : r->u.transfer.view;
    amp__json_key(sb, &first, "view");
    const char *label = text_of(r->u.transfer.label);
    if (!label && ref)
        label = text_of(ref->name);
    if (!label && view <= S.view_count)
        label = text_of(S.view_label[view]);
    char fallback[32];
    if (!label) {
        snprintf(fallback, sizeof fallback, "view %u", view);
        label = fallback;
    }
    amp__json_string(sb, label);
    if (r->u.transfer.texture) {
        amp__json_key(sb, &first, "texture_id");
        amp__sb_printf(sb, "%u", r->u.transfer.texture);
    } else {
        amp__json_key(sb, &first, "view_id");
        amp__sb_printf(sb, "%u", view);
        amp__json_key(sb, &first, "data_id");
        amp__sb_printf(sb, "%u", r->u.transfer.data);
    }
    amp__json_key(sb, &first, "bytes");
    amp__sb_printf(sb, "%llu", (unsigned long long)r->u.transfer.bytes);
    amp__json_key(sb, &first, "direction");
    amp__json_string(sb, direction_names[dir]);
    amp__json_key(sb, &first, "reason");
    amp__json_string(sb, reason_names[r->u.transfer.reason < 5 ? r->u.transfer.reason : 4]);
    if (r->call_id) {
        amp__json_key(sb, &first, "call_id");
        amp__sb_printf(sb, "%u", r->call_id);
    }
    amp__json_key(sb, &first, "accelerator_view");
    amp__sb_printf(sb, "%u", (unsigned)r->u.transfer.av);
    amp__json_key(sb, &first, "timed");
    amp__json_string(sb, (r->flags & TLF_DEVICE) ? "device" : "host");
    if (r->u.transfer.path) {
        amp__json_key(sb, &first, "path");
        amp__json_string(sb, r->u.transfer.path);
    }
    amp__sb_append(sb, "}}");
}

/* What a call's event says: from its own record, or from the kernel
 * record that holds it (TLF_CALL), named by the kernel it queued. */
typedef struct call_facts {
    const char *fn;
    int tid;
    int64_t ts, dur;
    uint32_t id;
    int status;
    uint32_t site, kernel, view, data;
    int line;
} call_facts;

static call_facts call_of(const tl_rec *r)
{
    if (r->kind == TL_KERNEL) {
        const tl_desc *d = r->u.kernel.desc;
        return (call_facts){.fn = r->u.kernel.call.fn,
                            .tid = r->call_tid,
                            .ts = r->u.kernel.call.ts,
                            .dur = r->u.kernel.call.dur,
                            .id = r->call_id,
                            .status = r->u.kernel.call.status,
                            .site = d->file,
                            .kernel = d->name,
                            .line = d->line};
    }
    return (call_facts){.fn = r->u.call.fn,
                        .tid = r->tid,
                        .ts = r->ts,
                        .dur = r->dur,
                        .id = r->id,
                        .status = r->u.call.status,
                        .site = r->u.call.site,
                        .kernel = r->u.call.kernel,
                        .view = r->u.call.view,
                        .data = r->u.call.data,
                        .line = r->u.call.line};
}

/* The event of the call that record r is or holds. */
static void call_event(strbuf *sb, const tl_rec *r)
{
    call_facts c = call_of(r);
    head(sb, "X", "amp.call", c.fn, 1, c.tid, c.ts);
    amp__sb_append(sb, ", \"dur\": ");
    amp__json_micros(sb, c.dur);
    int first = 1;
    amp__sb_append(sb, ", \"args\": {");
    amp__json_key(sb, &first, "id");
    amp__sb_printf(sb, "%u", c.id);
    amp__json_key(sb, &first, "status");
    amp__json_string(sb, amp_status_name((amp_status)c.status));
    site(sb, &first, c.site, c.line);
    if (c.kernel) {
        amp__json_key(sb, &first, "kernel");
        amp__json_string(sb, text_of(c.kernel));
    }
    if (c.view) {
        amp__json_key(sb, &first, "view_id");
        amp__sb_printf(sb, "%u", c.view);
        amp__json_key(sb, &first, "data_id");
        amp__sb_printf(sb, "%u", c.data);
    }
    amp__sb_append(sb, "}}");
}

static void view_event(strbuf *sb, const tl_rec *r)
{
    int created = r->kind == TL_CREATED;
    head(sb, "i", "amp.view", created ? "view created" : "view released", 1, r->tid, r->ts);
    amp__sb_printf(sb, ", \"args\": {\"view_id\": %u, \"data_id\": %u", r->u.view.view,
                   r->u.view.data);
    if (created) {
        int64_t dims[AMP_MAX_RANK];
        for (int d = 0; d < r->u.view.rank; d++)
            dims[d] = r->u.view.dims[d];
        amp__sb_append(sb, ", \"extent\": ");
        amp__json_ints(sb, dims, r->u.view.rank);
        if (r->u.view.element_bytes)
            amp__sb_printf(sb, ", \"element_bytes\": %u", r->u.view.element_bytes);
        if (r->u.view.kind) {
            amp__sb_append(sb, ", \"kind\": ");
            amp__json_string(sb, r->u.view.kind);
        }
    } else {
        amp__sb_printf(sb, ", \"last\": %s", (r->flags & TLF_LAST) ? "true" : "false");
    }
    amp__sb_append(sb, "}}");
}

static void item_event(strbuf *sb, const plan *p, const tl_item *it)
{
    const tl_rec *r = rec_at(it->rec);
    if (it->part == PART_CALL) {
        call_event(sb, r);
        return;
    }
    if (it->part != PART_MAIN) {
        const char *name = r->kind == TL_KERNEL ? "launch" : "transfer";
        if (it->part == PART_FLOW_START) {
            head(sb, "s", "amp.flow", name, 1, r->call_tid, it->ts);
            amp__sb_printf(sb, ", \"id\": %u, \"args\": {}}", r->id);
        } else {
            head(sb, "f", "amp.flow", name, pid_of_queue(r->tid), r->tid, it->ts);
            amp__sb_printf(sb, ", \"id\": %u, \"bp\": \"e\", \"args\": {}}", r->id);
        }
        return;
    }
    switch (r->kind) {
    case TL_CALL: call_event(sb, r); break;
    case TL_KERNEL: kernel_event(sb, r, it->ts); break;
    case TL_TRANSFER: transfer_event(sb, p, r, it->ts); break;
    case TL_CREATED:
    case TL_RELEASED: view_event(sb, r); break;
    case TL_WHERE: {
        char name[32];
        snprintf(name, sizeof name, "data %u", r->u.where.data);
        head(sb, "C", "amp.where", name, 1, 0, r->ts);
        amp__sb_printf(sb, ", \"args\": {\"host\": %.6g, \"device\": %.6g}}",
                       (double)r->u.where.host, (double)r->u.where.device);
        break;
    }
    case TL_CHECK: {
        const tl_rec *k = rec_at(r->u.check.kernel);
        head(sb, "i", "amp.check", r->u.check.problem, pid_of_queue(k->tid), k->tid, it->ts);
        amp__sb_printf(sb, ", \"args\": {\"kernel_id\": %u%s%s}}", k->id,
                       r->u.check.args[0] ? ", " : "", r->u.check.args);
        break;
    }
    default:
        head(sb, "i", "amp.timeline", r->u.mark.name, 1, 0, r->ts);
        amp__sb_append(sb, ", \"args\": {}}");
        break;
    }
}

static void metadata(strbuf *sb, const char *name, int pid, int tid, const char *key,
                     const char *text, long long number)
{
    amp__sb_printf(sb,
                   "{\"ph\": \"M\", \"name\": \"%s\", \"pid\": %d, \"tid\": %d, \"ts\": 0,"
                   " \"args\": {",
                   name, pid, tid);
    amp__json_string(sb, key);
    amp__sb_append(sb, ": ");
    if (text)
        amp__json_string(sb, text);
    else
        amp__sb_printf(sb, "%lld", number);
}

static void write_metadata(strbuf *sb, const plan *p)
{
    metadata(sb, "process_name", 1, 0, "name", "host", 0);
    amp__sb_append(sb, "}},\n");
    metadata(sb, "process_sort_index", 1, 0, "sort_index", NULL, 0);
    amp__sb_append(sb, "}},\n");
    for (int t = 1; t <= S.thread_count; t++) {
        if (!p->threads[t])
            continue;
        metadata(sb, "thread_name", 1, t, "name", S.thread_names[t], 0);
        amp__sb_append(sb, "}},\n");
        metadata(sb, "thread_sort_index", 1, t, "sort_index", NULL, t);
        amp__sb_append(sb, "}},\n");
    }
    for (size_t a = 0; a < S.acc_capacity; a++) {
        if (!p->pids[a] || !S.acc_names[a])
            continue;
        int pid = 2 + (int)a;
        metadata(sb, "process_name", pid, 0, "name", S.acc_names[a], 0);
        amp__sb_append(sb, "}},\n");
        metadata(sb, "process_sort_index", pid, 0, "sort_index", NULL, 1 + (long long)a);
        amp__sb_append(sb, "}},\n");
        for (int q = 1; q <= S.queue_count; q++) {
            if (!p->queues[q] || S.queues[q - 1].acc != a)
                continue;
            metadata(sb, "thread_name", pid, q, "name", S.queues[q - 1].name, 0);
            if (S.queues[q - 1].transfer)
                amp__sb_append(sb, ", \"queue\": \"transfer\"}},\n");
            else
                amp__sb_printf(sb, ", \"queue\": \"view\", \"accelerator_view\": %d}},\n", q);
            metadata(sb, "thread_sort_index", pid, q, "sort_index", NULL, q);
            amp__sb_append(sb, "}},\n");
        }
    }
}

static void other_data(strbuf *sb, size_t events)
{
    amp__sb_append(sb, "  \"otherData\": {\"format\": \"amp-timeline\", \"version\": 2, ");
    amp__sb_append(sb, "\"library\": \"amp " AMP_VERSION_STRING "\", ");
    amp__sb_append(sb, "\"clock\": \"host monotonic, microseconds since the timeline started\", ");
    amp__sb_printf(sb, "\"pid\": %d, \"max_events\": %lld, \"events\": %zu, \"dropped\": %llu, ",
                   (int)getpid(), S.max_events, events, (unsigned long long)S.dropped);
    amp__sb_printf(sb, "\"check\": %s, \"program\": ", amp__env_check() ? "true" : "false");
    amp__json_string(sb, program_invocation_short_name);
    amp__sb_append(sb, "},\n");
}

/* Write what sb holds to f and empty it; 0 when it could not. */
static int drain(strbuf *sb, FILE *f)
{
    if (amp__sb_failed(sb))
        return 0;
    int ok = !sb->length || fwrite(sb->data, 1, sb->length, f) == sb->length;
    sb->length = 0;
    if (sb->data)
        sb->data[0] = '\0';
    return ok;
}

static amp_status write_file(FILE *f, const plan *p)
{
    strbuf sb = STRBUF_INIT;
    size_t events = p->count + (S.dropped > 0);
    amp__sb_append(&sb, "{\n  \"displayTimeUnit\": \"ns\",\n");
    other_data(&sb, events);
    amp__sb_append(&sb, "  \"traceEvents\": [\n");
    write_metadata(&sb, p);
    int ok = drain(&sb, f);
    int64_t last_ts = 0;
    for (size_t i = 0; ok && i < p->count; i++) {
        item_event(&sb, p, &p->items[i]);
        last_ts = p->items[i].ts;
        amp__sb_append(&sb, i + 1 < p->count || S.dropped ? ",\n" : "\n");
        if (sb.length > 1 << 16)
            ok = drain(&sb, f);
    }
    if (ok && S.dropped) {
        head(&sb, "i", "amp.timeline", "events dropped", 1, 0,
             S.first_dropped_ts > last_ts ? S.first_dropped_ts : last_ts);
        amp__sb_printf(&sb, ", \"args\": {\"dropped\": %llu, \"max_events\": %lld}}\n",
                       (unsigned long long)S.dropped, S.max_events);
    }
    amp__sb_append(&sb, "  ]\n}\n");
    ok = ok && drain(&sb, f);
    /* Out of memory for the text, or the file refused it (errno: a full
     * disk, a quota). */
    amp_status st = ok ? AMP_OK : amp__sb_failed(&sb) ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_RUNTIME;
    amp__sb_free(&sb);
    return st;
}


amp_status amp__tl_write(void)
{
    LOCK_ASSERT_HELD();
    amp__tlr_store(&S);
    /* A process forked from the one that started it has a copy of its
     * records, not a timeline of its own: only the first writes. */
    if (!S.file_path || S.owner != (int)getpid())
        return AMP_OK;
    plan p;
    size_t n = strlen(S.file_path);
    char *tmp = malloc(n + 32);
    amp_status st = AMP_OK;
    FILE *f = NULL;
    if (!make_plan(&p) || !tmp) {
        st = AMP_ERROR_OUT_OF_MEMORY;
        snprintf(write_error, sizeof write_error, "Out of host memory writing the timeline to %s.",
                 S.file_path);
    }
    struct stat there;
    if (st == AMP_OK && stat(S.file_path, &there) == 0 && S_ISDIR(there.st_mode)) {
        st = AMP_ERROR_RUNTIME;
        snprintf(write_error, sizeof write_error,
                 "Cannot write the timeline: %s is a folder, not a file." WRITE_ADVICE,
                 S.file_path);
    }
    if (st == AMP_OK) {
        snprintf(tmp, n + 32, "%s.%d.tmp", S.file_path, (int)getpid());
        f = fopen(tmp, "w");
        if (!f) {
            st = AMP_ERROR_RUNTIME;
            snprintf(write_error, sizeof write_error,
                     "Cannot write the timeline: %s: %s." WRITE_ADVICE, tmp, strerror(errno));
        }
    }
    if (st == AMP_OK) {
        amp_status w = write_file(f, &p);
        int why = errno; /* the write's, or else the close's */
        int closed = fclose(f) == 0;
        if (w == AMP_OK)
            why = errno;
        if (w == AMP_ERROR_OUT_OF_MEMORY) {
            st = AMP_ERROR_RUNTIME;
            snprintf(write_error, sizeof write_error,
                     "Cannot write the timeline to %s: out of host memory.", tmp);
        } else if (w != AMP_OK || !closed) {
            st = AMP_ERROR_RUNTIME;
            snprintf(write_error, sizeof write_error,
                     "Cannot write the timeline to %s: %s." WRITE_ADVICE, tmp, strerror(why));
        } else if (rename(tmp, S.file_path) != 0) {
            st = AMP_ERROR_RUNTIME;
            snprintf(write_error, sizeof write_error,
                     "Cannot write the timeline: renaming %s to %s: %s." WRITE_ADVICE, tmp,
                     S.file_path, strerror(errno));
        }
        if (st != AMP_OK)
            remove(tmp);
    }
    if (st == AMP_OK) {
        amp__tlr_written();
        said_error[0] = '\0';
    }
    free(tmp);
    free_plan(&p);
    return st;
}
