/*
 * runtime/translate/locals.c - tile_static variables of helper functions.
 *
 * C++ AMP lets a restrict(amp) function declare tile_static variables (one
 * per tile, shared by every call in it); OpenCL C declares __local
 * variables only at kernel scope. So each of a helper's tile_static
 * declarations becomes a parameter of the helper, every kernel that calls
 * it, directly or through other helpers, declares the variable at its own
 * scope as amp_<helper>_<name>, and every helper between passes it on:
 *
 *   helper scan:  int scan(amp_tiled_index t_idx, int x, tile_static int (*values)[16])
 *   a caller:     scan(t_idx, x, amp_scan_values)     (its parameter amp_scan_values)
 *   the kernel:   tile_static int amp_scan_values[16];
 *                 ... scan(t_idx, x, &amp_scan_values)
 *
 * Each is passed by its address, so that it keeps its type (sizeof an
 * array is the array's), and the helper's uses read through it: (*total),
 * (*values)[i]. hoist.c has moved the
 * declarations out of the helper's blocks, with their names; this pass
 * runs after spell.c, so that the declarations are printed as the kernel
 * spells their types.
 */
#include "translate/locals.h"

#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

/* Tokens first .. last as the passes before wrote them, spaced as the user
 * spaced them; the token name_token printed as name. */
static void print_tokens(strbuf *sb, const kbody *b, size_t first, size_t last, long name_token,
                         const char *name)
{
    int any = 0;
    for (size_t i = first; i <= last; i++) {
        uint32_t length;
        const char *text = amp__body_token_text(b, i, &length);
        const char *before = amp__body_token_before(b, i);
        const char *after = amp__body_token_after(b, i);
        if ((long)i == name_token) {
            text = name;
            length = (uint32_t)strlen(name);
        }
        if (length == 0 && !before && !after)
            continue;
        if (any && b->tokens.items[i].space_before)
            amp__sb_append(sb, " ");
        any = 1;
        if (before)
            amp__sb_append(sb, before);
        amp__sb_append_n(sb, text, length);
        if (after)
            amp__sb_append(sb, after);
    }
}

static char *text_of(const lex_token *t)
{
    char *s = malloc(t->length + 1);
    if (s) {
        memcpy(s, t->text, t->length);
        s[t->length] = '\0';
    }
    return s;
}

/* Add l to b's locals, unless it is there already (a callee reached two
 * ways, or called twice). Takes l's strings either way. Returns whether it
 * was added. */
static int add_local(kbody *b, body_local l, long at)
{
    int skip = !l.helper || !l.name || !l.kernel_name || !l.declaration || !l.parameter;
    if (skip)
        amp__body_no_memory(b);
    for (size_t i = 0; i < b->nlocals && !skip; i++) {
        const body_local *o = &b->locals[i];
        if (strcmp(o->kernel_name, l.kernel_name) != 0)
            continue;
        if (strcmp(o->helper, l.helper) != 0 || strcmp(o->name, l.name) != 0)
            amp__body_fail(b, at, AMP_ERROR_KERNEL_BUILD,
                           "tile_static %s of %s and tile_static %s of %s would both be %s at"
                           " kernel scope: rename one of them",
                           o->name, o->helper, l.name, l.helper, l.kernel_name);
        skip = 1;
    }
    body_local *grown = skip ? NULL : realloc(b->locals, (b->nlocals + 1) * sizeof *grown);
    if (!skip && grown) {
        b->locals = grown;
        b->locals[b->nlocals++] = l;
        return 1;
    }
    if (!skip)
        amp__body_no_memory(b);
    free(l.helper);
    free(l.name);
    free(l.kernel_name);
    free(l.declaration);
    free(l.parameter);
    return 0;
}

static body_local copy_local(const body_local *l)
{
    body_local c = {strdup(l->helper), strdup(l->name), strdup(l->kernel_name),
                    strdup(l->declaration), strdup(l->parameter)};
    return c;
}

/* The first token of the declarator whose name is token name: the name,
 * after any '*' before it. */
static size_t declarator_start(const kbody *b, size_t first, size_t name)
{
    while (name > first && amp__lex_is(&b->tokens.items[name - 1], "*"))
        name--;
    return name;
}

/* The helper's own tile_static declarations: a local each, its own
 * parameter declared into params, and its uses read through its address. */
static void own_locals(kbody *b, strbuf *params)
{
    const lex_token *helper_name = &b->tokens.items[b->function_name];
    for (size_t h = 0; h < b->nhoists && b->status == AMP_OK; h++) {
        const body_hoist *hoist = &b->hoists[h];
        /* The declarators, from each name to the ',' or ';' after it. */
        size_t specifiers_end = 0; /* one past the specifiers */
        for (size_t id = 0; id < b->ndecls && b->status == AMP_OK; id++) {
            const body_decl *d = &b->decls[id];
            if (d->kind != DECL_TILE_STATIC || d->token < (int32_t)hoist->first ||
                d->token > (int32_t)hoist->last)
                continue;
            size_t start = declarator_start(b, hoist->first, (size_t)d->token);
            if (!specifiers_end)
                specifiers_end = start;
            size_t end = (size_t)d->token;
            int depth = 0;
            while (end + 1 < hoist->last) {
                const lex_token *t = &b->tokens.items[end + 1];
                char bracket = amp__lex_bracket(t);
                depth += bracket && strchr("([{", bracket) ? 1 : bracket ? -1 : 0;
                if (depth == 0 && amp__lex_is(t, ","))
                    break;
                end++;
            }
            uint32_t length;
            const char *printed = amp__body_token_text(b, (size_t)d->token, &length);
            body_local l = {text_of(helper_name), malloc(length + 1), NULL, NULL, NULL};
            strbuf specifiers = STRBUF_INIT, kernel_name = STRBUF_INIT, through = STRBUF_INIT,
                   declaration = STRBUF_INIT, parameter = STRBUF_INIT;
            if (l.name) {
                memcpy(l.name, printed, length);
                l.name[length] = '\0';
                amp__sb_printf(&kernel_name, "amp_%s_%s", l.helper ? l.helper : "", l.name);
            }
            print_tokens(&specifiers, b, hoist->first, specifiers_end - 1, -1, NULL);
            const char *spec = specifiers.data ? specifiers.data : "";
            const char *kname = kernel_name.data ? kernel_name.data : "";
            /* At kernel scope: the declaration, under the kernel's name. */
            amp__sb_printf(&declaration, "%s ", spec);
            print_tokens(&declaration, b, start, end, d->token, kname);
            /* A parameter: its address, "tile_static int (*name)[16]". */
            amp__sb_printf(&through, "(*%s)", kname);
            amp__sb_printf(&parameter, "%s ", spec);
            print_tokens(&parameter, b, start, end, d->token, through.data ? through.data : "");
            amp__sb_free(&through);
            amp__sb_printf(&through, "(*%s)", l.name ? l.name : "");
            amp__sb_printf(params, "%s%s ", params->length ? ", " : "", spec);
            print_tokens(params, b, start, end, d->token, through.data ? through.data : "");
            l.kernel_name = amp__sb_take(&kernel_name);
            l.declaration = amp__sb_take(&declaration);
            l.parameter = amp__sb_take(&parameter);
            amp__sb_free(&specifiers);
            amp__sb_free(&through);
            add_local(b, l, d->token);
            /* Each use reads through the address: (*cells)[i], (*total). */
            for (size_t i = 0; i < b->tokens.count; i++)
                if (b->resolved[i] == (int32_t)id && !(b->flags[i] & TOK_DECLARATOR)) {
                    amp__body_edit_before(b, (long)i, "(*");
                    amp__body_edit_after(b, (long)i, ")");
                }
        }
    }
}

void amp__locals(kbody *b)
{
    const body_context *ctx = b->ctx;
    int function = ctx->function && b->function_name >= 0 && b->params_close >= 0;
    strbuf params = STRBUF_INIT;
    if (function)
        own_locals(b, &params);
    /* The callees' variables: passed at each call, and needed here too. */
    for (size_t c = 0; c < b->nconstructs && b->status == AMP_OK; c++) {
        const body_construct *call = &b->constructs[c];
        if (call->kind != C_HELPER_CALL || !ctx->capture_helpers)
            continue;
        const kbody *callee = ctx->capture_helpers[call->number];
        strbuf args = STRBUF_INIT;
        int empty = call->tok[1] == call->tok[0] + 1;
        for (size_t k = 0; callee && k < callee->nlocals; k++) {
            const body_local *l = &callee->locals[k];
            amp__sb_printf(&args, "%s%s%s", empty && k == 0 ? "" : ", ", function ? "" : "&",
                           l->kernel_name);
            if (add_local(b, copy_local(l), call->tok[0]) && function)
                amp__sb_printf(&params, "%s%s", params.length ? ", " : "", l->parameter);
        }
        if (args.data)
            amp__body_edit_before(b, call->tok[1], args.data);
        if (amp__sb_failed(&args))
            amp__body_no_memory(b);
        amp__sb_free(&args);
    }
    /* The helper's parameters, after those it declares: (void) and ()
     * take them alone. */
    if (function && params.data && b->status == AMP_OK) {
        long close = b->params_close;
        const lex_token *before = &b->tokens.items[close - 1];
        int none = amp__lex_is(before, "(") || amp__lex_is(before, "void");
        if (amp__lex_is(before, "void"))
            amp__body_edit_instead(b, close - 1, "");
        strbuf text = STRBUF_INIT;
        amp__sb_printf(&text, "%s%s", none ? "" : ", ", params.data);
        amp__body_edit_before(b, close, text.data ? text.data : "");
        amp__sb_free(&text);
    }
    if (amp__sb_failed(&params))
        amp__body_no_memory(b);
    amp__sb_free(&params);
}
