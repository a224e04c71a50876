/*
 * runtime/checkrun.c - AMP_CHECK's reports, at the user's lines.
 *
 * Oclgrind reports one record per pair of work-items for a race, so a race
 * in a 16x16 tile can be hundreds of records about one line. A learner
 * needs the line once, with its kind and the other access, and a count.
 */
#include "checkrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildlog.h"
#include "error.h"
#include "oclcheck.h"
#include "strbuf.h"

/* Shown one by one; the rest are counted. */
#define CHK_MAX_SHOWN 20

typedef struct problem {
    const ock_report *first; /* the first report of this kind at this place */
    int line, column;        /* in the user's file; 0 when outside the body */
    int other_line, other_column;
    size_t times;
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
               " between them. Give each thread its own element, add a"
               " t_idx.barrier.wait() between the write and the read, or use an atomic.";
    case OCK_DIVERGENCE:
        return "Every thread of a tile must reach each barrier: move the barrier out of the"
               " branch or loop that only some threads take.";
    case OCK_INVALID_ACCESS:
        return "An index is outside the view or tile_static array: check the bounds, and guard"
               " the threads of a padded extent.";
    default: return NULL;
    }
}

static void map_report(const bl_source_map *map, int mapped, const ock_report *r, problem *p)
{
    memset(p, 0, sizeof *p);
    p->first = r;
    p->times = 1;
    if (!mapped)
        return;
    if (r->line > 0 &&
        !bl_map_find(map, r->file, strlen(r->file), r->line, r->column, &p->line, &p->column))
        p->line = p->column = 0;
    if (r->other_line > 0 && !bl_map_find(map, r->other_file, strlen(r->other_file),
                                          r->other_line, r->other_column, &p->other_line,
                                          &p->other_column))
        p->other_line = p->other_column = 0;
}

static int same_problem(const problem *a, const problem *b)
{
    if (a->first->category != b->first->category)
        return 0;
    if (a->line == 0 && b->line == 0) /* unplaced: tell them apart by their first line */
        return strcmp(a->first->kind, b->first->kind) == 0;
    /* A race between lines 5 and 9 is the race between 9 and 5. */
    int direct = a->line == b->line && a->column == b->column && a->other_line == b->other_line &&
                 a->other_column == b->other_column;
    int swapped = a->line == b->other_line && a->column == b->other_column &&
                  a->other_line == b->line && a->other_column == b->column;
    return direct || swapped;
}

static void describe(strbuf *out, const bl_source_map *map, const problem *p)
{
    const ock_report *r = p->first;
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "%s: %s", category_text(r->category), r->kind);
    if (p->times > 1)
        sb_printf(&msg, " (%zu times)", p->times);
    if (p->line > 0) {
        bl_print_at(out, map, p->line, p->column, "error", msg.data, msg.length);
        if (p->other_line > 0 && (p->other_line != p->line || p->other_column != p->column)) {
            static const char other[] = "the other access of the race";
            bl_print_at(out, map, p->other_line, p->other_column, "note", other,
                        sizeof other - 1);
        }
    } else {
        /* Outside the user's body (the prelude, or the API): the raw report
         * is all there is. */
        sb_printf(out, "%s:%d: error: %s\n", map->src->file, map->src->line, msg.data);
        sb_append(out, r->text);
        sb_append(out, "\n");
    }
    const char *hint = category_hint(r->category);
    if (hint)
        sb_printf(out, "      = %s\n", hint);
    sb_free(&msg);
}

amp_status chk_after_run(cl_command_queue queue, const kc_entry *e, const amp_kernel_source *src)
{
    cl_int rc = clapi.Finish(queue);
    if (rc != CL_SUCCESS)
        return err_cl(rc, "clFinish", "Waiting for a checked kernel");
    ock_report *reports = NULL;
    size_t count = 0;
    amp_status st = ock_take_reports(&reports, &count);
    if (st != AMP_OK || count == 0)
        return st;

    bl_source_map map;
    memset(&map, 0, sizeof map);
    int mapped = e->generated && bl_map_open(&map, e->generated, src);
    if (!mapped) {
        bl_map_close(&map);
        map.src = src; /* for the unplaced reports' file and line */
    }
    problem *problems = calloc(count, sizeof *problems);
    size_t nproblems = 0;
    for (size_t i = 0; problems && i < count; i++) {
        problem p;
        map_report(&map, mapped, &reports[i], &p);
        size_t j = 0;
        while (j < nproblems && !same_problem(&problems[j], &p))
            j++;
        if (j < nproblems)
            problems[j].times++;
        else
            problems[nproblems++] = p;
    }

    strbuf out = STRBUF_INIT;
    sb_printf(&out, "AMP_CHECK: kernel %s (parallel_for_each at %s:%d) ran with %zu problem%s:\n",
              e->name, src->file, src->line, nproblems, nproblems == 1 ? "" : "s");
    for (size_t j = 0; j < nproblems && j < CHK_MAX_SHOWN; j++)
        describe(&out, &map, &problems[j]);
    if (nproblems > CHK_MAX_SHOWN)
        sb_printf(&out, "... and %zu more.\n", nproblems - CHK_MAX_SHOWN);
    if (!problems)
        sb_printf(&out, "(out of host memory sorting %zu reports)\n", count);
    fputs(out.data ? out.data : "AMP_CHECK: problems found\n", stderr);
    st = err_set(AMP_ERROR_KERNEL_CHECK, "%s", out.data ? out.data : "AMP_CHECK found problems.");

    sb_free(&out);
    free(problems);
    bl_map_close(&map);
    ock_free_reports(reports, count);
    return st;
}
