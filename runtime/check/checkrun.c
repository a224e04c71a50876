/*
 * runtime/check/checkrun.c - AMP_CHECK's reports, at the user's lines.
 *
 * Oclgrind reports one record per pair of work-items for a race, so a race
 * in a 16x16 tile can be hundreds of records about one line. A learner
 * needs the line once, with its kind and the other access, and a count.
 */
#include "check/checkrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/finding.h"
#include "kernel/bind.h"
#include "translate/buildlog.h"
#include "core/error.h"
#include "core/limits.h"
#include "device/oclcheck.h"
#include "core/strbuf.h"
#include "data/view.h"

#define CHK_RECORD_INTS (CG_CHECK_SLOTS * CG_CHECK_WORDS)

/* The record checked kernels fill (codegen.h), reused from kernel to
 * kernel, in the context it was made in. */
static cl_mem record;
static cl_context record_context;

typedef struct problem {
    const ock_report *first; /* the first report of this kind at this place */
    bl_place at;             /* in the user's file; line 0 when outside their texts */
    bl_place other;
    size_t times;
    const char *view;   /* an access outside a view's extent: the view, or NULL */
    const char *noun;   /* and what the program captured: "view" or "array" */
    const cl_int *slot; /* and its record, when there is one */
    int padded;         /* by threads past the extent of a padded domain, racing */
    int between;        /* a race's two lines: the barrier written between them (BL_*) */
    int barrier_line;   /* and its line */
} problem;

static const char *category_text(ock_category c)
{
    switch (c) {
    case OCK_DATA_RACE: return "data race";
    case OCK_DIVERGENCE: return "barrier not reached by every thread of the tile";
    case OCK_INVALID_ACCESS: return "access out of bounds";
    case OCK_API_ERROR: return "OpenCL API error";
    case OCK_SUPPRESSED: return "too many errors";
    case OCK_OTHER: break;
    }
    return "problem";
}

/* What a learner should do about each kind. */
static const char *category_hint(ock_category c)
{
    switch (c) {
    case OCK_DATA_RACE:
        return "Two threads touch the same element and at least one writes it, with no barrier"
               " between them, or one whose fence leaves this memory out"
               " (wait_with_global_memory_fence does not order tile_static memory). Give each"
               " thread its own element, add a t_idx.barrier.wait() between the write and the"
               " read (in a loop, also one at the end of its body, before the next turn"
               " writes), or use an atomic.";
    case OCK_DIVERGENCE:
        return "Every thread of a tile must reach each barrier: move the barrier out of the"
               " branch or loop that only some threads take.";
    case OCK_INVALID_ACCESS:
        return "An index is outside the view or tile_static array: check the bounds, and guard"
               " the threads of a padded extent.";
    default: return NULL;
    }
}

/* Every thread of a tile writing one tile_static variable (scanBase = 0),
 * often the same value, before one thread updates it: the write-write race
 * is easy to wave away, but an optimizer may then keep the variable in a
 * register and never see the update. */
static const char shared_write_hint[] =
    "More than one thread of the tile writes this tile_static element. If each thread should"
    " have an element of its own, check the index it writes at (t_idx.local, every component);"
    " if they share one value (every thread writing one variable), let one thread write it (if"
    " (t_idx.local[0] == 0) ...), then t_idx.barrier.wait() before any thread reads it. The same"
    " value from every thread is still a race: the compiler may keep the variable in a register"
    " and miss another thread's later update.";

/* A race on a view's memory: between tiles, where no barrier orders
 * anything, or within one. */
static const char global_race_hint[] =
    "Two threads touch the same element of a view and at least one writes it. A barrier orders"
    " only the threads of one tile, so it cannot fix a race between tiles: give each thread its"
    " own element to write, or combine the values with an atomic (atomic_fetch_add) or in a"
    " second kernel. Within one tile, a t_idx.barrier.wait() (its fence covers views' memory)"
    " between the write and the read orders them.";

/* A race across a barrier that is written between its two lines: the
 * barrier orders one turn of a loop, and the race is between turns. */
static const char next_turn_hint[] =
    "A barrier already stands between the two lines: the race is between turns of the loop,"
    " one thread writing for its next turn while another still reads from the turn before."
    " Add a t_idx.barrier.wait() at the end of the loop's body, after the read, so that no"
    " thread starts a turn before every thread has finished the last.";

static const char global_fence_hint[] =
    "The barrier between the two lines waits with wait_with_global_memory_fence, whose fence"
    " leaves tile_static memory out: make it t_idx.barrier.wait() (or"
    " wait_with_tile_static_memory_fence).";

static const char view_hint[] =
    "Each index must be at least 0 and below the view's own extent in its dimension (a"
    " section's, not its parent's): check how the index is computed, and guard the threads"
    " that would go past an edge.";

static const char padded_hint[] =
    "A thread past the original extent of a padded domain may read outside a view (it reads"
    " an unspecified value), but its writes there are dropped onto one spare element that all"
    " such threads share. Guard the write: test t_idx.global against the view's extent first.";

/* Oclgrind's words for an access, as a verb for a view. */
static const char *access_verb(const char *kind)
{
    if (strncmp(kind, "Invalid read", 12) == 0)
        return "read";
    if (strncmp(kind, "Invalid write", 13) == 0)
        return "written";
    return "accessed";
}

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The position among gen's views of the view called name[0..n), or -1. */
static int view_named(const cg_kernel *gen, const char *name, size_t n)
{
    const char *v = gen->view_names;
    for (int i = 0; i < gen->nviews; i++, v += strlen(v) + 1)
        if (strlen(v) == n && memcmp(v, name, n) == 0)
            return i;
    return -1;
}

/* The view an access at (line, column) of the user's file goes through:
 * the simulator points at the accessor's name for a read, and at the '='
 * for a write, so the view named under the column, else the nearest one
 * called to its left on that line. -1 when there is none. */
static int view_near(const bl_source_map *map, const cg_kernel *gen, const bl_place *place)
{
    /* Only the body's accessors keep records. */
    if (place->text != map->body)
        return -1;
    int line = place->line, column = place->column;
    const char *p = amp__bl_file_text(map, place);
    for (int l = 1; p && l < line; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || column < 1)
        return -1;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    size_t at = (size_t)column - 1;
    int found = -1;
    for (size_t i = 0; i < len && i <= at;) {
        if (!is_name_char(p[i])) {
            i++;
            continue;
        }
        size_t end = i;
        while (end < len && is_name_char(p[end]))
            end++;
        int view = view_named(gen, p + i, end - i);
        if (view >= 0 && end > at)
            return view; /* under the column */
        size_t next = end;
        while (next < len && (p[next] == ' ' || p[next] == '\t'))
            next++;
        if (view >= 0 && next < len && p[next] == '(')
            found = view;
        i = end;
    }
    return found;
}

/* The record of an access at gen_line through view (any view when -1, if
 * only one has a record there), by a thread inside the extent (past = 0)
 * or past it (1). NULL when there is none, or more than one. */
static const cl_int *record_of(const cl_int *words, int gen_line, int view, int past)
{
    const cl_int *found = NULL;
    for (int s = 0; words && s < CG_CHECK_SLOTS; s++) {
        const cl_int *slot = words + s * CG_CHECK_WORDS;
        cl_int site = slot[CG_REC_SITE] - 1;
        if (site < 0 || (site & 1) != past || site / 2 / AMP_MAX_CAPTURES != gen_line)
            continue;
        if (view >= 0 && site / 2 % AMP_MAX_CAPTURES == view)
            return slot;
        if (view < 0 && found)
            return NULL;
        if (view < 0)
            found = slot;
    }
    return view < 0 ? found : NULL;
}

static const char *view_name(const cg_kernel *gen, int view)
{
    const char *name = gen->view_names;
    for (int v = 0; v < view; v++)
        name += strlen(name) + 1;
    return name;
}

/* What the program captured as the kernel's view number `view` (the
 * views in capture order): an array, captured by its whole view, or a
 * view. */
static const char *captured_noun(const amp_capture *items, int count, int view)
{
    for (int i = 0; i < count; i++)
        if (items[i].kind == AMP_CAPTURE_VIEW && view-- == 0)
            return items[i].value.view && items[i].value.view->array ? "array" : "view";
    return "view";
}

/* Which view an access out of bounds went outside of, or which view a race
 * of the threads past a padded domain's extent is about (they share its
 * spare element), with its record. Only global memory holds views; a
 * tile_static or private array, and a race of other threads, are left as
 * the simulator says. */
static void find_view(const bl_source_map *map, const cg_kernel *gen, const cl_int *words,
                      const amp_capture *items, int count, problem *p)
{
    const ock_report *r = p->first;
    int race = r->category == OCK_DATA_RACE;
    if (!gen || gen->nviews == 0 || (!race && r->category != OCK_INVALID_ACCESS) ||
        p->at.line == 0 || !strstr(r->kind, "global memory"))
        return;
    int view = view_near(map, gen, &p->at);
    p->slot = record_of(words, r->line, view, race);
    if (!p->slot && race && p->other.line > 0) {
        view = view_near(map, gen, &p->other);
        p->slot = record_of(words, r->other_line, view, 1);
    }
    /* Without a record the index was inside the extent (or the records
     * ran out): the simulator's words are all there is. */
    if (!p->slot)
        return;
    if (view < 0)
        view = (p->slot[CG_REC_SITE] - 1) / 2 % AMP_MAX_CAPTURES;
    if (view >= gen->nviews)
        return;
    p->view = view_name(gen, view);
    p->noun = captured_noun(items, count, view);
    p->padded = race;
}

/* "(a, b, c)" of n values. */
static void tuple(strbuf *sb, const long long *v, int n)
{
    amp__sb_append(sb, "(");
    for (int d = 0; d < n; d++)
        amp__sb_printf(sb, "%s%lld", d ? ", " : "", v[d]);
    amp__sb_append(sb, ")");
}

/* "view 'a' read at index (1, 16), outside its extent (4, 16), by thread
 * (1, 15)", from the report and its record; for the threads of a padding,
 * "threads past the extent of the padded domain access view 'a' outside
 * its extent (4, 16), the first at index (4, 0) by thread (4, 0)". */
static void describe_view_access(strbuf *msg, const problem *p, int domain_rank)
{
    const ock_report *r = p->first;
    const cl_int *slot = p->slot;
    int rank = slot[CG_REC_RANK] >= 1 && slot[CG_REC_RANK] <= AMP_MAX_RANK ? slot[CG_REC_RANK] : 1;
    long long index[AMP_MAX_RANK], extent[AMP_MAX_RANK], thread[AMP_MAX_RANK];
    for (int d = 0; d < AMP_MAX_RANK; d++) {
        index[d] = (long long)((uint64_t)(uint32_t)slot[CG_REC_INDEX + 2 * d] |
                               (uint64_t)(uint32_t)slot[CG_REC_INDEX + 2 * d + 1] << 32);
        extent[d] = slot[CG_REC_EXTENT + d];
        thread[d] = slot[CG_REC_THREAD + d];
    }
    if (domain_rank < 1 || domain_rank > AMP_MAX_RANK)
        domain_rank = 1;
    if (p->padded) {
        amp__sb_printf(msg,
                       "%s: threads past the extent of the padded domain access %s '%s' outside"
                       " its extent ",
                       category_text(r->category), p->noun, p->view);
        tuple(msg, extent, rank);
        amp__sb_append(msg, ", the first at index ");
        tuple(msg, index, rank);
        amp__sb_append(msg, " by thread ");
        tuple(msg, thread, domain_rank);
        if (p->times > 1)
            amp__sb_printf(msg, " (%zu times)", p->times);
        return;
    }
    amp__sb_printf(msg, "%s: %s '%s' %s at index ", category_text(r->category), p->noun, p->view,
                   access_verb(r->kind));
    tuple(msg, index, rank);
    amp__sb_append(msg, ", outside its extent ");
    tuple(msg, extent, rank);
    amp__sb_append(msg, p->times > 1 ? " (" : ", by thread ");
    if (p->times > 1)
        amp__sb_printf(msg, "%zu times; the first by thread ", p->times);
    tuple(msg, thread, domain_rank);
    if (p->times > 1)
        amp__sb_append(msg, ")");
}

static void map_report(const bl_source_map *map, int mapped, const ock_report *r, problem *p)
{
    memset(p, 0, sizeof *p);
    p->first = r;
    p->times = 1;
    if (!mapped)
        return;
    if (r->line > 0 && !amp__bl_map_find(map, r->file, strlen(r->file), r->line, r->column, &p->at))
        memset(&p->at, 0, sizeof p->at);
    if (r->other_line > 0 && !amp__bl_map_find(map, r->other_file, strlen(r->other_file),
                                               r->other_line, r->other_column, &p->other))
        memset(&p->other, 0, sizeof p->other);
}

static int same_place(const bl_place *a, const bl_place *b)
{
    return a->text == b->text && a->line == b->line && a->column == b->column;
}

static int same_problem(const problem *a, const problem *b)
{
    if (a->first->category != b->first->category)
        return 0;
    if (a->at.line == 0 && b->at.line == 0) /* unplaced: tell them apart by their first line */
        return strcmp(a->first->kind, b->first->kind) == 0;
    /* A race between lines 5 and 9 is the race between 9 and 5. */
    int direct = same_place(&a->at, &b->at) && same_place(&a->other, &b->other);
    int swapped = same_place(&a->at, &b->other) && same_place(&a->other, &b->at);
    return direct || swapped;
}

/* The report's first line for a problem. */
static void message_of(strbuf *msg, const problem *p, int domain_rank)
{
    const ock_report *r = p->first;
    if (p->view) {
        describe_view_access(msg, p, domain_rank);
    } else {
        amp__sb_printf(msg, "%s: %s", category_text(r->category), r->kind);
        if (p->times > 1)
            amp__sb_printf(msg, " (%zu times)", p->times);
    }
}

/* What a learner should do about the problem, or NULL. */
static const char *hint_of(const problem *p)
{
    const ock_report *r = p->first;
    int shared_write = r->category == OCK_DATA_RACE && strncmp(r->kind, "Write-write", 11) == 0 &&
                       (p->other.line == 0 || same_place(&p->other, &p->at));
    return p->padded                            ? padded_hint
           : p->view                            ? view_hint
           : shared_write                       ? shared_write_hint
           : p->between == BL_FULL_BARRIER      ? next_turn_hint
           : p->between == BL_GLOBAL_FENCE_ONLY ? global_fence_hint
           : r->category == OCK_DATA_RACE && strstr(r->kind, "global memory")
               ? global_race_hint
               : category_hint(r->category);
}

/* What barrier a race on tile_static memory between two lines of one
 * text already has between them. */
static void note_barrier_between(const bl_source_map *map, problem *p)
{
    const ock_report *r = p->first;
    if (r->category != OCK_DATA_RACE || !strstr(r->kind, "local memory") || p->at.line <= 0 ||
        p->other.line <= 0 || p->at.text != p->other.text || p->at.line == p->other.line)
        return;
    const bl_place *a = p->at.line < p->other.line ? &p->at : &p->other;
    const bl_place *b = a == &p->at ? &p->other : &p->at;
    p->between = amp__bl_barrier_between(map, a, b, &p->barrier_line);
}

/* The order in which a race's records stand for it: by the first
 * thread's work-group, then the address, then the thread in the group.
 * The simulator runs work-groups on several threads, so the record it
 * writes first changes from run to run; the least one in this order does
 * not. 0 when the record does not say. */
static int race_key(const ock_report *r, long long key[7])
{
    const char *first = strstr(r->text, "First entity:");
    const char *local = first ? strstr(first, "Local(") : NULL;
    const char *group = local ? strstr(local, "Group(") : NULL;
    const char *address = strstr(r->kind, "address 0x");
    long long l[3], g[3];
    if (!group || !address || sscanf(local, "Local(%lld,%lld,%lld)", &l[0], &l[1], &l[2]) != 3 ||
        sscanf(group, "Group(%lld,%lld,%lld)", &g[0], &g[1], &g[2]) != 3)
        return 0;
    long long k[7] = {g[2], g[1], g[0], (long long)strtoull(address + 8, NULL, 16),
                      l[2], l[1], l[0]};
    memcpy(key, k, sizeof k);
    return 1;
}

/* Whether p, a record of the race q stands for, should stand for it
 * instead: a race in tile_static memory between the same two places, in
 * the same order, with a lesser key. */
static int stands_first(const problem *p, const problem *q)
{
    long long a[7], b[7];
    if (p->first->category != OCK_DATA_RACE || !strstr(p->first->kind, "local memory") ||
        !same_place(&p->at, &q->at) || !same_place(&p->other, &q->other) ||
        !race_key(p->first, a) || !race_key(q->first, b))
        return 0;
    for (int i = 0; i < 7; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return 0;
}

static void describe(strbuf *out, const bl_source_map *map, const problem *p, int domain_rank)
{
    const ock_report *r = p->first;
    strbuf msg = STRBUF_INIT;
    message_of(&msg, p, domain_rank);
    if (p->at.line > 0) {
        amp__bl_print_at(out, map, &p->at, "error", msg.data, msg.length);
        if (p->other.line > 0 && !same_place(&p->other, &p->at)) {
            static const char other[] = "the other access of the race";
            amp__bl_print_at(out, map, &p->other, "note", other, sizeof other - 1);
        }
    } else {
        /* Outside the user's body (the prelude, or the API): the raw report
         * is all there is. */
        amp__sb_printf(out, "%s:%d: error: %s\n", map->src->file, map->src->line, msg.data);
        amp__sb_append(out, r->text);
        amp__sb_append(out, "\n");
    }
    const char *hint = hint_of(p);
    if (hint)
        amp__sb_printf(out, "      = %s\n", hint);
    amp__sb_free(&msg);
}

/* Each problem shown, on the timeline too (finding.h). */
static void show_findings(const bl_source_map *map, const kc_entry *e, const amp_kernel_source *src,
                          const problem *problems, size_t n, int tiled)
{
    for (size_t j = 0; j < n && j < LIMIT_CHECK_SHOWN; j++) {
        const problem *p = &problems[j];
        strbuf msg = STRBUF_INIT;
        message_of(&msg, p, e->generated ? e->generated->rank : 1);
        chk_finding f = {p->first,       msg.data ? msg.data : "",
                         hint_of(p),     p->times,
                         p->at,          p->other,
                         p->view,        p->slot,
                         tiled,          p->between,
                         p->barrier_line};
        amp__chk_show_finding(map, e, src, &f);
        amp__sb_free(&msg);
    }
}

amp_status amp__chk_after_run(cl_command_queue queue, const kc_entry *e,
                              const amp_kernel_source *src, int tiled, const amp_capture *items,
                              int nitems)
{
    cl_int rc = amp__clapi.Finish(queue);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clFinish", "Waiting for a checked kernel");
    ock_report *reports = NULL;
    size_t count = 0;
    amp_status st = amp__ock_take_reports(&reports, &count);
    if (st != AMP_OK || count == 0)
        return st;

    /* What the kernel's accessors recorded of accesses outside views. If it
     * cannot be read, the reports are still told, without it. */
    const cg_kernel *gen = e->generated;
    cl_int words[CHK_RECORD_INTS];
    const cl_int *recorded = NULL;
    if (gen && gen->nviews > 0 && record &&
        amp__clapi.EnqueueReadBuffer(queue, record, CL_TRUE, 0, sizeof words, words, 0, NULL,
                                     NULL) == CL_SUCCESS)
        recorded = words;

    bl_source_map map;
    memset(&map, 0, sizeof map);
    map.src = src; /* for the unplaced reports' file and line */
    map.body = -1;
    int mapped = gen && amp__bl_map_open(&map, gen, src);
    if (!mapped)
        amp__bl_map_close(&map);
    problem *problems = calloc(count, sizeof *problems);
    size_t nproblems = 0;
    for (size_t i = 0; problems && i < count; i++) {
        problem p;
        map_report(&map, mapped, &reports[i], &p);
        size_t j = 0;
        while (j < nproblems && !same_problem(&problems[j], &p))
            j++;
        if (j < nproblems && stands_first(&p, &problems[j])) {
            p.times = problems[j].times + 1;
            problems[j] = p;
        } else if (j < nproblems) {
            problems[j].times++;
        } else {
            find_view(&map, gen, recorded, items, nitems, &p);
            problems[nproblems++] = p;
        }
    }
    for (size_t j = 0; j < nproblems; j++)
        note_barrier_between(&map, &problems[j]);

    strbuf out = STRBUF_INIT;
    amp__sb_printf(&out,
                   "AMP_CHECK: kernel %s (parallel_for_each at %s:%d) ran with %zu problem%s:\n",
                   e->name, src->file, src->line, nproblems, nproblems == 1 ? "" : "s");
    for (size_t j = 0; j < nproblems && j < LIMIT_CHECK_SHOWN; j++)
        describe(&out, &map, &problems[j], gen ? gen->rank : 1);
    if (nproblems > LIMIT_CHECK_SHOWN)
        amp__sb_printf(&out, "... and %zu more.\n", nproblems - LIMIT_CHECK_SHOWN);
    if (!problems)
        amp__sb_printf(&out, "(out of host memory sorting %zu reports)\n", count);
    fputs(out.data ? out.data : "AMP_CHECK: problems found\n", stderr);
    if (problems)
        show_findings(&map, e, src, problems, nproblems, tiled);
    st = amp__err_set(AMP_ERROR_KERNEL_CHECK, "%s",
                      out.data ? out.data : "AMP_CHECK found problems.");

    amp__sb_free(&out);
    free(problems);
    amp__bl_map_close(&map);
    amp__ock_free_reports(reports, count);
    return st;
}

amp_status amp__chk_before_run(cl_context context, cl_command_queue queue, kc_entry *e, cl_uint arg)
{
    const cg_kernel *gen = e->generated;
    if (!gen || gen->nviews == 0)
        return AMP_OK;
    if (record && record_context != context)
        amp__chk_shutdown();
    cl_int rc = CL_SUCCESS;
    if (!record) {
        record = amp__clapi.CreateBuffer(context, CL_MEM_READ_WRITE,
                                         CHK_RECORD_INTS * sizeof(cl_int), NULL, &rc);
        if (!record)
            return amp__err_cl(rc, "clCreateBuffer",
                               "Making AMP_CHECK's record of accesses outside views");
        record_context = context;
    }
    static const cl_int zeros[CHK_RECORD_INTS];
    rc = amp__clapi.EnqueueWriteBuffer(queue, record, CL_TRUE, 0, sizeof zeros, zeros, 0, NULL,
                                       NULL);
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clEnqueueWriteBuffer",
                           "Clearing AMP_CHECK's record of accesses outside views");
    return amp__kb_set_arg(e, arg, sizeof record, &record,
                           "AMP_CHECK's record of accesses outside views");
}

void amp__chk_shutdown(void)
{
    if (record)
        amp__clapi.ReleaseMemObject(record);
    record = NULL;
    record_context = NULL;
}
