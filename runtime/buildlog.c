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

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    strbuf sb = STRBUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_append_n(&sb, chunk, n);
    fclose(f);
    return sb_take(&sb);
}

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
        d->line = (int)line;
        d->column = (int)column;
        d->message = p;
        d->message_length = (size_t)(stop - p);
        return 1;
    }
    return 0;
}

int bl_map_diagnostics(strbuf *out, const char *log, const cg_kernel *gen,
                       const amp_kernel_source *src)
{
    if (!log || !gen->body_tokens || src->from_file)
        return 0;
    char *file = read_file(src->file);
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
                snip_pos at = pos[ordinal];
                size_t ulen = 0;
                const char *uline = line_of(file, at.line, &ulen);
                sb_printf(out, "%s:%d:%d: %s: ", src->file, at.line, at.column, d.severity);
                sb_append_n(out, d.message, d.message_length);
                sb_append(out, "\n");
                if (uline) {
                    sb_printf(out, "%5d | ", at.line);
                    sb_append_n(out, uline, ulen);
                    sb_append(out, "\n      | ");
                    for (int c = 1; c < at.column; c++)
                        sb_append(out, (size_t)(c - 1) < ulen && uline[c - 1] == '\t' ? "\t" : " ");
                    sb_append(out, "^\n");
                }
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
