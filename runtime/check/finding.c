/*
 * runtime/check/finding.c - AMP_CHECK's findings on the timeline
 * (finding.h).
 *
 * What the simulator's report holds beyond the report's line: each racing
 * thread's global, local and group index (OpenCL's order, dimension 0
 * fastest: reversed here into C++ AMP's), whether it loaded or stored,
 * and the address of the memory. A tile_static array's element is its
 * address's offset in the array, which needs the array: the one the
 * instruction names (@kernel.name), or the kernel's only tile_static
 * declaration, read from the generated source with the constants it
 * defines. Where the array cannot be told, the element is left out: the
 * event says only what is known.
 */
#include "check/finding.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/strbuf.h"
#include "core/timeline.h"

#define MAX_STATICS 16

/* A tile_static declaration of the generated kernel. */
typedef struct tstatic {
    char name[64];
    int element_bytes; /* 0: a type whose size is not known here */
    int rank;
    int64_t dims[AMP_MAX_RANK];
} tstatic;

static const char *skip_space(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static int is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* The value of a constant the source defines (`#define NAME 16`), or -1. */
static int64_t defined_value(const char *source, const char *name, size_t n)
{
    for (const char *p = source; p && *p;) {
        const char *line = skip_space(p);
        if (strncmp(line, "#define ", 8) == 0) {
            const char *q = skip_space(line + 8);
            if (strncmp(q, name, n) == 0 && (q[n] == ' ' || q[n] == '\t')) {
                char *end = NULL;
                long long v = strtoll(skip_space(q + n), &end, 0);
                if (end && (*end == '\n' || *end == '\0' || *end == ' '))
                    return v;
            }
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return -1;
}

/* A dimension: a number, a defined constant, or a product of them; -1 for
 * anything else. */
static int64_t dimension(const char *source, const char *p, const char *end)
{
    int64_t value = 1;
    while (p < end) {
        p = skip_space(p);
        if (p >= end)
            break;
        int64_t v = -1;
        if (isdigit((unsigned char)*p)) {
            char *q = NULL;
            v = strtoll(p, &q, 0);
            p = q;
            while (p < end && (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L'))
                p++;
        } else if (is_name_char(*p)) {
            const char *q = p;
            while (q < end && is_name_char(*q))
                q++;
            v = defined_value(source, p, (size_t)(q - p));
            p = q;
        }
        if (v < 0)
            return -1;
        value *= v;
        p = skip_space(p);
        if (p < end && *p != '*')
            return -1;
        if (p < end)
            p++;
    }
    return value;
}

/* The size of an OpenCL C scalar or vector type, or 0. */
static int type_bytes(const char *type, size_t n)
{
    static const struct {
        const char *name;
        int bytes;
    } scalars[] = {{"char", 1},         {"uchar", 1}, {"bool", 1},  {"short", 2}, {"ushort", 2},
                   {"half", 2},         {"int", 4},   {"uint", 4},  {"float", 4}, {"unsigned", 4},
                   {"unsigned int", 4}, {"long", 8},  {"ulong", 8}, {"double", 8}};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        size_t len = strlen(scalars[i].name);
        if (n == len && strncmp(type, scalars[i].name, n) == 0)
            return scalars[i].bytes;
        if (n > len && strncmp(type, scalars[i].name, len) == 0 &&
            isdigit((unsigned char)type[len])) {
            int lanes = atoi(type + len);
            if (lanes == 2 || lanes == 3 || lanes == 4 || lanes == 8 || lanes == 16)
                return scalars[i].bytes * (lanes == 3 ? 4 : lanes);
        }
    }
    return 0;
}

/* One declaration `tile_static TYPE NAME[D]...;` on a line of its own. */
static int parse_static(const char *source, const char *line, tstatic *t)
{
    const char *p = skip_space(line + strlen("tile_static"));
    const char *stop = strpbrk(p, "[;=\n");
    if (!stop || *stop == '=' || *stop == '\n')
        return 0;
    const char *name_end = stop;
    while (name_end > p && (name_end[-1] == ' ' || name_end[-1] == '\t'))
        name_end--;
    const char *name = name_end;
    while (name > p && is_name_char(name[-1]))
        name--;
    const char *type_end = name;
    while (type_end > p && (type_end[-1] == ' ' || type_end[-1] == '\t'))
        type_end--;
    size_t n = (size_t)(name_end - name);
    if (n == 0 || n >= sizeof t->name || type_end == p)
        return 0;
    memset(t, 0, sizeof *t);
    memcpy(t->name, name, n);
    t->element_bytes = type_bytes(p, (size_t)(type_end - p));
    for (const char *q = stop; *q == '['; q = skip_space(q)) {
        const char *close = strchr(q, ']');
        if (!close || t->rank == AMP_MAX_RANK)
            return 0;
        t->dims[t->rank] = dimension(source, q + 1, close);
        if (t->dims[t->rank] <= 0)
            return 0;
        t->rank++;
        q = close + 1;
    }
    return 1;
}

/* The tile_static declarations of the generated source, at most max. */
static int statics_of(const char *source, tstatic *out, int max)
{
    int n = 0;
    for (const char *p = source; p && *p && n < max;) {
        const char *line = skip_space(p);
        if (strncmp(line, "tile_static ", 12) == 0 && parse_static(source, line, &out[n]))
            n++;
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return n;
}

/* The tile_static variable the report is about: named in its instruction
 * (`@kernel.name`), or the kernel's only one. */
static const tstatic *static_of(const ock_report *r, const tstatic *t, int n)
{
    const char *at = strstr(r->text, "addrspace(3)* @");
    if (at) {
        const char *name = strchr(at, '@');
        const char *end = name;
        while (*end && *end != ',' && *end != ' ' && *end != '\n')
            end++;
        const char *dot = name;
        for (const char *q = name; q < end; q++)
            if (*q == '.')
                dot = q;
        size_t len = (size_t)(end - dot - 1);
        for (int i = 0; i < n; i++)
            if (strlen(t[i].name) == len && strncmp(t[i].name, dot + 1, len) == 0)
                return &t[i];
        return NULL;
    }
    return n == 1 ? &t[0] : NULL;
}

/* The element of t at the report's address, in C++ AMP's order: 1, or 0
 * when the address is not one of t's elements. */
static int element_of(const ock_report *r, const tstatic *t, int64_t *element)
{
    const char *hex = strstr(r->kind, "address 0x");
    if (!hex || t->element_bytes == 0)
        return 0;
    /* Oclgrind's addresses: the buffer's number in the top 16 bits, the
     * offset in it below. */
    uint64_t offset = strtoull(hex + 8, NULL, 16) & (((uint64_t)1 << 48) - 1);
    if (offset % (uint64_t)t->element_bytes)
        return 0;
    uint64_t k = offset / (uint64_t)t->element_bytes;
    for (int d = t->rank - 1; d >= 0; d--) {
        element[d] = (int64_t)(k % (uint64_t)t->dims[d]);
        k /= (uint64_t)t->dims[d];
    }
    return k == 0;
}

/* "Global(1,0,0) Local(1,0,0) Group(0,0,0)" after label, into C++ AMP's
 * order for a domain of rank dimensions. */
static int ids_after(const char *text, const char *label, int rank, int64_t ids[3][3])
{
    const char *p = strstr(text, label);
    if (!p || rank < 1 || rank > 3)
        return 0;
    static const char *const names[3] = {"Global(", "Local(", "Group("};
    for (int k = 0; k < 3; k++) {
        p = strstr(p, names[k]);
        long long v[3];
        if (!p || sscanf(p + strlen(names[k]), "%lld,%lld,%lld", &v[0], &v[1], &v[2]) != 3)
            return 0;
        for (int d = 0; d < rank; d++)
            ids[k][d] = v[rank - 1 - d];
    }
    return 1;
}

/* "read" or "write": the instruction on the line after label's. */
static const char *access_after(const char *text, const char *label)
{
    const char *p = strstr(text, label);
    p = p ? strchr(p, '\n') : NULL;
    if (!p)
        return NULL;
    const char *eol = strchr(p + 1, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), p);
    if (strstr(line, " store ") || strstr(line, "\tstore ") || strstr(line, "atomicrmw") ||
        strstr(line, "cmpxchg"))
        return "write";
    if (strstr(line, " load "))
        return "read";
    return NULL;
}

/* The user's file of a place. */
static const char *file_of(const bl_source_map *map, const bl_place *at)
{
    return at->text >= 0 && at->text < map->ntexts ? map->texts[at->text].file : map->src->file;
}

static void place(strbuf *sb, const bl_source_map *map, const bl_place *at, int column)
{
    strbuf s = STRBUF_INIT;
    if (column)
        amp__sb_printf(&s, "%s:%d:%d", file_of(map, at), at->line, at->column);
    else
        amp__sb_printf(&s, "%s:%d", file_of(map, at), at->line);
    amp__json_string(sb, s.data);
    amp__sb_free(&s);
}

/* The text of the place's line, without its indent. */
static void code_line(strbuf *sb, const bl_source_map *map, const bl_place *at)
{
    const char *p = amp__bl_file_text(map, at);
    for (int l = 1; p && l < at->line; l++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    if (!p)
        return;
    p = skip_space(p);
    const char *eol = strchr(p, '\n');
    size_t n = eol ? (size_t)(eol - p) : strlen(p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
        n--;
    strbuf s = STRBUF_INIT;
    amp__sb_append_n(&s, p, n);
    int first = 0;
    amp__json_key(sb, &first, "code");
    amp__json_string(sb, s.data ? s.data : "");
    amp__sb_free(&s);
}

/* One thread's access: the entity of the report, at its place. */
static void access(strbuf *sb, const bl_source_map *map, const ock_report *r, const char *label,
                   const bl_place *at, int rank, int tiled)
{
    int64_t ids[3][3];
    const char *kind = access_after(r->text, label);
    if (!ids_after(r->text, label, rank, ids) || !kind)
        return;
    int first = 1;
    amp__sb_append(sb, sb->data[sb->length - 1] == '[' ? "{" : ", {");
    amp__json_key(sb, &first, "global");
    amp__json_ints(sb, ids[0], rank);
    if (tiled) {
        amp__json_key(sb, &first, "local");
        amp__json_ints(sb, ids[1], rank);
        amp__json_key(sb, &first, "tile");
        amp__json_ints(sb, ids[2], rank);
    }
    amp__json_key(sb, &first, "access");
    amp__json_string(sb, kind);
    if (at->line > 0) {
        amp__json_key(sb, &first, "at");
        place(sb, map, at, 1);
        code_line(sb, map, at);
    }
    amp__sb_append(sb, "}");
}

static const char *problem_name(ock_category c)
{
    switch (c) {
    case OCK_DATA_RACE: return "data race";
    case OCK_DIVERGENCE: return "barrier divergence";
    case OCK_INVALID_ACCESS: return "out of bounds";
    case OCK_API_ERROR: return "api error";
    default: return "other";
    }
}

static const char *memory_of(const char *kind)
{
    if (strstr(kind, "local memory"))
        return "tile_static";
    if (strstr(kind, "global memory"))
        return "global";
    if (strstr(kind, "private memory"))
        return "private";
    return NULL;
}

/* A view's access out of its extent, from the kernel's record of it. */
static void view_access(strbuf *sb, int *first, const chk_finding *f, int domain_rank)
{
    const cl_int *slot = f->slot;
    int rank = slot[CG_REC_RANK] >= 1 && slot[CG_REC_RANK] <= AMP_MAX_RANK ? slot[CG_REC_RANK] : 1;
    int64_t index[AMP_MAX_RANK], extent[AMP_MAX_RANK], thread[AMP_MAX_RANK];
    for (int d = 0; d < AMP_MAX_RANK; d++) {
        index[d] = (int64_t)((uint64_t)(uint32_t)slot[CG_REC_INDEX + 2 * d] |
                             (uint64_t)(uint32_t)slot[CG_REC_INDEX + 2 * d + 1] << 32);
        extent[d] = slot[CG_REC_EXTENT + d];
        thread[d] = slot[CG_REC_THREAD + d];
    }
    int sane = 1, inside = 1;
    for (int d = 0; d < rank; d++) {
        sane &= index[d] >= 0 && extent[d] > 0; /* an index is never negative */
        inside &= index[d] < extent[d];
    }
    amp__json_key(sb, first, "array");
    amp__json_string(sb, f->view);
    if (sane) {
        amp__json_key(sb, first, "array_extent");
        amp__json_ints(sb, extent, rank);
    }
    /* An access out of bounds is outside the extent; the race of a padded
     * domain's threads is on the spare element past it, no element of the
     * view's: none is named. */
    if (sane && inside == (f->report->category != OCK_INVALID_ACCESS)) {
        amp__json_key(sb, first, "element");
        amp__json_ints(sb, index, rank);
    }
    if (domain_rank >= 1 && domain_rank <= AMP_MAX_RANK) {
        int a = 1;
        amp__json_key(sb, first, "accesses");
        amp__sb_append(sb, "[{");
        amp__json_key(sb, &a, "global");
        amp__json_ints(sb, thread, domain_rank);
        amp__json_key(sb, &a, "access");
        amp__json_string(sb, strncmp(f->report->kind, "Invalid write", 13) == 0 ? "write" : "read");
        amp__sb_append(sb, "}]");
    }
}

void amp__chk_show_finding(const bl_source_map *map, const kc_entry *e,
                           const amp_kernel_source *src, const chk_finding *f)
{
    if (!amp__tl_active)
        return;
    const ock_report *r = f->report;
    const cg_kernel *gen = e->generated;
    int rank = gen ? gen->rank : 1;
    const char *problem = problem_name(r->category);
    strbuf sb = STRBUF_INIT;
    int first = 1;
    amp__json_key(&sb, &first, "kernel");
    amp__json_string(&sb, e->name);
    amp__json_key(&sb, &first, "site");
    strbuf site = STRBUF_INIT;
    amp__sb_printf(&site, "%s:%d", src->file, src->line);
    amp__json_string(&sb, site.data);
    amp__sb_free(&site);
    amp__json_key(&sb, &first, "problem");
    amp__json_string(&sb, problem);
    amp__json_key(&sb, &first, "message");
    amp__json_string(&sb, f->message);
    amp__json_key(&sb, &first, "times");
    amp__sb_printf(&sb, "%zu", f->times);
    if (f->at.line > 0) {
        amp__json_key(&sb, &first, "at");
        place(&sb, map, &f->at, 1);
        code_line(&sb, map, &f->at); /* its text, for a picture of the line */
    }
    if (f->other.line > 0) {
        amp__json_key(&sb, &first, "other_at");
        place(&sb, map, &f->other, 1);
    }
    if (f->hint) {
        amp__json_key(&sb, &first, "hint");
        amp__json_string(&sb, f->hint);
    }
    const char *memory = memory_of(r->kind);
    int tile_static = strstr(r->kind, "local memory") != NULL;
    if (memory) {
        amp__json_key(&sb, &first, "memory");
        amp__json_string(&sb, memory);
    }
    if (f->view && f->slot) {
        view_access(&sb, &first, f, rank);
    } else if (tile_static && gen) {
        tstatic statics[MAX_STATICS];
        int n = statics_of(gen->source, statics, MAX_STATICS);
        const tstatic *t = static_of(r, statics, n);
        int64_t element[AMP_MAX_RANK];
        if (t) {
            amp__json_key(&sb, &first, "array");
            amp__json_string(&sb, t->name);
            amp__json_key(&sb, &first, "array_extent");
            amp__json_ints(&sb, t->dims, t->rank);
            if (element_of(r, t, element)) {
                amp__json_key(&sb, &first, "element");
                amp__json_ints(&sb, element, t->rank);
            }
        }
    }
    if (r->category == OCK_DATA_RACE && !f->view) {
        size_t before = sb.length;
        amp__json_key(&sb, &first, "accesses");
        amp__sb_append(&sb, "[");
        size_t empty = sb.length;
        access(&sb, map, r, "First entity:", &f->at, rank, f->tiled);
        access(&sb, map, r, "Second entity:", &f->other, rank, f->tiled);
        if (sb.length == empty) {
            sb.length = before; /* no thread could be read: no list */
            sb.data[before] = '\0';
        } else {
            amp__sb_append(&sb, "]");
        }
    }
    /* A barrier between two lines orders two threads of one tile; a race
     * on one line, or in global memory, is not one a barrier fixes. */
    if (r->category == OCK_DATA_RACE && tile_static && f->at.line > 0 && f->other.line > 0 &&
        f->at.text == f->other.text && f->at.line != f->other.line) {
        const bl_place *a = f->at.line < f->other.line ? &f->at : &f->other;
        const bl_place *b = a == &f->at ? &f->other : &f->at;
        /* With a barrier between them already, the race is between a
         * loop's turns: the barrier belongs after the later line, before
         * the next turn comes to the earlier. */
        int turn = f->between == BL_FULL_BARRIER;
        amp__json_key(&sb, &first, "barrier");
        amp__sb_append(&sb, "{\"after\": ");
        place(&sb, map, turn ? b : a, 0);
        amp__sb_append(&sb, ", \"before\": ");
        place(&sb, map, turn ? a : b, 0);
        if (turn)
            amp__sb_append(&sb, ", \"next_turn\": true");
        if (f->between == BL_GLOBAL_FENCE_ONLY)
            amp__sb_append(&sb, ", \"global_fence\": true");
        if (f->between != BL_NO_BARRIER) {
            bl_place existing = {a->text, f->barrier_line, 1};
            amp__sb_append(&sb, ", \"existing\": {\"at\": ");
            place(&sb, map, &existing, 0);
            code_line(&sb, map, &existing);
            amp__sb_append(&sb, "}");
        }
        amp__sb_append(&sb, "}");
    }
    if (!amp__sb_failed(&sb))
        amp__tl_finding(problem, sb.data);
    amp__sb_free(&sb);
}
