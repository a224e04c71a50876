/*
 * runtime/translate/buildlog.c - turning a driver's build log into messages about the
 * user's own lines.
 *
 * Drivers report lines of the generated source. The body in it was laid out
 * again by layout.c, which recorded the first body token of each line, and
 * lexer.c can find those same tokens in the user's file: together they
 * take a (line, column) of the generated source to the user's file, line
 * and column.
 */
#include "translate/buildlog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* One diagnostic of a log line: "<where>:L:C[ <Spelling=...>]: [error: ]msg"
 * (Clang, PoCL, NVIDIA). Returns 0 when the line has none. */
typedef struct diagnostic {
    const char *where; /* what precedes :L:C, e.g. a file name or "<kernel>" */
    size_t where_length;
    int line, column;
    const char *severity;
    const char *message;
    size_t message_length;
} diagnostic;

static int parse_diagnostic(const char *s, size_t n, diagnostic *d)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != ':' || !isdigit((unsigned char)s[i + 1]))
            continue;
        char *end;
        long line = strtol(s + i + 1, &end, 10);
        if (*end != ':' || !isdigit((unsigned char)end[1]))
            continue;
        long column = strtol(end + 1, &end, 10);
        const char *p = end, *stop = s + n;
        if (p < stop && *p == ' ' && p + 1 < stop && p[1] == '<') {
            /* <Spelling=...>, which may hold a <scratch space> of its own */
            int depth = 0;
            for (p++; p < stop; p++) {
                depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
                if (depth == 0)
                    break;
            }
            if (p < stop)
                p++;
        }
        if (p >= stop || *p != ':')
            continue;
        p++;
        while (p < stop && *p == ' ')
            p++;
        d->severity = strstr(s, "warning") && (size_t)(strstr(s, "warning") - s) < n ? "warning"
                                                                                     : "error";
        if ((size_t)(stop - p) > 7 && strncmp(p, "error: ", 7) == 0)
            p += 7;
        else if ((size_t)(stop - p) > 9 && strncmp(p, "warning: ", 9) == 0)
            p += 9;
        d->where = s;
        d->where_length = i;
        d->line = (int)line;
        d->column = (int)column;
        d->message = p;
        d->message_length = (size_t)(stop - p);
        return 1;
    }
    return 0;
}

const char *amp__bl_file_text(const bl_source_map *map, const bl_place *at)
{
    return at->text >= 0 && at->text < map->ntexts ? map->texts[at->text].file_text : NULL;
}

/* Whether line [p, end) calls the barrier word w, outside a // comment. */
static int line_calls(const char *p, const char *end, const char *w)
{
    size_t n = strlen(w);
    for (const char *q = p; q + n <= end; q++) {
        if (q[0] == '/' && q + 1 < end && q[1] == '/')
            return 0;
        if (memcmp(q, w, n) == 0)
            return 1;
    }
    return 0;
}

int amp__bl_barrier_between(const bl_source_map *map, const bl_place *a, const bl_place *b,
                            int *line)
{
    const char *text = amp__bl_file_text(map, a);
    if (!text || a->text != b->text || a->line >= b->line)
        return BL_NO_BARRIER;
    int found = BL_NO_BARRIER, number = 1;
    for (const char *p = text; *p && number < b->line; number++) {
        const char *end = strchr(p, '\n');
        if (!end)
            end = p + strlen(p);
        if (number > a->line) {
            if (line_calls(p, end, ".wait()") || line_calls(p, end, "wait_with_all_memory_fence") ||
                line_calls(p, end, "wait_with_tile_static_memory_fence")) {
                *line = number;
                return BL_FULL_BARRIER;
            }
            if (!found && line_calls(p, end, "wait_with_global_memory_fence")) {
                found = BL_GLOBAL_FENCE_ONLY;
                *line = number;
            }
        }
        p = *end ? end + 1 : end;
    }
    return found;
}

void amp__bl_print_at(strbuf *out, const bl_source_map *map, const bl_place *at,
                      const char *severity, const char *message, size_t message_length)
{
    const char *file = at->text >= 0 && at->text < map->ntexts ? map->texts[at->text].file
                                                               : map->src->file;
    amp__lex_diagnostic(out, file, amp__bl_file_text(map, at), at->line, at->column, severity,
                        message, message_length);
}

/* Read the file of a text (the text of an earlier one, when they share
 * it) and find the text's tokens in it. Returns 1 when they were found. */
static int open_text(bl_source_map *map, bl_text *t, const cg_text *gen)
{
    t->file = gen->file;
    t->gen = gen;
    for (bl_text *o = map->texts; o < t && !t->file_text; o++)
        if (o->owned_text && strcmp(o->file, gen->file) == 0)
            t->file_text = o->owned_text;
    if (!t->file_text) {
        strbuf text = STRBUF_INIT;
        if (amp__sb_read_file(&text, gen->file) == 0)
            t->owned_text = amp__sb_take(&text);
        amp__sb_free(&text);
        t->file_text = t->owned_text;
    }
    if (!t->file_text || !gen->token_line)
        return 0;
    size_t ntokens = gen->ntokens + 1;
    t->pos = malloc(ntokens * sizeof *t->pos);
    t->placed = t->pos ? amp__lex_locate(t->file_text, gen->line, gen->text, gen->length, t->pos,
                                         ntokens, gen->locate_flags)
                       : 0;
    return t->placed > 0;
}

int amp__bl_map_open(bl_source_map *map, const cg_kernel *gen, const amp_kernel_source *src)
{
    memset(map, 0, sizeof *map);
    map->gen = gen;
    map->src = src;
    map->body = -1;
    int found = 0;
    if (src->from_file) {
        /* The body is the file's text, as written. */
        bl_text *t = &map->texts[map->ntexts];
        map->body = map->ntexts++;
        t->file = src->file;
        t->file_text = src->body;
        found = 1;
    }
    for (int i = 0; i < gen->ntexts; i++) {
        bl_text *t = &map->texts[map->ntexts++];
        const cg_text *text = &gen->texts[i];
        int body = text->text == src->body;
        if (body) {
            /* Call sites whose bodies are one string (a compiler merges
             * equal literals, comments gone) share one kernel, generated
             * for the first of them: the body's tokens are looked for at
             * this call site's line. */
            map->site_body = *text;
            map->site_body.file = src->file;
            map->site_body.line = src->line;
            text = &map->site_body;
        }
        if (open_text(map, t, text)) {
            found = 1;
            if (body)
                map->body = map->ntexts - 1;
        }
    }
    return found;
}

/* Whether where[0..n) names path: all of it, or its last component alone
 * (Oclgrind names the file of a #line directive without its folder). */
static int names_file(const char *where, size_t n, const char *path)
{
    size_t len = strlen(path);
    if (n >= len && memcmp(where + n - len, path, len) == 0)
        return 1;
    const char *base = strrchr(path, '/');
    if (!base)
        return 0;
    base++;
    len = strlen(base);
    return len > 0 && n >= len && memcmp(where + n - len, base, len) == 0 &&
           (n == len || where[n - len - 1] == '/');
}

/* A body from a file is in the generated source as written, after a #line
 * directive. Drivers that honour #line report the file's lines already;
 * others (NVIDIA's) report generated lines, which are the file's lines
 * shifted by where the body starts. An inline body and the helpers were
 * laid out again by layout.c, which recorded where each token was printed;
 * amp__lex_locate() found those tokens in the user's files. */
int amp__bl_map_find(const bl_source_map *map, const char *where, size_t where_length, int gen_line,
                     int gen_column, bl_place *at)
{
    const cg_kernel *gen = map->gen;
    const amp_kernel_source *src = map->src;
    if (src->from_file && map->body >= 0) {
        int honoured = where && names_file(where, where_length, src->file);
        int l = honoured ? gen_line : gen_line - gen->body_line + 1;
        if (l >= 1 && l <= gen->body_lines) {
            at->text = map->body;
            at->line = l;
            at->column = gen_column;
            return 1;
        }
        if (honoured)
            return 0;
    }
    /* The token printed on that line at the column, or before it: the
     * layout recorded where each token went, in the body, among the
     * tile_static declarations moved out of it, or in a helper. A report
     * without a column takes the line's first token. */
    for (int k = 0; k < map->ntexts; k++) {
        const bl_text *t = &map->texts[k];
        const cg_text *g = t->gen;
        if (!g)
            continue;
        long best = -1, first = -1;
        for (size_t i = 0; i < g->ntokens && i < t->placed; i++) {
            if (g->token_line[i] != gen_line)
                continue;
            if (first < 0 || g->token_column[i] < g->token_column[first])
                first = (long)i;
            if (g->token_column[i] <= gen_column &&
                (best < 0 || g->token_column[i] >= g->token_column[best]))
                best = (long)i;
        }
        if (best < 0)
            best = first;
        if (best < 0)
            continue;
        at->text = k;
        at->line = t->pos[best].line;
        at->column = t->pos[best].column;
        return 1;
    }
    return 0;
}

void amp__bl_map_close(bl_source_map *map)
{
    for (int i = 0; i < map->ntexts; i++) {
        free(map->texts[i].pos);
        free(map->texts[i].owned_text);
    }
    const amp_kernel_source *src = map->src;
    memset(map, 0, sizeof *map);
    map->src = src; /* for unplaced reports' file and line */
    map->body = -1;
}

/* A linker's report of a function that nothing defines, which names no
 * line: "ptxas fatal   : Unresolved extern function 'f'". NVIDIA's
 * compiler takes a call of an undeclared function and leaves it to the
 * linker; its warning at the call's line comes only when it compiles the
 * source afresh, not from its own cache. Returns the length of the name,
 * in *name, or 0 when the log's line is not such a report. */
/* The identifier quoted from start up to stop: its length, in *name, or 0
 * where start does not hold an identifier and its closing quote. */
static size_t quoted_name(const char *start, const char *stop, const char **name)
{
    const char *end = start;
    while (end < stop && (isalnum((unsigned char)*end) || *end == '_'))
        end++;
    if (end == start || end >= stop || *end != '\'')
        return 0;
    *name = start;
    return (size_t)(end - start);
}

static size_t unresolved_function(const char *s, size_t n, const char **name)
{
    static const char mark[] = "Unresolved extern function '";
    const size_t m = sizeof mark - 1;
    for (size_t i = 0; i + m < n; i++)
        if (memcmp(s + i, mark, m) == 0)
            return quoted_name(s + i + m, s + n, name);
    return 0;
}

/* Where the generated source first calls the function name[0..n): a line
 * and a column (1-based) that the map takes to the user's text, the body's
 * or a helper's. The source is read as tokens, so that comments and
 * literals are passed over. A call is the name before "(" with no
 * identifier before it but a keyword that may precede an expression
 * ("int f(int);", or a helper's own definition, declares f); where no call
 * maps, the first mention before "(" does. Returns 0 when none maps. */
static int first_call(const bl_source_map *map, const char *name, size_t n, bl_place *at)
{
    static const char *const before_expression[] = {"return", "case", "else", "do", NULL};
    const char *source = map->gen->source;
    lex_tokens tokens;
    if (!source || amp__lex(source, strlen(source), &tokens) != AMP_OK)
        return 0;
    int found = 0;
    for (int declarations = 0; declarations < 2 && !found; declarations++) {
        int line = 1;
        const char *line_start = source, *scanned = source;
        for (size_t i = 0; i + 1 < tokens.count && !found; i++) {
            const lex_token *t = &tokens.items[i], *prev = i ? t - 1 : NULL;
            if (t->kind != LEX_IDENT || t->length != n || memcmp(t->text, name, n) != 0 ||
                !amp__lex_is(t + 1, "("))
                continue;
            int declared = prev && prev->kind == LEX_IDENT &&
                           !amp__lex_is_any(prev, before_expression);
            if (declared && !declarations)
                continue;
            for (; scanned < t->text; scanned++)
                if (*scanned == '\n')
                    line++, line_start = scanned + 1;
            found = amp__bl_map_find(map, NULL, 0, line, (int)(t->text - line_start) + 1, at);
        }
    }
    amp__lex_free(&tokens);
    return found;
}

/* A function nothing defines, at the user's call of it. */
static int map_unresolved(strbuf *out, const bl_source_map *map, const char *name, size_t n)
{
    bl_place at;
    if (!first_call(map, name, n, &at))
        return 0;
    strbuf message = STRBUF_INIT;
    amp__sb_printf(&message,
                   "call to '%.*s', which is not defined: a kernel may call OpenCL C's built-in"
                   " functions and the AMP_FUNCTION helpers it captures (the driver's linker:"
                   " Unresolved extern function '%.*s')",
                   (int)n, name, (int)n, name);
    amp__bl_print_at(out, map, &at, "error", message.data ? message.data : name,
                     message.data ? message.length : n);
    amp__sb_free(&message);
    return 1;
}

/* The name in "use of undeclared identifier 'X'" or "implicit declaration
 * of function 'X'" (Clang's words, which PoCL and NVIDIA's compiler pass
 * on; the second for a call, where a compiler takes the name for a
 * function): its length, in *name, or 0. */
static size_t undeclared_identifier(const char *message, size_t n, const char **name)
{
    static const char *const marks[] = {"use of undeclared identifier '",
                                        "implicit declaration of function '", NULL};
    for (int i = 0; marks[i]; i++) {
        size_t m = strlen(marks[i]);
        if (n > m && memcmp(message, marks[i], m) == 0)
            return quoted_name(message + m, message + n, name);
    }
    return 0;
}

/* What follows the name (len characters) reported at `at` in the user's
 * file, past spaces: the text from there, or "" when the file is not read
 * or the line does not hold the name. The name is looked for from the
 * reported column on: inside a view's access, v(t_idx.global), the
 * compiler reports the access's column, not the name's. */
static const char *after_name(const bl_source_map *map, const bl_place *at, const char *name,
                              size_t len)
{
    const char *p = amp__bl_file_text(map, at);
    if (!p)
        return "";
    for (int line = 1; line < at->line && *p; p++)
        line += *p == '\n';
    for (int column = 1; column < at->column && *p && *p != '\n'; column++)
        p++;
    for (; *p && *p != '\n'; p++) {
        int starts = p == amp__bl_file_text(map, at) ||
                     !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (starts && strncmp(p, name, len) == 0 && !isalnum((unsigned char)p[len]) &&
            p[len] != '_') {
            p += len;
            while (*p == ' ' || *p == '\t')
                p++;
            return p;
        }
    }
    return "";
}

/* Whether text starts with ".member" of a tiled index. */
static int tiled_member_follows(const char *text)
{
    static const char *const members[] = {"global",      "local",   "tile", "tile_origin",
                                          "tile_extent", "barrier", NULL};
    if (*text != '.')
        return 0;
    text++;
    for (int i = 0; members[i]; i++) {
        size_t n = strlen(members[i]);
        if (strncmp(text, members[i], n) == 0 && !isalnum((unsigned char)text[n]) && text[n] != '_')
            return 1;
    }
    return 0;
}

/* Under the report of a name the kernel's source does not declare, how to
 * declare it there. Most often it is one of the program's own names (a
 * variable, an enum constant, a macro), which is not part of the kernel
 * unless it is captured; a tile_static declaration, which the generated
 * source holds above the body (gen_line before the body's first line),
 * comes before the captured values too, so its size must be a constant; a
 * name followed by a tiled index's member is the index under another
 * name; one followed by '(' a function. Each kind of advice is given once,
 * under its first report: a body that uses three such names gets it once,
 * not at every use. */
enum {
    HINT_TILE_STATIC = 1, /* the size of a tile_static array */
    HINT_INDEX = 2,       /* another name for the kernel's index */
    HINT_FUNCTION = 4,    /* a call of a function the kernel does not have */
    HINT_CAPTURE = 8,     /* any other name in the body */
    HINT_HELPER = 16,     /* a name in a helper */
    HINT_READ_ONLY = 32,  /* an assignment to what is read-only */
    HINT_RANK = 64,       /* a view indexed with an index of another rank */
    HINT_ADDRESS = 128    /* a pointer of the private address space given another's address */
};

static void hint_undeclared(strbuf *out, int *hinted, const bl_source_map *map, const bl_place *at,
                            int gen_line, const char *message, size_t n)
{
    const char *name;
    size_t len = undeclared_identifier(message, n, &name);
    if (!len)
        return;
    int in_body = at->text == map->body;
    const char *next = after_name(map, at, name, len);
    /* A body from a file stays as written (its tile_static declarations
     * too), and its lines may be the file's: only an inline body's moved
     * declarations come before the generated body's first line. */
    int moved = !map->src->from_file && gen_line < map->gen->body_line;
    int kind = !in_body                                                         ? HINT_HELPER
               : moved                                                          ? HINT_TILE_STATIC
               : map->src && map->src->index_name && tiled_member_follows(next) ? HINT_INDEX
               : *next == '('                                                   ? HINT_FUNCTION
                                                                                : HINT_CAPTURE;
    if (*hinted & kind)
        return;
    *hinted |= kind;
    switch (kind) {
    case HINT_TILE_STATIC:
        amp__sb_printf(out,
                       "      = A tile_static array is made before the kernel's captured values"
                       " exist, so its size must be a constant the compiler knows: capture '%.*s'"
                       " as AMP_CONST(%.*s) (an integer: a variable, an enum constant or a host"
                       " macro), or write the number.\n",
                       (int)len, name, (int)len, name);
        break;
    case HINT_INDEX:
        amp__sb_printf(out,
                       "      = '%.*s' is not the kernel's index: this kernel names it '%s' (the"
                       " second argument of AMP_PARALLEL_FOR_EACH): write %s there, or name the"
                       " index '%.*s'.\n",
                       (int)len, name, map->src->index_name, map->src->index_name, (int)len, name);
        break;
    case HINT_FUNCTION:
        amp__sb_printf(out,
                       "      = A function the kernel calls is written with AMP_FUNCTION (or"
                       " AMP_SHARED_FUNCTION, where the host calls it too) at file scope and"
                       " captured by name: AMP_CAPTURE(..., %.*s). OpenCL C's built-ins (sqrt,"
                       " fabs, min ...) need nothing.\n",
                       (int)len, name);
        break;
    case HINT_CAPTURE:
        amp__sb_printf(out,
                       "      = The kernel sees only what AMP_CAPTURE names, not the program's"
                       " variables, enum constants or macros: capture '%.*s' by name, or as"
                       " AMP_CONST(%.*s) where it is an integer constant, and so any other such"
                       " name; a macro for the kernel alone is AMP_DEFINE(NAME value) in the"
                       " body.\n",
                       (int)len, name, (int)len, name);
        break;
    default:
        amp__sb_printf(out,
                       "      = A helper sees only its parameters and OpenCL C's built-ins, not"
                       " the program's names nor the kernel's captures: pass '%.*s' to it as a"
                       " parameter.\n",
                       (int)len, name);
    }
}

/* Under the first report of two more of the compiler's errors whose words
 * are the generated source's, not the user's: an assignment to what is
 * read-only (most often a view made const), and a view given an index of
 * another rank (the name of the overload the generated source declares to
 * catch it, view_of_rank_N_...). */
static void hint_other(strbuf *out, int *hinted, const char *message, size_t n)
{
    static const char read_only[] = "read-only variable is not assignable";
    static const char rank_mark[] = "view_of_rank_";
    static const char space_mark[] = "changes address space of pointer";
    int space = 0;
    for (size_t i = 0; i + sizeof space_mark - 1 <= n && !space; i++)
        space = memcmp(message + i, space_mark, sizeof space_mark - 1) == 0;
    if (space && !(*hinted & HINT_ADDRESS)) {
        *hinted |= HINT_ADDRESS;
        amp__sb_printf(out, "      = A pointer in a kernel says which memory it points into, as"
                            " OpenCL C has it: into a view, __global (__global float *p ="
                            " &v[i]); into tile_static memory, __local (__local float *p ="
                            " &tile[i]). A pointer with neither points into the thread's own"
                            " variables.\n");
        return;
    }
    const char *rank_at = NULL;
    for (size_t i = 0; i + sizeof rank_mark - 1 < n && !rank_at; i++)
        if (memcmp(message + i, rank_mark, sizeof rank_mark - 1) == 0)
            rank_at = message + i + sizeof rank_mark - 1;
    if (n >= sizeof read_only - 1 && memcmp(message, read_only, sizeof read_only - 1) == 0 &&
        !(*hinted & HINT_READ_ONLY)) {
        *hinted |= HINT_READ_ONLY;
        amp__sb_printf(out, "      = Where the left side is a view's element, the view is read-only"
                            " in the kernel: it was made with amp_array_view_create_const (C++"
                            " AMP's array_view<const T, N>). Write through a view made with"
                            " amp_array_view_create.\n");
    } else if (rank_at && isdigit((unsigned char)*rank_at) && !(*hinted & HINT_RANK)) {
        int rank = *rank_at - '0';
        *hinted |= HINT_RANK;
        if (rank == 1)
            amp__sb_printf(out, "      = A view of rank 1 takes one integer, v(i), or an index of"
                                " rank 1 (idx, t_idx.global of a rank-1 kernel).\n");
        else
            amp__sb_printf(out,
                           "      = A view of rank %d takes %d integers, v(i, j%s), or an index"
                           " of rank %d (idx, t_idx.global of a rank-%d kernel, an amp_index of"
                           " %d dimensions); one integer indexes a view of rank 1 only.\n",
                           rank, rank, rank > 2 ? ", ..." : "", rank, rank, rank);
    }
}

int amp__bl_map_diagnostics(strbuf *out, const char *log, const cg_kernel *gen,
                            const amp_kernel_source *src)
{
    if (!log)
        return 0;
    bl_source_map map;
    if (!amp__bl_map_open(&map, gen, src)) {
        amp__bl_map_close(&map);
        return 0;
    }
    int mapped = 0;
    int hinted = 0; /* the HINT_ kinds given */
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        diagnostic d;
        bl_place at;
        const char *name = NULL;
        size_t name_length = 0;
        if (parse_diagnostic(p, n, &d) &&
            amp__bl_map_find(&map, d.where, d.where_length, d.line, d.column, &at)) {
            amp__bl_print_at(out, &map, &at, d.severity, d.message, d.message_length);
            hint_undeclared(out, &hinted, &map, &at, d.line, d.message, d.message_length);
            hint_other(out, &hinted, d.message, d.message_length);
            mapped++;
        } else if ((name_length = unresolved_function(p, n, &name)) > 0) {
            mapped += map_unresolved(out, &map, name, name_length);
        }
        p += n + (eol ? 1 : 0);
    }
    amp__bl_map_close(&map);
    return mapped;
}

void amp__bl_number_lines(strbuf *out, const char *source)
{
    int line = 1;
    const char *p = source;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        amp__sb_printf(out, "%5d | ", line++);
        amp__sb_append_n(out, p, len);
        amp__sb_append(out, "\n");
        p += len + (eol ? 1 : 0);
    }
}
