/*
 * runtime/buildlog.c - turning a driver's build log into messages about the
 * user's own lines.
 *
 * Drivers report lines of the generated source. The body in it was laid out
 * again by snippet.c, which recorded the first body token of each line, and
 * snippet.c can find those same tokens in the user's file: together they
 * take a (line, column) of the generated source to the user's file, line
 * and column.
 */
#include "buildlog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "snippet.h"

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

/* "file:line:col: severity: message", the line, and a caret under column. */
static void print_diagnostic(strbuf *out, const char *path, const char *file, int line, int column,
                             const diagnostic *d)
{
    size_t ulen = 0;
    const char *uline = file ? line_of(file, line, &ulen) : NULL;
    sb_printf(out, "%s:%d:%d: %s: ", path, line, column, d->severity);
    sb_append_n(out, d->message, d->message_length);
    sb_append(out, "\n");
    if (uline) {
        sb_printf(out, "%5d | ", line);
        sb_append_n(out, uline, ulen);
        sb_append(out, "\n      | ");
        for (int c = 1; c < column; c++)
            sb_append(out, (size_t)(c - 1) < ulen && uline[c - 1] == '\t' ? "\t" : " ");
        sb_append(out, "^\n");
    }
}

/* A body from a file is in the generated source as written, after a #line
 * directive. Drivers that honour #line report the file's lines already;
 * others (NVIDIA's) report generated lines, which are the file's lines
 * shifted by where the body starts. */
static int map_file_diagnostics(strbuf *out, const char *log, const cg_kernel *gen,
                                const amp_kernel_source *src)
{
    size_t name_len = strlen(src->file);
    int mapped = 0;
    for (const char *p = log; *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        diagnostic d;
        if (parse_diagnostic(p, n, &d)) {
            int honoured = d.where_length >= name_len &&
                           memcmp(d.where + d.where_length - name_len, src->file, name_len) == 0;
            int line = honoured ? d.line : d.line - gen->body_line + 1;
            if (line >= 1 && line <= gen->body_lines) {
                print_diagnostic(out, src->file, src->body, line, d.column, &d);
                mapped++;
            }
        }
        p += n + (eol ? 1 : 0);
    }
    return mapped;
}

int bl_map_diagnostics(strbuf *out, const char *log, const cg_kernel *gen,
                       const amp_kernel_source *src)
{
    if (!log)
        return 0;
    if (src->from_file)
        return map_file_diagnostics(out, log, gen, src);
    if (!gen->body_tokens)
        return 0;
    strbuf text = STRBUF_INIT;
    if (sb_read_file(&text, src->file) != 0) {
        sb_free(&text);
        return 0;
    }
    char *file = sb_take(&text);
    if (!file)
        return 0;
    size_t ntokens = src->body_length + 1;
    snip_pos *pos = malloc(ntokens * sizeof *pos);
    size_t placed = pos ? snip_locate(file, src->line, src->body, src->body_length, pos, ntokens)
                        : 0;
    int mapped = 0;
    for (const char *p = log; placed > 0 && *p;) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        diagnostic d;
        int k = 0;
        if (parse_diagnostic(p, n, &d) && (k = d.line - gen->body_line) >= 0 &&
            k < gen->body_lines && gen->body_tokens[k] >= 0) {
            size_t glen = 0;
            const char *gline = line_of(gen->source, d.line, &glen);
            size_t ordinal = (size_t)gen->body_tokens[k] +
                             (size_t)(gline ? snip_token_at_column(gline, glen, d.column) : 0);
            if (ordinal < placed) {
                print_diagnostic(out, src->file, file, pos[ordinal].line, pos[ordinal].column, &d);
                mapped++;
            }
        }
        p += n + (eol ? 1 : 0);
    }
    free(pos);
    free(file);
    return mapped;
}

void bl_number_lines(strbuf *out, const char *source)
{
    int line = 1;
    const char *p = source;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        sb_printf(out, "%5d | ", line++);
        sb_append_n(out, p, len);
        sb_append(out, "\n");
        p += len + (eol ? 1 : 0);
    }
}
