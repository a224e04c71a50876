/*
 * runtime/translate/lexer.c - tokens of OpenCL C source.
 */
#include "translate/lexer.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/limits.h"

/* ASCII only: the locale must not change what a name is. */
static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_ident_start(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident_char(int c)
{
    return is_ident_start(c) || is_digit(c);
}

/* The punctuators of C that are longer than one byte, longest first, C's
 * digraphs among them (<: :> <% %> %: %:%:, which spell [ ] { } # ##). */
static const char *const long_puncts[] = {
    "%:%:", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "+=",   "-=",  "*=",  "/=",  "%=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:"};

typedef struct cursor {
    const char *p;
    const char *end;
    const char *start;
} cursor;

/* Skip whitespace and comments; nonzero when anything was skipped. A
 * newline skipped (not one escaped by a backslash) sets *newline. */
static int skip_blank(cursor *c, int *newline)
{
    const char *start = c->p;
    for (;;) {
        if (c->end - c->p >= 2 && c->p[0] == '\\' && c->p[1] == '\n') {
            c->p += 2;
        } else if (c->p < c->end && is_space((unsigned char)*c->p)) {
            *newline |= *c->p == '\n';
            c->p++;
        } else if (c->end - c->p >= 2 && c->p[0] == '/' && c->p[1] == '/') {
            while (c->p < c->end && *c->p != '\n')
                c->p++;
        } else if (c->end - c->p >= 2 && c->p[0] == '/' && c->p[1] == '*') {
            c->p += 2;
            while (c->end - c->p >= 2 && !(c->p[0] == '*' && c->p[1] == '/')) {
                *newline |= *c->p == '\n';
                c->p++;
            }
            c->p = c->end - c->p >= 2 ? c->p + 2 : c->end;
        } else {
            break;
        }
    }
    return c->p != start;
}

/* The token at c->p (after blanks); 0 at the end of the text. */
static int next_token(cursor *c, lex_token *t)
{
    int newline = c->p == c->start;
    int space = skip_blank(c, &newline);
    if (c->p >= c->end)
        return 0;
    const char *p = c->p, *end = c->end;
    const char *start = p;
    int ch = (unsigned char)*p;
    lex_kind kind = LEX_PUNCT;
    if (is_ident_start(ch)) {
        kind = LEX_IDENT;
        while (p < end && is_ident_char((unsigned char)*p))
            p++;
    } else if (is_digit(ch) || (ch == '.' && end - p >= 2 && is_digit((unsigned char)p[1]))) {
        /* A preprocessing number: digits, letters, dots, signed exponents. */
        kind = LEX_NUMBER;
        p++;
        while (p < end) {
            int d = (unsigned char)*p;
            if ((d == '+' || d == '-') && strchr("eEpP", p[-1]))
                p++;
            else if (is_ident_char(d) || d == '.')
                p++;
            else
                break;
        }
    } else if (ch == '"' || ch == '\'') {
        kind = ch == '"' ? LEX_STRING : LEX_CHAR;
        p++;
        while (p < end && *p != ch) {
            if (*p == '\\' && end - p >= 2)
                p++;
            p++;
        }
        if (p < end)
            p++;
    } else {
        size_t n = 1;
        for (size_t i = 0; i < sizeof long_puncts / sizeof long_puncts[0]; i++) {
            size_t len = strlen(long_puncts[i]);
            if ((size_t)(end - p) >= len && memcmp(p, long_puncts[i], len) == 0) {
                n = len;
                break;
            }
        }
        p += n;
    }
    t->text = start;
    t->length = (uint32_t)(p - start);
    t->kind = (uint8_t)kind;
    t->space_before = (uint8_t)space;
    t->line_start = (uint8_t)newline;
    c->p = p;
    return 1;
}

amp_status amp__lex(const char *text, size_t length, lex_tokens *out)
{
    out->items = NULL;
    out->count = 0;
    if (length > INT32_MAX)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "A kernel body of %zu bytes is longer than the 2^31 bytes the"
                            " runtime reads.",
                            length);
    /* A token takes at least one byte: length + 1 is always enough. */
    lex_token *items = malloc((length + 1) * sizeof *items);
    if (!items)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                            "Out of host memory reading a kernel body of %zu bytes.", length);
    cursor c = {text, text + length, text};
    size_t n = 0;
    while (next_token(&c, &items[n]))
        n++;
    out->items = items;
    out->count = n;
    return AMP_OK;
}

void amp__lex_free(lex_tokens *tokens)
{
    free(tokens->items);
    tokens->items = NULL;
    tokens->count = 0;
}

const char *amp__lex_digraph(const lex_token *t)
{
    static const char *const digraphs[][2] = {{"<:", "["}, {":>", "]"}, {"<%", "{"},
                                              {"%>", "}"}, {"%:", "#"}, {"%:%:", "##"}};
    if (t->kind != LEX_PUNCT || (t->length != 2 && t->length != 4) ||
        (t->text[0] != '<' && t->text[0] != ':' && t->text[0] != '%'))
        return NULL;
    for (size_t i = 0; i < sizeof digraphs / sizeof digraphs[0]; i++)
        if (t->length == strlen(digraphs[i][0]) && memcmp(t->text, digraphs[i][0], t->length) == 0)
            return digraphs[i][1];
    return NULL;
}

int amp__lex_is(const lex_token *t, const char *s)
{
    size_t n = strlen(s);
    if (t->length == n && memcmp(t->text, s, n) == 0)
        return 1;
    const char *meaning = amp__lex_digraph(t);
    return meaning && strcmp(meaning, s) == 0;
}

char amp__lex_bracket(const lex_token *t)
{
    if (t->kind != LEX_PUNCT)
        return 0;
    if (t->length == 1)
        return strchr("()[]{}", t->text[0]) ? t->text[0] : 0;
    const char *meaning = amp__lex_digraph(t);
    return meaning && strchr("[]{}", meaning[0]) ? meaning[0] : 0;
}

int amp__lex_is_any(const lex_token *t, const char *const *words)
{
    for (; *words; words++)
        if (amp__lex_is(t, *words))
            return 1;
    return 0;
}

int amp__lex_leading_number(const lex_token *t)
{
    int n = 0;
    for (uint32_t i = 0; i < t->length && i < 9 && t->text[i] >= '0' && t->text[i] <= '9'; i++)
        n = n * 10 + (t->text[i] - '0');
    return n;
}

int amp__lex_has_prefix(const lex_token *t, const char *prefix)
{
    size_t n = strlen(prefix);
    return t->kind == LEX_IDENT && t->length > n && memcmp(t->text, prefix, n) == 0;
}

/* Whether t and the tokens after it spell NS::NAME with NS_NAME equal to
 * name (fast_math::sqrt for fast_math_sqrt), as the body reader reads it. */
static int qualified_is(const lex_token *t, cursor after, const char *name, int prefix)
{
    size_t n = strlen(name);
    if (t->kind != LEX_IDENT || n <= t->length || memcmp(name, t->text, t->length) != 0 ||
        name[t->length] != '_')
        return 0;
    lex_token c1, c2, id;
    if (!next_token(&after, &c1) || !amp__lex_is(&c1, ":") || !next_token(&after, &c2) ||
        !amp__lex_is(&c2, ":") || c2.space_before || !next_token(&after, &id) ||
        id.kind != LEX_IDENT)
        return 0;
    const char *rest = name + t->length + 1;
    size_t m = strlen(rest);
    return prefix ? id.length > m && memcmp(id.text, rest, m) == 0
                  : id.length == m && memcmp(id.text, rest, m) == 0;
}

int amp__lex_text_uses(const char *text, size_t length, const char *name, int prefix)
{
    cursor c = {text, text + length, text};
    lex_token t;
    while (next_token(&c, &t))
        if (t.kind == LEX_IDENT &&
            ((prefix ? amp__lex_has_prefix(&t, name) : amp__lex_is(&t, name)) ||
             qualified_is(&t, c, name, prefix)))
            return 1;
    return 0;
}

/* ---- Finding the body in the user's file ---- */

/* A cursor over a whole file that counts lines; blanks are skipped as the
 * preprocessor skips them, backslash-newlines included. */
typedef struct file_cursor {
    cursor c;
    int line;
    const char *line_start;
} file_cursor;

static void file_skip_blank(file_cursor *f)
{
    const char *p = f->c.p, *end = f->c.end;
    for (;;) {
        if (p < end && *p == '\n') {
            p++;
            f->line++;
            f->line_start = p;
        } else if (p < end && is_space((unsigned char)*p)) {
            p++;
        } else if (end - p >= 2 && p[0] == '\\' && p[1] == '\n') {
            p += 2;
            f->line++;
            f->line_start = p;
        } else if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (end - p >= 2 && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') {
                    f->line++;
                    f->line_start = p + 1;
                }
                p++;
            }
            p = end - p >= 2 ? p + 2 : end;
        } else {
            break;
        }
    }
    f->c.p = p;
}

static int file_token(file_cursor *f, lex_token *t, lex_pos *pos)
{
    file_skip_blank(f);
    pos->line = f->line;
    pos->column = (int)(f->c.p - f->line_start) + 1;
    return next_token(&f->c, t);
}

static int same(const lex_token *a, const lex_token *b)
{
    return a->length == b->length && memcmp(a->text, b->text, a->length) == 0;
}

/* Store p as the place of the next token, if there is room. */
static void put(lex_pos *pos, size_t n, size_t *placed, lex_pos p)
{
    if (*placed < n)
        pos[*placed] = p;
    (*placed)++;
}

/* After a name in the file that the body does not have: skip the
 * parenthesized arguments that follow it, if any, and read the token after
 * the whole macro use into *t and *at. 0 when the file ends first (then *t
 * is empty). */
static int after_macro_use(file_cursor *f, lex_token *t, lex_pos *at)
{
    if (!file_token(f, t, at))
        return 0;
    if (!amp__lex_is(t, "("))
        return 1;
    int depth = 1;
    while (depth > 0 && file_token(f, t, at))
        depth += amp__lex_is(t, "(") ? 1 : amp__lex_is(t, ")") ? -1 : 0;
    return depth == 0 && file_token(f, t, at);
}

/* Match the body's tokens one by one from the file cursor g, whose
 * previous token (at *first) matched the body's first. Returns the number
 * of tokens placed, or 0 when the body is not there. */
static size_t match_from(file_cursor g, lex_pos first, const char *body, size_t length,
                         lex_pos *pos, size_t n, int flags, file_cursor *end)
{
    cursor b = {body, body + length, body};
    lex_token bt, ft;
    lex_pos fp;
    size_t placed = 0;
    next_token(&b, &bt); /* the first token, already matched */
    put(pos, n, &placed, first);
    int more = next_token(&b, &bt);
    while (more) {
        if (!file_token(&g, &ft, &fp))
            return 0;
        if (same(&bt, &ft)) {
            put(pos, n, &placed, fp);
            more = next_token(&b, &bt);
            continue;
        }
        /* The commas between a macro's arguments are not in the text
         * their # made. */
        if ((flags & LEX_LOCATE_MACRO_ARGS) && amp__lex_is(&ft, ","))
            continue;
        if (!(flags & LEX_LOCATE_MACROS) || ft.kind != LEX_IDENT)
            return 0;
        /* A host macro: the body holds its expansion. Its tokens are all
         * placed at the macro's name, up to the file's token after the
         * macro use (a body ending inside the expansion ends there). */
        lex_pos name = fp;
        file_cursor after = g;
        int resume = after_macro_use(&after, &ft, &fp);
        size_t taken = 0;
        while (more && !(resume && same(&bt, &ft))) {
            if (++taken > LIMIT_MACRO_EXPANSION)
                return 0;
            put(pos, n, &placed, name);
            more = next_token(&b, &bt);
        }
        if (!more)
            break;
        g = after;
        put(pos, n, &placed, fp);
        more = next_token(&b, &bt);
    }
    *end = g;
    return placed < n ? placed : n;
}

/* A place where every token of the body matches: the file's cursor at
 * its first token, that token's position, and the cursor past its last. */
typedef struct body_place {
    file_cursor at;
    lex_pos first;
    file_cursor end;
} body_place;

/* Whether the statement of a body that ends at end is still open at the
 * start of line `line`: no ';' between. */
static int open_until(file_cursor end, int line)
{
    lex_token t;
    lex_pos at;
    while (file_token(&end, &t, &at) && at.line < line)
        if (amp__lex_is(&t, ";"))
            return 0;
    return 1;
}

/* The body's place for a call whose __LINE__ is from_line, with flags.
 * gcc's __LINE__ in a macro call of many lines is the line where the call
 * starts, so its body starts at or below it; clang's is the line where the
 * call ends, so its body ends at or above it, in a statement that has not
 * ended before that line. So: the last place above from_line whose
 * statement is still open there, else the first place at or below it,
 * else the last above. Returns the tokens placed into pos, or 0. */
static size_t locate_near(const char *file_text, int from_line, const lex_token *first,
                          const char *body, size_t length, lex_pos *pos, size_t n, int flags)
{
    file_cursor f = {{file_text, file_text + strlen(file_text), file_text}, 1, file_text};
    body_place above = {0}, below = {0};
    int have_above = 0, have_below = 0;
    lex_token t;
    lex_pos at;
    while (!have_below && file_token(&f, &t, &at)) {
        if (!same(&t, first))
            continue;
        body_place p = {f, at, f};
        lex_pos probe;
        if (!match_from(f, at, body, length, &probe, 1, flags, &p.end))
            continue;
        if (at.line >= from_line) {
            below = p;
            have_below = 1;
        } else {
            above = p;
            have_above = 1;
        }
    }
    if (!have_above && !have_below)
        return 0;
    const body_place *p = have_above && (open_until(above.end, from_line) || !have_below) ? &above
                                                                                          : &below;
    file_cursor end;
    return match_from(p->at, p->first, body, length, pos, n, flags, &end);
}

size_t amp__lex_locate(const char *file_text, int from_line, const char *body, size_t length,
                       lex_pos *pos, size_t n, int flags)
{
    lex_token first;
    cursor bc = {body, body + length, body};
    if (!next_token(&bc, &first))
        return 0;
    /* Try each place where the body's first token appears (the body
     * follows the index name and the captures, so its first token is
     * usually the first '{'), and keep those where every token matches;
     * only when none does, take host macros into account, which could
     * otherwise make a wrong place match. */
    int passes[2] = {flags & ~LEX_LOCATE_MACROS, flags};
    for (int pass = 0; pass < ((flags & LEX_LOCATE_MACROS) ? 2 : 1); pass++) {
        size_t placed = locate_near(file_text, from_line, &first, body, length, pos, n,
                                    passes[pass]);
        if (placed)
            return placed;
    }
    return 0;
}

/* ---- Diagnostics at the user's lines ---- */

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

void amp__lex_diagnostic(strbuf *out, const char *file, const char *file_text, int line, int column,
                         const char *severity, const char *message, size_t length)
{
    size_t ulen = 0;
    const char *uline = file_text ? line_of(file_text, line, &ulen) : NULL;
    amp__sb_printf(out, "%s:%d:%d: %s: ", file, line, column, severity);
    amp__sb_append_n(out, message, length);
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
