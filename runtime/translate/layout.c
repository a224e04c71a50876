/*
 * runtime/translate/layout.c - printing a read body one statement per line,
 * its tile_static declarations and the preprocessor lines that go with
 * them where hoist.c moved them.
 */
#include "translate/layout.h"

#include <string.h>

#include "core/lexicon.h"

typedef struct printer {
    const kbody *b;
    strbuf *out;
    int indent;        /* spaces at the start of the next line */
    int base;          /* the body's own indent */
    int at_line_start; /* nothing printed on the current line yet */
    int lines;
    size_t line_offset;     /* where the current line starts in out */
    const lex_token *first; /* the first token of the current line */
    const layout_map *map;
} printer;

/* Token i starts here, at the current line's current column. */
static void place(printer *p, size_t i)
{
    if (p->map) {
        p->map->token_line[i] = p->lines;
        p->map->token_column[i] = (int)(p->out->length - p->line_offset) + 1;
    }
}

static void newline(printer *p)
{
    if (p->at_line_start)
        return;
    amp__sb_append(p->out, "\n");
    p->at_line_start = 1;
    p->lines++;
    p->line_offset = p->out->length;
}

/* A line of its own ended by hand (a preprocessor line, a comment). */
static void line_done(printer *p)
{
    amp__sb_append(p->out, "\n");
    p->lines++;
    p->line_offset = p->out->length;
}

/* Print token i as the reader rewrote it, after a space where the user had
 * one (none before a rewriting that starts with ',' or ')', nor for one
 * that prints nothing). */
static void emit(printer *p, size_t i, int space)
{
    uint32_t length;
    const char *text = amp__body_token_text(p->b, i, &length);
    const char *before = amp__body_token_before(p->b, i);
    const char *after = amp__body_token_after(p->b, i);
    if (length == 0 && !before && !after)
        return;
    if (p->at_line_start) {
        amp__sb_indent(p->out, p->indent);
        p->at_line_start = 0;
        p->first = &p->b->tokens.items[i];
    } else if (space && !(length > 0 && !before && (text[0] == ',' || text[0] == ')'))) {
        amp__sb_append(p->out, " ");
    }
    place(p, i);
    if (before)
        amp__sb_append(p->out, before);
    amp__sb_append_n(p->out, text, length);
    if (after)
        amp__sb_append(p->out, after);
}

void amp__layout_verbatim(const kbody *b, const char *text, strbuf *out)
{
    const char *at = text;
    for (size_t i = 0; i < b->tokens.count; i++) {
        const lex_token *t = &b->tokens.items[i];
        amp__sb_append_n(out, at, (size_t)(t->text - at));
        const char *before = amp__body_token_before(b, i);
        const char *after = amp__body_token_after(b, i);
        uint32_t length;
        const char *printed = amp__body_token_text(b, i, &length);
        if (before)
            amp__sb_append(out, before);
        amp__sb_append_n(out, printed, length);
        if (after)
            amp__sb_append(out, after);
        at = t->text + t->length;
    }
    amp__sb_append(out, at);
}

void amp__layout_comment_text(strbuf *out, const char *text, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (c == '\n' || c == '\r')
            c = ' ';
        amp__sb_append_n(out, &c, 1);
        if (c == '*' && i + 1 < length && text[i + 1] == '/')
            amp__sb_append(out, " ");
    }
}

/* The tokens first .. last as the user wrote them, spaced as written. */
static void original_text(strbuf *sb, const kbody *b, size_t first, size_t last, int comment)
{
    for (size_t i = first; i <= last; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (i > first && t->space_before && !amp__lex_is(t, ";"))
            amp__sb_append(sb, " ");
        if (comment)
            amp__layout_comment_text(sb, t->text, t->length);
        else
            amp__sb_append_n(sb, t->text, t->length);
    }
}

static const char *directive_of(const lex_token *t)
{
    static const struct {
        const char *word, *directive;
    } table[] = {{"AMP_PRAGMA", "#pragma"}, {"AMP_IF", "#if"},        {"AMP_IFDEF", "#ifdef"},
                 {"AMP_IFNDEF", "#ifndef"}, {"AMP_ELIF", "#elif"},    {"AMP_ELSE", "#else"},
                 {"AMP_ENDIF", "#endif"},   {"AMP_DEFINE", "#define"}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (amp__lex_is(t, table[i].word))
            return table[i].directive;
    return "#error";
}

/* A preprocessor line of its own, at column 0 as is usual: the directive,
 * then its argument as written (so AMP_DEFINE(SQ(x) ...) keeps SQ(x) a
 * function-like macro). Returns the last token it used. */
/* The directive whose word is token i, and its argument, into out.
 * Returns the last token it used. */
static size_t directive_text(const kbody *b, size_t i, strbuf *out)
{
    amp__sb_append(out, directive_of(&b->tokens.items[i]));
    size_t k = i + 1;
    if (k < b->tokens.count && (b->flags[k] & TOK_DIRECTIVE_PAREN)) {
        int first = 1;
        for (k++; k < b->tokens.count && !(b->flags[k] & TOK_DIRECTIVE_PAREN); k++) {
            const lex_token *t = &b->tokens.items[k];
            if (first || t->space_before)
                amp__sb_append(out, " ");
            /* Spelled as in the body (long long as long, sqrtf as
             * precise_math's: spell.c), since the macro expands there. */
            uint32_t n;
            const char *text = amp__body_token_text(b, k, &n);
            const char *before = amp__body_token_before(b, k), *after = amp__body_token_after(b, k);
            if (before)
                amp__sb_append(out, before);
            amp__sb_append_n(out, text, n);
            if (after)
                amp__sb_append(out, after);
            first = 0;
        }
    } else {
        k = i;
    }
    return k;
}

static size_t directive_line(printer *p, size_t i)
{
    newline(p);
    place(p, i);
    size_t k = directive_text(p->b, i, p->out);
    line_done(p);
    return k;
}

/* A moved tile_static declaration: printed into hoisted under its
 * kernel-scope names, and replaced in the body by a comment that shows it
 * as written. Returns the last token it used. */
static size_t moved_declaration(printer *p, const body_hoist *h, strbuf *hoisted, int *hoisted_n)
{
    const kbody *b = p->b;
    size_t line_start = hoisted->length;
    const char *renamed = NULL;
    uint32_t renamed_length = 0;
    const lex_token *name = NULL;
    amp__sb_indent(hoisted, p->base);
    for (size_t i = h->first; i <= h->last; i++) {
        const lex_token *t = &b->tokens.items[i];
        uint32_t length;
        const char *text = amp__body_token_text(b, i, &length);
        const char *before = amp__body_token_before(b, i);
        const char *after = amp__body_token_after(b, i);
        int declared = b->flags[i] & TOK_DECLARATOR;
        if (declared && text != t->text && !renamed) {
            renamed = text;
            renamed_length = length;
            name = t;
        }
        if (length == 0 && !before && !after)
            continue;
        if (i > h->first && t->space_before && !amp__lex_is(t, ";"))
            amp__sb_append(hoisted, " ");
        if (p->map) {
            p->map->token_line[i] = -2 - *hoisted_n;
            p->map->token_column[i] = (int)(hoisted->length - line_start) + 1;
        }
        if (before)
            amp__sb_append(hoisted, before);
        amp__sb_append_n(hoisted, text, length);
        if (after)
            amp__sb_append(hoisted, after);
    }
    amp__sb_append(hoisted, "\n");
    (*hoisted_n)++;

    newline(p);
    amp__sb_indent(p->out, p->indent);
    /* A helper's: a parameter now, declared by the kernels that call it
     * (locals.c). */
    amp__sb_append(p->out, b->function_name >= 0
                               ? "/* a parameter, declared by each kernel that calls"
                                 " this function: "
                               : "/* moved to the top of the kernel: ");
    original_text(p->out, b, h->first, h->last, 1);
    if (renamed && amp__lexicon_is_opencl_only(name->text, name->length))
        amp__sb_printf(p->out, " (as %.*s: %.*s is a word of OpenCL C)", (int)renamed_length,
                       renamed, (int)name->length, name->text);
    else if (renamed)
        amp__sb_printf(p->out, " (as %.*s: its name means something else elsewhere)",
                       (int)renamed_length, renamed);
    amp__sb_append(p->out, " */");
    line_done(p);
    return h->last;
}

int amp__layout_body(const kbody *b, int indent, strbuf *out, strbuf *hoisted,
                     const layout_map *map)
{
    printer p = {b, out, indent, indent, 1, 0, out->length, NULL, map};
    if (map)
        for (size_t i = 0; i < b->tokens.count; i++)
            map->token_line[i] = map->token_column[i] = -1;
    const lex_token *t = b->tokens.items;
    size_t n = b->tokens.count;
    int parens = 0;       /* ( and [ open */
    int initializers = 0; /* braces open that are not blocks */
    size_t next_hoist = 0;
    int moved_lines = 0; /* lines in hoisted */
    for (size_t i = 0; i < n; i++) {
        uint16_t f = b->flags[i];
        if (f & TOK_DIRECTIVE) {
            if (hoisted && (f & TOK_HOIST_COPY)) {
                /* a line the moved declarations need (hoist.c) */
                directive_text(b, i, hoisted);
                amp__sb_append(hoisted, "\n");
                moved_lines++;
            }
            i = directive_line(&p, i);
            continue;
        }
        if ((f & TOK_HOISTED) && next_hoist < b->nhoists && b->hoists[next_hoist].first == i &&
            hoisted) {
            i = moved_declaration(&p, &b->hoists[next_hoist++], hoisted, &moved_lines);
            continue;
        }
        const lex_token *tk = &t[i];
        const lex_token *next = i + 1 < n ? &t[i + 1] : NULL;
        if (amp__lex_is(tk, "{")) {
            emit(&p, i, tk->space_before);
            if (f & TOK_BLOCK) {
                newline(&p);
                p.indent += 4;
            } else {
                initializers++;
            }
        } else if (amp__lex_is(tk, "}")) {
            if (f & TOK_BLOCK) {
                newline(&p);
                p.indent -= 4;
                if (p.indent < indent)
                    p.indent = indent;
                emit(&p, i, 0);
                /* "} else", "} while (...);" and "};" stay on the line. */
                if (!(next &&
                      (amp__lex_is(next, "else") || amp__lex_is(next, "while") ||
                       amp__lex_is(next, ";") || amp__lex_is(next, ",") || amp__lex_is(next, ")"))))
                    newline(&p);
            } else {
                if (initializers > 0)
                    initializers--;
                emit(&p, i, tk->space_before);
            }
        } else if (amp__lex_is(tk, ";")) {
            emit(&p, i, 0);
            if (parens == 0 && initializers == 0)
                newline(&p);
        } else if (amp__lex_is(tk, ":") && parens == 0 && p.first &&
                   (amp__lex_is(p.first, "case") || amp__lex_is(p.first, "default"))) {
            emit(&p, i, tk->space_before);
            newline(&p);
        } else {
            if (amp__lex_is(tk, "(") || amp__lex_is(tk, "["))
                parens++;
            else if ((amp__lex_is(tk, ")") || amp__lex_is(tk, "]")) && parens > 0)
                parens--;
            emit(&p, i, tk->space_before);
        }
    }
    newline(&p);
    return p.lines;
}
