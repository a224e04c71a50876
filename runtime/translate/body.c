/*
 * runtime/translate/body.c - the facts about one text: its tokens, the
 * room for what the passes record, the first failure (shown at the user's
 * line), and what each token is printed as.
 */
#include "translate/body.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/elem.h"
#include "core/error.h"
#include "core/strbuf.h"

amp_status amp__body_open(kbody *b, const char *text, size_t length, const body_context *ctx)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    b->text = text;
    b->length = length;
    b->status = amp__lex(text, length, &b->tokens);
    if (b->status != AMP_OK)
        return b->status;
    size_t n = b->tokens.count;
    b->resolved = malloc((n + 1) * sizeof *b->resolved);
    b->flags = calloc(n + 1, sizeof *b->flags);
    b->roles = calloc(n + 1, sizeof *b->roles);
    b->partner = malloc((n + 1) * sizeof *b->partner);
    b->order = malloc((n + 1) * sizeof *b->order);
    if (!b->resolved || !b->flags || !b->roles || !b->partner || !b->order) {
        amp__body_no_memory(b);
        return b->status;
    }
    for (size_t i = 0; i <= n; i++) {
        b->resolved[i] = BODY_NOT_A_USE;
        b->partner[i] = -1;
    }
    b->function_name = b->params_close = -1;
    return AMP_OK;
}

void amp__body_free(kbody *b)
{
    for (size_t i = 0; i < b->ndecls; i++)
        free(b->decls[i].renamed);
    for (size_t i = 0; i < b->nlocals; i++) {
        free(b->locals[i].helper);
        free(b->locals[i].name);
        free(b->locals[i].kernel_name);
        free(b->locals[i].declaration);
        free(b->locals[i].parameter);
    }
    free(b->locals);
    if (b->edits)
        for (size_t i = 0; i < b->tokens.count; i++) {
            free(b->edits[i].before);
            free(b->edits[i].instead);
            free(b->edits[i].after);
        }
    free(b->edits);
    free(b->decls);
    free(b->constructs);
    free(b->hoists);
    free(b->macros);
    free(b->order);
    free(b->resolved);
    free(b->flags);
    free(b->roles);
    free(b->partner);
    amp__lex_free(&b->tokens);
    memset(b, 0, sizeof *b);
}

/* ---- Failures ---- */

/* Where token i is in the user's file, as a compiler prints it, into out:
 * nothing when the file cannot be read or no longer holds the text. */
static void at_users_line(const kbody *b, size_t i, const char *what, strbuf *out)
{
    const body_context *ctx = b->ctx;
    if (!ctx->file || !b->text)
        return;
    strbuf file = STRBUF_INIT;
    lex_pos *pos = NULL;
    if (amp__sb_read_file(&file, ctx->file) != 0 || !file.data)
        goto done;
    pos = malloc((i + 1) * sizeof *pos);
    if (!pos)
        goto done;
    int flags = LEX_LOCATE_MACROS | (ctx->function ? LEX_LOCATE_MACRO_ARGS : 0);
    if (amp__lex_locate(file.data, ctx->line, b->text, b->length, pos, i + 1, flags) == i + 1)
        amp__lex_diagnostic(out, ctx->file, file.data, pos[i].line, pos[i].column, "error", what,
                            strlen(what));
done:
    free(pos);
    amp__sb_free(&file);
}

void amp__body_fail(kbody *b, long i, amp_status status, const char *fmt, ...)
{
    if (b->status != AMP_OK)
        return;
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    const char *file = b->ctx->file ? b->ctx->file : "?";
    if (i >= 0 && (size_t)i < b->tokens.count) {
        const lex_token *t = &b->tokens.items[i];
        int shown = t->length > 40 ? 40 : (int)t->length;
        strbuf where = STRBUF_INIT;
        at_users_line(b, (size_t)i, what, &where);
        b->status = amp__err_set(status, "The kernel at %s:%d: %s (at '%.*s').\n%s", file,
                                 b->ctx->line, what, shown, t->text, where.data ? where.data : "");
        amp__sb_free(&where);
    } else {
        b->status = amp__err_set(status, "The kernel at %s:%d: %s.", file, b->ctx->line, what);
    }
}

void amp__body_no_memory(kbody *b)
{
    amp__body_fail(b, -1, AMP_ERROR_OUT_OF_MEMORY, "out of host memory reading the body");
}

/* ---- Declarations and constructs ---- */

int amp__body_capture_kind(const body_context *ctx, const char *name, size_t length)
{
    for (int i = 0; ctx && ctx->capture_names && i < ctx->ncaptures; i++) {
        const char *c = ctx->capture_names[i];
        if (c && strlen(c) == length && memcmp(c, name, length) == 0)
            return ctx->capture_kinds ? (int)ctx->capture_kinds[i] : BODY_NAME_VIEW;
    }
    return 0;
}

int amp__body_defines_macro(const kbody *b, const char *name, size_t length)
{
    for (size_t m = 0; m < b->nmacros; m++) {
        const lex_token *t = &b->tokens.items[b->macros[m].name];
        if (t->length == length && memcmp(t->text, name, length) == 0)
            return 1;
    }
    return 0;
}

int amp__body_is_extent_name(const kbody *b, const char *name, size_t length)
{
    static const char suffix[] = "_extent";
    size_t n = sizeof suffix - 1;
    if (length <= n || memcmp(name + length - n, suffix, n) != 0)
        return 0;
    int kind = amp__body_capture_kind(b->ctx, name, length - n);
    return kind == BODY_NAME_VIEW || kind == BODY_NAME_TEXTURE;
}

int32_t amp__body_declare(kbody *b, const char *name, uint32_t length, body_decl_kind kind,
                          int32_t token, uint32_t scope)
{
    if (b->ndecls == b->cap_decls) {
        size_t cap = b->cap_decls ? 2 * b->cap_decls : 16;
        body_decl *grown = realloc(b->decls, cap * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(b);
            return -1;
        }
        b->decls = grown;
        b->cap_decls = cap;
    }
    body_decl *d = &b->decls[b->ndecls];
    memset(d, 0, sizeof *d);
    d->name = name;
    d->length = length;
    d->kind = (uint8_t)kind;
    d->capture = -1;
    d->token = token;
    d->scope = scope;
    if (token >= 0) {
        /* The declarator names its own declaration, and is not a use. */
        b->resolved[token] = (int32_t)b->ndecls;
        b->flags[token] |= TOK_DECLARATOR;
    }
    return (int32_t)b->ndecls++;
}

void amp__body_note(kbody *b, const body_construct *c)
{
    if (b->status != AMP_OK)
        return;
    if (b->nconstructs == b->cap_constructs) {
        size_t cap = b->cap_constructs ? 2 * b->cap_constructs : 32;
        body_construct *grown = realloc(b->constructs, cap * sizeof *grown);
        if (!grown) {
            amp__body_no_memory(b);
            return;
        }
        b->constructs = grown;
        b->cap_constructs = cap;
    }
    b->constructs[b->nconstructs++] = *c;
}

/* ---- Edits ---- */

static body_edit *edit_of(kbody *b, long i)
{
    /* A construct that ended past the body would lose its edit: the
     * reader lost its place, and the kernel would be wrong. */
    if (i < 0 || (size_t)i > b->tokens.count) {
        amp__body_fail(b, -1, AMP_ERROR_RUNTIME,
                       "the body reader lost its place (an edit past the body's end)");
        return NULL;
    }
    if (!b->edits && !(b->edits = calloc(b->tokens.count + 1, sizeof *b->edits))) {
        amp__body_no_memory(b);
        return NULL;
    }
    return &b->edits[i];
}

/* first + second, freeing first; first (and a failure) when out of memory. */
static char *joined(kbody *b, char *first, const char *second)
{
    size_t a = first ? strlen(first) : 0, n = strlen(second);
    char *s = malloc(a + n + 1);
    if (!s) {
        amp__body_no_memory(b);
        return first;
    }
    if (first)
        memcpy(s, first, a);
    memcpy(s + a, second, n + 1);
    free(first);
    return s;
}

void amp__body_edit_before(kbody *b, long i, const char *text)
{
    body_edit *e = edit_of(b, i);
    if (!e)
        return;
    /* An outer rewriting comes after an inner one, and goes in front. */
    char *s = joined(b, NULL, text);
    if (s && e->before)
        s = joined(b, s, e->before);
    if (s) {
        free(e->before);
        e->before = s;
    }
}

void amp__body_edit_instead(kbody *b, long i, const char *text)
{
    body_edit *e = edit_of(b, i);
    char *s = e ? joined(b, NULL, text) : NULL;
    if (s) {
        free(e->instead);
        e->instead = s;
    }
}

void amp__body_edit_after(kbody *b, long i, const char *text)
{
    body_edit *e = edit_of(b, i);
    if (e)
        e->after = joined(b, e->after, text);
}

/* ---- What tokens are printed as ---- */

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

/* ---- Names of types ---- */

const char *amp__body_elem_name(const body_context *ctx, uint16_t elem)
{
    static const char *const vectors[] = {"int2",   "int3",    "int4",    "uint2",
                                          "uint3",  "uint4",   "float2",  "float3",
                                          "float4", "double2", "double3", "double4"};
    if (amp__elem_is_scalar((amp_elem_type)elem))
        return amp__elem_scalar_name((amp_elem_type)elem);
    if (amp__elem_is_vector((amp_elem_type)elem))
        return vectors[elem - AMP_INT_2];
    for (int i = 0; ctx && ctx->type_ids && i < ctx->ntypes; i++)
        if (ctx->type_ids[i] == (amp_elem_type)elem)
            return ctx->type_names[i];
    return "unknown";
}

amp_elem_type amp__body_vector_named(const char *s, size_t n)
{
    static const struct {
        const char *name;
        amp_elem_type scalar;
    } scalars[] = {
        {"int", AMP_INT}, {"uint", AMP_UINT}, {"float", AMP_FLOAT}, {"double", AMP_DOUBLE}};
    if (n > 4 && memcmp(s, "amp_", 4) == 0) {
        s += 4;
        n -= 4;
    }
    for (size_t k = 0; k < sizeof scalars / sizeof scalars[0]; k++) {
        size_t len = strlen(scalars[k].name);
        if (n < len + 1 || memcmp(s, scalars[k].name, len) != 0)
            continue;
        const char *rest = s + len;
        size_t left = n - len;
        if (left == 2 && rest[0] == '_')
            rest++, left--;
        if (left == 1 && rest[0] >= '2' && rest[0] <= '4')
            return amp__elem_of(scalars[k].scalar, rest[0] - '0');
    }
    return (amp_elem_type)0;
}

void amp__body_value_type_name(const body_context *ctx, body_type t, char *buf, size_t n)
{
    snprintf(buf, n, "amp_view_%s_%d", amp__body_elem_name(ctx, t.elem), t.rank);
}
