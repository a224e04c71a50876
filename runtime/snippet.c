/*
 * runtime/snippet.c - a small tokenizer for kernel bodies, and the layout,
 * hoisting and write analysis built on it.
 */
#include "snippet.h"

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
    token first; /* the first token of the current line */
} layout;

static void newline(layout *l)
{
    if (l->at_line_start)
        return;
    sb_append(l->out, "\n");
    l->at_line_start = 1;
    l->lines++;
}

static void emit(layout *l, const token *t)
{
    if (l->at_line_start) {
        sb_indent(l->out, l->indent);
        l->at_line_start = 0;
        l->first = *t;
    } else if (t->space_before) {
        sb_append(l->out, " ");
    }
    sb_append_n(l->out, t->text, t->length);
}

/* Brace kinds on the stack: a block of statements, or an initializer list. */
enum { BLOCK = 'B', INIT = 'I' };
#define MAX_NESTING 256

int snip_format(const char *text, size_t length, int indent, strbuf *out, strbuf *hoisted)
{
    layout l = {out, indent, 1, 0, {NULL, 0, 0}};
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

        if (l.at_line_start && parens == 0 && !in_init && is(&t, "tile_static")) {
            /* Move the whole declaration to kernel scope, as written. */
            strbuf decl = STRBUF_INIT;
            sb_indent(hoisted, indent);
            sb_append_n(&decl, t.text, t.length);
            while (have_next && !is(&next, ";")) {
                if (next.space_before)
                    sb_append(&decl, " ");
                sb_append_n(&decl, next.text, next.length);
                have_next = lex(&lx, &next);
            }
            sb_append(&decl, ";");
            sb_append(hoisted, decl.data ? decl.data : "");
            sb_append(hoisted, "\n");
            sb_indent(out, l.indent);
            sb_printf(out, "/* moved to the top of the kernel: %s */\n", decl.data ? decl.data : "");
            l.lines++;
            sb_free(&decl);
            if (have_next) /* skip the ';' */
                have_next = lex(&lx, &next);
            prev = (token){";", 1, 0};
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

int snip_may_write(const char *text, size_t length, const char *name)
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

int snip_is_identifier(const char *s)
{
    if (!s || !is_ident_start((unsigned char)s[0]))
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!is_ident_char((unsigned char)*p))
            return 0;
    return 1;
}
