/*
 * runtime/kernel/snippet.c - a small tokenizer for kernel bodies, and the layout,
 * hoisting and write analysis built on it.
 */
#include "kernel/snippet.h"

#include <ctype.h>
#include <string.h>

typedef struct token {
    const char *text;
    size_t length;
    int space_before; /* whitespace preceded it in the body */
} token;

typedef struct lexer {
    const char *p;
    const char *end;
} lexer;

static int is_ident_start(int c)
{
    return isalpha(c) || c == '_';
}

static int is_ident_char(int c)
{
    return isalnum(c) || c == '_';
}

/* The punctuators of C that are longer than one character, longest first. */
static const char *const long_puncts[] = {"<<=", ">>=", "...", "->", "++", "--", "<<", ">>",
                                          "<=",  ">=",  "==",  "!=", "&&", "||", "+=", "-=",
                                          "*=",  "/=",  "%=",  "&=", "^=", "|=", "##"};

/* The next token, or 0 at the end of the text. */
static int lex(lexer *lx, token *t)
{
    const char *p = lx->p;
    int space = 0;
    while (p < lx->end && isspace((unsigned char)*p)) {
        p++;
        space = 1;
    }
    if (p >= lx->end) {
        lx->p = p;
        return 0;
    }
    const char *start = p;
    int c = (unsigned char)*p;
    if (is_ident_start(c)) {
        while (p < lx->end && is_ident_char((unsigned char)*p))
            p++;
    } else if (isdigit(c) || (c == '.' && p + 1 < lx->end && isdigit((unsigned char)p[1]))) {
        /* A preprocessing number: digits, letters, dots, and signed exponents. */
        p++;
        while (p < lx->end) {
            int d = (unsigned char)*p;
            if ((d == '+' || d == '-') && strchr("eEpP", p[-1]))
                p++;
            else if (is_ident_char(d) || d == '.')
                p++;
            else
                break;
        }
    } else if (c == '"' || c == '\'') {
        p++;
        while (p < lx->end && *p != c) {
            if (*p == '\\' && p + 1 < lx->end)
                p++;
            p++;
        }
        if (p < lx->end)
            p++;
    } else {
        size_t n = 1;
        for (size_t i = 0; i < sizeof long_puncts / sizeof long_puncts[0]; i++) {
            size_t len = strlen(long_puncts[i]);
            if ((size_t)(lx->end - p) >= len && memcmp(p, long_puncts[i], len) == 0) {
                n = len;
                break;
            }
        }
        p += n;
    }
    t->text = start;
    t->length = (size_t)(p - start);
    t->space_before = space;
    lx->p = p;
    return 1;
}

static int is(const token *t, const char *s)
{
    return t->length == strlen(s) && memcmp(t->text, s, t->length) == 0;
}

/* ---- Layout ---- */

typedef struct layout {
    strbuf *out;
    int indent;        /* spaces at the start of the next line */
    int at_line_start; /* nothing written on the current line yet */
    int lines;
    token first;      /* the first token of the current line */
    int ordinal;      /* the ordinal of the token being written */
    int *first_token; /* per output line: the ordinal of its first token */
    int *hoisted_first_token; /* per hoisted line: the ordinal of its first token */
    int hoisted_lines;
    int max_lines;
} layout;

static void mark_line(layout *l, int ordinal)
{
    if (l->first_token && l->lines < l->max_lines)
        l->first_token[l->lines] = ordinal;
}

static void newline(layout *l)
{
    if (l->at_line_start)
        return;
    amp__sb_append(l->out, "\n");
    l->at_line_start = 1;
    l->lines++;
}

static void emit(layout *l, const token *t)
{
    if (l->at_line_start) {
        amp__sb_indent(l->out, l->indent);
        l->at_line_start = 0;
        l->first = *t;
        mark_line(l, l->ordinal);
    } else if (t->space_before) {
        amp__sb_append(l->out, " ");
    }
    amp__sb_append_n(l->out, t->text, t->length);
}

/* The directive an AMP_ word stands for, or NULL. Those followed by a
 * parenthesized argument take it as the rest of the line. */
static const char *directive_of(const token *t, int *takes_argument)
{
    static const struct {
        const char *word, *directive;
        int argument;
    } table[] = {{"AMP_PRAGMA", "#pragma", 1}, {"AMP_IF", "#if", 1},   {"AMP_IFDEF", "#ifdef", 1},
                 {"AMP_IFNDEF", "#ifndef", 1}, {"AMP_ELIF", "#elif", 1}, {"AMP_ELSE", "#else", 0},
                 {"AMP_ENDIF", "#endif", 0},   {"AMP_DEFINE", "#define", 1}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (is(t, table[i].word)) {
            *takes_argument = table[i].argument;
            return table[i].directive;
        }
    return NULL;
}

/* Brace kinds on the stack: a block of statements, or an initializer list. */
enum { BLOCK = 'B', INIT = 'I' };
#define MAX_NESTING 256

int amp__snip_format(const char *text, size_t length, int indent, strbuf *out, strbuf *hoisted,
                int *first_token, int *hoisted_first_token, int max_lines)
{
    layout l = {out, indent, 1, 0, {NULL, 0, 0}, 0, first_token, hoisted_first_token, 0, max_lines};
    lexer lx = {text, text + length};
    char braces[MAX_NESTING];
    int depth = 0;  /* braces open */
    int parens = 0; /* ( and [ open */
    token prev = {"", 0, 0};
    token t;
    int have = lex(&lx, &t);
    while (have) {
        token next;
        int have_next = lex(&lx, &next);
        int in_init = depth > 0 && braces[depth - 1] == INIT;
        int takes_argument = 0;
        const char *directive = directive_of(&t, &takes_argument);

        if (directive) {
            /* A preprocessor line of its own, at column 0 as is usual. */
            int ord = l.ordinal; /* the ordinal of the last token consumed */
            newline(&l);
            mark_line(&l, ord);
            amp__sb_append(out, directive);
            if (takes_argument && have_next && is(&next, "(")) {
                ord++;
                int nest = 1;
                while ((have_next = lex(&lx, &next)) != 0) {
                    ord++;
                    if (is(&next, "("))
                        nest++;
                    else if (is(&next, ")") && --nest == 0)
                        break;
                    amp__sb_append(out, " ");
                    amp__sb_append_n(out, next.text, next.length);
                }
                if (have_next)
                    have_next = lex(&lx, &next);
            }
            amp__sb_append(out, "\n");
            l.lines++;
            l.ordinal = ord + 1;
            t = next;
            have = have_next;
            continue;
        }

        if (hoisted && l.at_line_start && parens == 0 && !in_init && is(&t, "tile_static")) {
            /* Move the whole declaration to kernel scope, as written. */
            int ord = l.ordinal;
            if (l.hoisted_first_token && l.hoisted_lines < l.max_lines)
                l.hoisted_first_token[l.hoisted_lines] = ord;
            l.hoisted_lines++;
            strbuf decl = STRBUF_INIT;
            amp__sb_indent(hoisted, indent);
            amp__sb_append_n(&decl, t.text, t.length);
            while (have_next && !is(&next, ";")) {
                if (next.space_before)
                    amp__sb_append(&decl, " ");
                amp__sb_append_n(&decl, next.text, next.length);
                have_next = lex(&lx, &next);
                ord++;
            }
            amp__sb_append(&decl, ";");
            amp__sb_append(hoisted, decl.data ? decl.data : "");
            amp__sb_append(hoisted, "\n");
            amp__sb_indent(out, l.indent);
            amp__sb_printf(out, "/* moved to the top of the kernel: %s */\n", decl.data ? decl.data : "");
            mark_line(&l, l.ordinal);
            l.lines++;
            amp__sb_free(&decl);
            if (have_next) { /* past the ';' */
                have_next = lex(&lx, &next);
                ord++;
            }
            prev = (token){";", 1, 0};
            l.ordinal = ord + 1;
            t = next;
            have = have_next;
            continue;
        }

        if (is(&t, "{")) {
            int block = parens == 0 && !in_init && !is(&prev, "=") && !is(&prev, ",") &&
                        !is(&prev, "return");
            if (depth < MAX_NESTING)
                braces[depth] = block ? BLOCK : INIT;
            depth++;
            emit(&l, &t);
            if (block) {
                newline(&l);
                l.indent += 4;
            }
        } else if (is(&t, "}")) {
            int block = depth > 0 && depth <= MAX_NESTING && braces[depth - 1] == BLOCK;
            if (depth > 0)
                depth--;
            if (block) {
                newline(&l);
                l.indent -= 4;
                if (l.indent < indent)
                    l.indent = indent;
                t.space_before = 0;
                emit(&l, &t);
                /* "} else", "} while (...);" and "};" stay on the line. */
                if (!(have_next && (is(&next, "else") || is(&next, "while") || is(&next, ";") ||
                                    is(&next, ",") || is(&next, ")"))))
                    newline(&l);
            } else {
                emit(&l, &t);
            }
        } else if (is(&t, ";")) {
            t.space_before = 0;
            emit(&l, &t);
            if (parens == 0 && !in_init)
                newline(&l);
        } else if (is(&t, ":") && parens == 0 &&
                   (is(&l.first, "case") || is(&l.first, "default"))) {
            emit(&l, &t);
            newline(&l);
        } else {
            if (is(&t, "(") || is(&t, "["))
                parens++;
            else if ((is(&t, ")") || is(&t, "]")) && parens > 0)
                parens--;
            emit(&l, &t);
        }
        prev = t;
        t = next;
        have = have_next;
        l.ordinal++;
    }
    newline(&l);
    return l.lines;
}

/* ---- Write analysis ---- */

static int is_assignment(const token *t)
{
    static const char *const ops[] = {"=",  "+=", "-=", "*=",  "/=",  "%=", "&=",
                                      "|=", "^=", "<<=", ">>=", "++", "--"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (is(t, ops[i]))
            return 1;
    return 0;
}

int amp__snip_may_write(const char *text, size_t length, const char *name)
{
    lexer lx = {text, text + length};
    token prev = {"", 0, 0}, t;
    while (lex(&lx, &t)) {
        if (!is(&t, name) || is(&prev, ".") || is(&prev, "->")) {
            prev = t;
            continue;
        }
        /* ++v(i), --v(i), &v(i) */
        if (is(&prev, "++") || is(&prev, "--") || is(&prev, "&"))
            return 1;
        token next;
        if (!lex(&lx, &next) || !is(&next, "("))
            return 1; /* the bare name: it may go anywhere */
        int parens = 1;
        while (parens > 0 && lex(&lx, &next)) {
            if (is(&next, "("))
                parens++;
            else if (is(&next, ")"))
                parens--;
        }
        token after;
        if (!lex(&lx, &after))
            return 0;
        if (is_assignment(&after) || is(&after, ".") || is(&after, "[") || is(&after, "->"))
            return 1;
        /* Not a write: read on from the token after the ')'. */
        lx.p = after.text;
        prev = next;
    }
    return 0;
}

/* ---- Queries ---- */

int amp__snip_uses(const char *text, size_t length, const char *name)
{
    lexer lx = {text, text + length};
    token t;
    while (lex(&lx, &t))
        if (is(&t, name))
            return 1;
    return 0;
}

int amp__snip_uses_prefix(const char *text, size_t length, const char *prefix)
{
    size_t n = strlen(prefix);
    lexer lx = {text, text + length};
    token t;
    while (lex(&lx, &t))
        if (t.length > n && memcmp(t.text, prefix, n) == 0)
            return 1;
    return 0;
}

/* ---- Finding the body in the user's file ---- */

/* A lexer over a whole source file: skips comments and tracks lines. */
typedef struct file_lexer {
    lexer lx;
    int line;
    const char *line_start;
} file_lexer;

static void skip_space_and_comments(file_lexer *f)
{
    const char *p = f->lx.p, *end = f->lx.end;
    for (;;) {
        if (p < end && *p == '\n') {
            p++;
            f->line++;
            f->line_start = p;
        } else if (p < end && isspace((unsigned char)*p)) {
            p++;
        } else if (p + 1 < end && p[0] == '\\' && p[1] == '\n') {
            p += 2;
            f->line++;
            f->line_start = p;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '/') {
            while (p < end && *p != '\n')
                p++;
        } else if (p + 1 < end && p[0] == '/' && p[1] == '*') {
            p += 2;
            while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
                if (*p == '\n') {
                    f->line++;
                    f->line_start = p + 1;
                }
                p++;
            }
            p = p + 1 < end ? p + 2 : end;
        } else {
            break;
        }
    }
    f->lx.p = p;
}

static int lex_file(file_lexer *f, token *t, snip_pos *pos)
{
    skip_space_and_comments(f);
    pos->line = f->line;
    pos->column = (int)(f->lx.p - f->line_start) + 1;
    return lex(&f->lx, t);
}

static int same(const token *a, const token *b)
{
    return a->length == b->length && memcmp(a->text, b->text, a->length) == 0;
}

size_t amp__snip_locate(const char *file_text, int from_line, const char *body, size_t length,
                   snip_pos *pos, size_t n)
{
    file_lexer f = {{file_text, file_text + strlen(file_text)}, 1, file_text};
    /* Skip to the line of the call. */
    while (f.line < from_line && f.lx.p < f.lx.end) {
        if (*f.lx.p == '\n') {
            f.line++;
            f.line_start = f.lx.p + 1;
        }
        f.lx.p++;
    }
    token first;
    lexer bl = {body, body + length};
    if (!lex(&bl, &first))
        return 0;
    /* Try each place where the body's first token appears, and keep the
     * first where every token matches (the body follows the index name and
     * the captures, so its first token is usually the first '{'). */
    token t;
    snip_pos at;
    while (lex_file(&f, &t, &at)) {
        if (!same(&t, &first))
            continue;
        file_lexer g = f;
        lexer b = {body, body + length};
        token bt, ft;
        size_t placed = 0;
        int ok = 1;
        lex(&b, &bt); /* the first token, already matched */
        if (placed < n)
            pos[placed] = at;
        placed++;
        snip_pos fp;
        while (lex(&b, &bt)) {
            if (!lex_file(&g, &ft, &fp) || !same(&bt, &ft)) {
                ok = 0;
                break;
            }
            if (placed < n)
                pos[placed] = fp;
            placed++;
        }
        if (ok)
            return placed < n ? placed : n;
    }
    return 0;
}

int amp__snip_token_at_column(const char *line, size_t length, int column)
{
    lexer lx = {line, line + length};
    token t;
    int ordinal = -1;
    while (lex(&lx, &t)) {
        if ((int)(t.text - line) + 1 > column)
            break;
        ordinal++;
    }
    return ordinal < 0 ? 0 : ordinal;
}
