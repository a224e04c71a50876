/*
 * runtime/kernel/buildlog.c - turning a driver's build log into messages about the
 * user's own lines.
 *
 * Drivers report lines of the generated source. The body in it was laid out
 * again by layout.c, which recorded the first body token of each line, and
 * lexer.c can find those same tokens in the user's file: together they
 * take a (line, column) of the generated source to the user's file, line
 * and column.
 */
#include "kernel/buildlog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The start and length of line number `line` (1-based) of text. */
static const char *line_of(const char *text, int line, size_t *length)
{
    const char *p = text;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return NULL;
    const char *eol = strchr(p, '\n');
    *length = eol ? (size_t)(eol - p) : strlen(p);
    return p;
}

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
        if (p < stop && *p == ' ' && p + 1 < stop && p[1] == '<') { /* <Spelling=...> */
            while (p < stop && *p != '>')
                p++;
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

void amp__bl_print_at(strbuf *out, const bl_source_map *map, int line, int column,
                 const char *severity, const char *message, size_t message_length)
{
    size_t ulen = 0;
    const char *uline = map->file_text ? line_of(map->file_text, line, &ulen) : NULL;
    amp__sb_printf(out, "%s:%d:%d: %s: ", map->src->file, line, column, severity);
    amp__sb_append_n(out, message, message_length);
    amp__sb_append(out, "\n");
    if (uline) {
        amp__sb_printf(out, "%5d | ", line);
        amp__sb_append_n(out, uline, ulen);
        amp__sb_append(out, "\n      | ");
        for (int c = 1; c < column; c++)
            amp__sb_append(out, (size_t)(c - 1) < ulen && uline[c - 1] == '\t' ? "\t" : " ");
        amp__sb_append(out, "^\n");
    }
}

int amp__bl_map_open(bl_source_map *map, const cg_kernel *gen, const amp_kernel_source *src)
{
    memset(map, 0, sizeof *map);
    map->gen = gen;
    map->src = src;
    if (src->from_file) {
        /* The body is the file's text, as written. */
        map->file_text = src->body;
        return 1;
    }
    if (!gen->token_line)
        return 0;
    strbuf text = STRBUF_INIT;
    if (amp__sb_read_file(&text, src->file) != 0) {
        amp__sb_free(&text);
        return 0;
    }
    map->owned_text = amp__sb_take(&text);
    map->file_text = map->owned_text;
    if (!map->owned_text)
        return 0;
    size_t ntokens = src->body_length + 1;
    map->pos = malloc(ntokens * sizeof *map->pos);
    map->placed = map->pos ? amp__lex_locate(map->owned_text, src->line, src->body,
                                         src->body_length, map->pos, ntokens)
                           : 0;
    return map->placed > 0;
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
 * shifted by where the body starts. An inline body was laid out again by
 * layout.c, which recorded where each body token was printed;
 * amp__lex_locate() found those tokens in the user's file. */
int amp__bl_map_find(const bl_source_map *map, const char *where, size_t where_length, int gen_line,
                int gen_column, int *line, int *column)
{
    const cg_kernel *gen = map->gen;
    const amp_kernel_source *src = map->src;
    if (src->from_file) {
        int honoured = where && names_file(where, where_length, src->file);
        int l = honoured ? gen_line : gen_line - gen->body_line + 1;
        if (l < 1 || l > gen->body_lines)
            return 0;
        *line = l;
        *column = gen_column;
        return 1;
    }
    /* The token printed on that line at the column, or before it: the
     * layout recorded where each token of the body went, in the body or
     * among the tile_static declarations moved out of it. A report without
     * a column takes the line's first token. */
    long best = -1, first = -1;
    for (size_t i = 0; i < gen->ntokens && i < map->placed; i++) {
        if (gen->token_line[i] != gen_line)
            continue;
        if (first < 0 || gen->token_column[i] < gen->token_column[first])
            first = (long)i;
        if (gen->token_column[i] <= gen_column &&
            (best < 0 || gen->token_column[i] >= gen->token_column[best]))
            best = (long)i;
    }
    if (best < 0)
        best = first;
    if (best < 0)
        return 0;
    *line = map->pos[best].line;
    *column = map->pos[best].column;
    return 1;
}

void amp__bl_map_close(bl_source_map *map)
{
    free(map->pos);
    free(map->owned_text);
    memset(map, 0, sizeof *map);
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
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        diagnostic d;
        int line, column;
        if (parse_diagnostic(p, n, &d) &&
            amp__bl_map_find(&map, d.where, d.where_length, d.line, d.column, &line, &column)) {
            amp__bl_print_at(out, &map, line, column, d.severity, d.message, d.message_length);
            mapped++;
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
