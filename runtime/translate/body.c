/*
 * runtime/translate/body.c - reading a kernel body: the reader's entry, its
 * failures, tokens and words, the names in scope, and the rewritings of
 * tokens.
 *
 * The reader is a recursive descent over statements (body_stmt.c) and
 * expressions (body_expr.c), bounded by BODY_MAX_NESTING. It knows where
 * each statement and scope begins and ends, which token declares or names
 * which declaration, and the types of index and extent values, which it
 * rewrites into OpenCL C as it goes.
 */
#include "translate/body.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/lexicon.h"
#include "core/strbuf.h"
#include "translate/body_reader.h"

const lex_token amp__body_eof = {"", 0, 0, 0, 0};

/* ---- Failures ---- */

/* Where token i is in the user's file, as a compiler prints it, into out:
 * nothing when the file cannot be read or no longer holds the text. */
static void at_users_line(const reader *r, size_t i, const char *what, strbuf *out)
{
    const body_context *ctx = r->ctx;
    if (!ctx->file || !r->text)
        return;
    strbuf file = STRBUF_INIT;
    lex_pos *pos = NULL;
    if (amp__sb_read_file(&file, ctx->file) != 0 || !file.data)
        goto done;
    pos = malloc((i + 1) * sizeof *pos);
    if (!pos)
        goto done;
    int flags = LEX_LOCATE_MACROS | (ctx->function ? LEX_LOCATE_MACRO_ARGS : 0);
    if (amp__lex_locate(file.data, ctx->line, r->text, r->length, pos, i + 1, flags) == i + 1)
        amp__lex_diagnostic(out, ctx->file, file.data, pos[i].line, pos[i].column, "error", what,
                            strlen(what));
done:
    free(pos);
    amp__sb_free(&file);
}

void amp__body_fail(reader *r, long i, amp_status status, const char *fmt, ...)
{
    if (r->status != AMP_OK)
        return;
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *file = r->ctx->file ? r->ctx->file : "?";
    if (i >= 0 && (size_t)i < r->b->tokens.count) {
        const lex_token *t = &r->tok[i];
        int shown = t->length > 40 ? 40 : (int)t->length;
        strbuf where = STRBUF_INIT;
        at_users_line(r, (size_t)i, what, &where);
        r->status = amp__err_set(status, "The kernel at %s:%d: %s (at '%.*s').\n%s", file,
                                 r->ctx->line, what, shown, t->text, where.data ? where.data : "");
        amp__sb_free(&where);
    } else {
        r->status = amp__err_set(status, "The kernel at %s:%d: %s.", file, r->ctx->line, what);
    }
}

void amp__body_no_memory(reader *r)
{
    amp__body_fail(r, -1, AMP_ERROR_OUT_OF_MEMORY, "out of host memory reading the body");
}

void amp__body_expect(reader *r, const char *s)
{
    if (r->status != AMP_OK)
        return;
    if (!is(r, 0, s)) {
        if (at_end(r))
            amp__body_fail(r, -1, AMP_ERROR_KERNEL_BUILD, "the body ends where '%s' was expected",
                           s);
        else
            amp__body_fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "'%s' was expected here", s);
        return;
    }
    mark(r, BODY_NOT_A_USE);
    advance(r);
}

int amp__body_enter(reader *r)
{
    if (++r->depth > BODY_MAX_NESTING) {
        amp__body_fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
                       "statements, braces, parentheses or brackets nest more than %d deep;"
                       " split the body into helper functions (AMP_FUNCTION)",
                       BODY_MAX_NESTING);
        return 0;
    }
    return 1;
}

void amp__body_leave(reader *r)
{
    r->depth--;
}

/* ---- Words ---- */

int amp__body_word_in(const lex_token *t, const char *const *words)
{
    for (; *words; words++)
        if (amp__lex_is(t, *words))
            return 1;
    return 0;
}

/* Keywords that start or steer statements, never declarations. */
static const char *const statement_words[] = {
    "break", "case",   "continue", "default", "do",    "else", "for",   "goto",
    "if",    "return", "sizeof",   "switch",  "while", "true", "false", NULL};

int amp__body_is_keyword(const lex_token *t)
{
    if (t->kind != LEX_IDENT || t->length >= 64)
        return 0;
    char word[64];
    memcpy(word, t->text, t->length);
    word[t->length] = '\0';
    /* The prelude makes global and local plain names (t_idx.global). */
    if (strcmp(word, "global") == 0 || strcmp(word, "local") == 0)
        return 0;
    return amp__lexicon_is_keyword(word);
}

int amp__body_is_specifier(const lex_token *t)
{
    return (amp__body_is_keyword(t) && !amp__body_word_in(t, statement_words)) ||
           amp__lex_is(t, "__attribute__") || amp__lex_is(t, "inline") ||
           amp__lex_is(t, "__kernel");
}

int amp__body_is_short_vector(const lex_token *t)
{
    static const char *const amp_bases[] = {"int_", "uint_", "float_", "double_", NULL};
    static const char *const cl_bases[] = {"char", "uchar", "short", "ushort", "int",  "uint",
                                           "long", "ulong", "float", "double", "half", NULL};
    if (t->kind != LEX_IDENT || t->length < 2)
        return 0;
    for (const char *const *b = amp_bases; *b; b++) {
        size_t n = strlen(*b);
        if (t->length == n + 1 && strncmp(t->text, *b, n) == 0 && t->text[n] >= '2' &&
            t->text[n] <= '4')
            return 1;
    }
    for (const char *const *b = cl_bases; *b; b++) {
        size_t n = strlen(*b);
        if (t->length <= n || strncmp(t->text, *b, n) != 0)
            continue;
        const char *lanes = t->text + n;
        size_t k = t->length - n;
        if ((k == 1 &&
             (lanes[0] == '2' || lanes[0] == '3' || lanes[0] == '4' || lanes[0] == '8')) ||
            (k == 2 && lanes[0] == '1' && lanes[1] == '6'))
            return 1;
    }
    return 0;
}

const char *const amp__body_pointer_qualifiers[] = {
    "const",    "volatile",  "restrict", "__global",  "__local", "__constant",
    "constant", "__private", "private",  "__generic", NULL};

/* ---- Names and scopes ---- */

static name_slot *slot_of(reader *r, const char *name, uint32_t length, int make)
{
    name_slot *s = NULL;
    HASH_FIND(hh, r->names, name, length, s);
    if (s || !make)
        return s;
    s = calloc(1, sizeof *s);
    if (!s) {
        amp__body_no_memory(r);
        return NULL;
    }
    s->name = name;
    s->length = length;
    HASH_ADD_KEYPTR(hh, r->names, s->name, s->length, s);
    return s;
}

int32_t amp__body_declare(reader *r, const char *name, uint32_t length, body_decl_kind kind,
                          int32_t token)
{
    kbody *b = r->b;
    if (b->ndecls == r->cap_decls) {
        size_t cap = r->cap_decls ? 2 * r->cap_decls : 16;
        body_decl *grown = realloc(b->decls, cap * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(r);
            return -1;
        }
        b->decls = grown;
        r->cap_decls = cap;
    }
    body_decl *d = &b->decls[b->ndecls];
    memset(d, 0, sizeof *d);
    d->name = name;
    d->length = length;
    d->kind = (uint8_t)kind;
    d->capture = -1;
    d->token = token;
    d->scope = r->scope;
    if (token >= 0) {
        /* The declarator names its own declaration, and is not a use. */
        b->resolved[token] = (int32_t)b->ndecls;
        b->flags[token] |= TOK_DECLARATOR;
    }
    return (int32_t)b->ndecls++;
}

void amp__body_make_visible(reader *r, int32_t id)
{
    if (id < 0 || r->status != AMP_OK)
        return;
    const body_decl *d = &r->b->decls[id];
    name_slot *s = slot_of(r, d->name, d->length, 1);
    if (!s)
        return;
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? 2 * s->capacity : 4;
        int32_t *grown = realloc(s->stack, cap * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(r);
            return;
        }
        s->stack = grown;
        s->capacity = cap;
    }
    if (r->npushed == r->cap_pushed) {
        size_t cap = r->cap_pushed ? 2 * r->cap_pushed : 64;
        name_slot **grown = realloc(r->pushed, cap * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(r);
            return;
        }
        r->pushed = grown;
        r->cap_pushed = cap;
    }
    s->stack[s->count++] = id;
    r->pushed[r->npushed++] = s;
}

int32_t amp__body_lookup(reader *r, const lex_token *t)
{
    name_slot *s = slot_of(r, t->text, t->length, 0);
    return s && s->count ? s->stack[s->count - 1] : BODY_UNRESOLVED;
}

scope_mark amp__body_scope_open(reader *r)
{
    scope_mark m = {r->npushed, r->scope};
    r->scope = ++r->scopes;
    return m;
}

void amp__body_scope_close(reader *r, scope_mark m)
{
    while (r->npushed > m.pushed)
        r->pushed[--r->npushed]->count--;
    r->scope = m.scope;
}

/* ---- Edits ---- */

static body_edit *edit_of(reader *r, size_t i)
{
    kbody *b = r->b;
    /* A position past the body comes from an expression that never ended
     * (the reader has failed already): nothing is edited. Were the reader
     * still content, the kernel would lose an edit, so that fails too. */
    if (i > b->tokens.count) {
        if (r->status == AMP_OK)
            amp__body_fail(r, -1, AMP_ERROR_RUNTIME,
                           "the body reader lost its place (an edit past the body's end)");
        return NULL;
    }
    if (!b->edits && !(b->edits = calloc(b->tokens.count + 1, sizeof *b->edits))) {
        amp__body_no_memory(r);
        return NULL;
    }
    return &b->edits[i];
}

/* first + second, freeing first; NULL (and a failure) when out of memory. */
static char *joined(reader *r, char *first, const char *second)
{
    size_t a = first ? strlen(first) : 0, n = strlen(second);
    char *s = malloc(a + n + 1);
    if (!s) {
        amp__body_no_memory(r);
        return first;
    }
    if (first)
        memcpy(s, first, a);
    memcpy(s + a, second, n + 1);
    free(first);
    return s;
}

void amp__body_edit_before(reader *r, size_t i, const char *text)
{
    body_edit *e = edit_of(r, i);
    if (!e)
        return;
    /* An outer rewriting comes after an inner one, and goes in front. */
    char *s = joined(r, NULL, text);
    if (s && e->before)
        s = joined(r, s, e->before);
    if (s) {
        free(e->before);
        e->before = s;
    }
}

void amp__body_edit_instead(reader *r, size_t i, const char *text)
{
    body_edit *e = edit_of(r, i);
    char *s = e ? joined(r, NULL, text) : NULL;
    if (s) {
        free(e->instead);
        e->instead = s;
    }
}

void amp__body_edit_after(reader *r, size_t i, const char *text)
{
    body_edit *e = edit_of(r, i);
    if (e)
        e->after = joined(r, e->after, text);
}

/* ---- Views as values ---- */

const char *amp__body_elem_name(const body_context *ctx, uint16_t elem)
{
    switch (elem) {
    case AMP_INT: return "int";
    case AMP_UINT: return "uint";
    case AMP_FLOAT: return "float";
    case AMP_DOUBLE: return "double";
    }
    for (int i = 0; ctx->type_ids && i < ctx->ntypes; i++)
        if (ctx->type_ids[i] == (amp_elem_type)elem)
            return ctx->type_names[i];
    return "unknown";
}

void amp__body_value_type_name(const body_context *ctx, body_type t, char *buf, size_t n)
{
    snprintf(buf, n, "amp_view_%s_%d", amp__body_elem_name(ctx, t.elem), t.rank);
}

void amp__body_use_value_type(reader *r, body_type t)
{
    kbody *b = r->b;
    for (int i = 0; i < b->nvalue_types; i++)
        if (b->value_types[i].elem == t.elem && b->value_types[i].rank == t.rank)
            return;
    if (b->nvalue_types == BODY_MAX_VALUE_TYPES) {
        amp__body_fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
                       "more than %d kinds of view values in one kernel", BODY_MAX_VALUE_TYPES);
        return;
    }
    t.kind = TYPE_VIEW_VALUE;
    t.is_const = 0;
    t.array = 0;
    b->value_types[b->nvalue_types++] = t;
    b->ranks |= 1u << t.rank;
}

/* ---- Reading ---- */

/* The names the kernel declares around the body, at its outermost scope. */
static void declare_kernel_names(reader *r)
{
    const body_context *c = r->ctx;
    if (c->index_name) {
        int32_t id = amp__body_declare(r, c->index_name, (uint32_t)strlen(c->index_name),
                                       DECL_KERNEL, -1);
        if (id >= 0) {
            r->b->decls[id].name_kind = BODY_NAME_INDEX;
            r->b->decls[id].type = c->index_type;
        }
        amp__body_make_visible(r, id);
    }
    for (int i = 0; i < c->ncaptures && r->status == AMP_OK; i++) {
        const char *name = c->capture_names[i];
        int32_t id = amp__body_declare(r, name, (uint32_t)strlen(name), DECL_KERNEL, -1);
        if (id < 0)
            return;
        body_decl *d = &r->b->decls[id];
        d->name_kind = (uint8_t)c->capture_kinds[i];
        d->capture = i;
        if (c->capture_types)
            d->type = c->capture_types[i];
        if (c->capture_returns)
            d->returns = c->capture_returns[i];
        amp__body_make_visible(r, id);
    }
}

static void reader_free(reader *r)
{
    name_slot *s, *tmp;
    HASH_ITER(hh, r->names, s, tmp)
    {
        HASH_DEL(r->names, s);
        free(s->stack);
        free(s);
    }
    free(r->pushed);
    free(r->order);
    free(r->macros);
}

amp_status amp__body_read(const char *text, size_t length, const body_context *ctx, kbody *out)
{
    memset(out, 0, sizeof *out);
    reader r;
    memset(&r, 0, sizeof r);
    r.text = text;
    r.length = length;
    r.b = out;
    r.ctx = ctx;
    r.status = amp__lex(text, length, &out->tokens);
    size_t n = out->tokens.count;
    if (r.status == AMP_OK) {
        r.tok = out->tokens.items;
        out->resolved = malloc((n + 1) * sizeof *out->resolved);
        out->flags = calloc(n + 1, sizeof *out->flags);
        r.order = malloc((n + 1) * sizeof *r.order);
        if (!out->resolved || !out->flags || !r.order)
            amp__body_no_memory(&r);
    }
    if (r.status == AMP_OK) {
        for (size_t i = 0; i < n; i++)
            out->resolved[i] = BODY_NOT_A_USE;
        amp__body_find_directives(&r);
    }
    if (r.status == AMP_OK) {
        declare_kernel_names(&r);
        if (ctx->function)
            amp__body_function(&r);
        else
            amp__body_items(&r);
    }
    if (r.status == AMP_OK)
        amp__body_check_reserved_names(&r);
    if (r.status == AMP_OK)
        amp__body_name_moved_declarations(&r);
    if (r.status == AMP_OK)
        amp__body_find_writes(out, ctx);
    amp_status st = r.status;
    reader_free(&r);
    return st;
}

void amp__body_free(kbody *b)
{
    for (size_t i = 0; i < b->ndecls; i++)
        free(b->decls[i].renamed);
    if (b->edits)
        for (size_t i = 0; i < b->tokens.count; i++) {
            free(b->edits[i].before);
            free(b->edits[i].instead);
            free(b->edits[i].after);
        }
    free(b->edits);
    free(b->decls);
    free(b->hoists);
    free(b->resolved);
    free(b->flags);
    amp__lex_free(&b->tokens);
    memset(b, 0, sizeof *b);
}

const char *amp__body_token_text(const kbody *b, size_t i, uint32_t *length)
{
    if (b->edits && b->edits[i].instead) {
        *length = (uint32_t)strlen(b->edits[i].instead);
        return b->edits[i].instead;
    }
    int32_t d = b->resolved[i];
    if (d >= 0 && b->decls[d].renamed) {
        *length = (uint32_t)strlen(b->decls[d].renamed);
        return b->decls[d].renamed;
    }
    *length = b->tokens.items[i].length;
    return b->tokens.items[i].text;
}

const char *amp__body_token_before(const kbody *b, size_t i)
{
    return b->edits ? b->edits[i].before : NULL;
}

const char *amp__body_token_after(const kbody *b, size_t i)
{
    return b->edits ? b->edits[i].after : NULL;
}

int amp__body_uses(const kbody *b, const char *name)
{
    for (size_t i = 0; i < b->tokens.count; i++)
        if (b->tokens.items[i].kind == LEX_IDENT && amp__lex_is(&b->tokens.items[i], name))
            return 1;
    return 0;
}
