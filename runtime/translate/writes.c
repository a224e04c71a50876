/*
 * runtime/translate/writes.c - which captured views a kernel body may
 * write, from the roles the grammar recorded for each use.
 *
 * A view passed read only is never copied back, so a write the analysis
 * misses would be lost: the analysis proves reads, and everything else is
 * a write. A use of view v is a read only when the grammar recorded it as
 * one: an element v(...) or v[...] whose value is taken (after its members,
 * subscripts and grouping parentheses it is neither assigned, incremented
 * or decremented, nor the operand of a unary '&', and no preprocessor line
 * stands beside it), v.extent, or v made a value that only goes where a
 * const view is due. A use the grammar gave no role (one it walked flat,
 * not taking its syntax), a use inside the arguments of a macro the body
 * defines (whose expansion could do anything), and a view named in a
 * preprocessor line are writes. The generated kernel backs this up: a
 * read-only view's accessor is an rvalue, so a write the analysis called a
 * read does not compile, and the kernel cache builds it again with the view
 * written (kcache.c).
 *
 * The same roles say where each view is used: a launch split across
 * accelerators relies on a view it writes being used only at the thread's
 * own index (or only at its tile's), so that each part writes its own rows
 * (api/dispatch_set.c). That too is proved, use by use: every use of the
 * view is an element at that index (the grammar's ROLE_AT_ bits), or its
 * extent, and the kernel's index keeps the value the kernel gave it (each
 * use of it a read the grammar took, none in a preprocessor line or a
 * macro's arguments). Anything else names the first use that is not, and
 * why.
 */
#include "translate/writes.h"

#include "core/strbuf.h"

/* Whether the use of a view at token i is a read. */
static int is_read(const kbody *b, size_t i)
{
    uint8_t role = b->roles[i];
    if ((b->flags[i] & TOK_MACRO_ARGS) || (role & (ROLE_WRITTEN | ROLE_ADDRESS)))
        return 0;
    if (role & ROLE_VALUE)
        return (role & ROLE_VALUE_READ) != 0;
    return (role & ROLE_READ) != 0;
}

/* Whether the body leaves the kernel's index as the kernel set it up. */
static int index_kept(const kbody *b)
{
    const char *name = b->ctx->index_name;
    if (!name)
        return 0;
    for (size_t i = 0; i < b->tokens.count; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (t->kind != LEX_IDENT)
            continue;
        if (b->flags[i] & TOK_IN_DIRECTIVE) {
            if (amp__lex_is(t, name))
                return 0;
            continue;
        }
        int32_t d = b->resolved[i];
        if (d < 0 || (b->flags[i] & TOK_DECLARATOR) || b->decls[d].kind != DECL_KERNEL ||
            b->decls[d].name_kind != BODY_NAME_INDEX)
            continue;
        if ((b->flags[i] & TOK_MACRO_ARGS) || !(b->roles[i] & ROLE_READ) ||
            (b->roles[i] & (ROLE_WRITTEN | ROLE_ADDRESS)))
            return 0;
    }
    return 1;
}

/* Why the use of a view at token i is not an element at the thread's own
 * or tile's index (or its extent), or UNOWNED_NOT; *at is the index's
 * ROLE_AT_ bits (0 for the extent). */
static body_unowned use_unowned(const kbody *b, size_t i, uint8_t *at)
{
    uint8_t role = b->roles[i];
    *at = role & ROLE_AT_OTHER;
    if (b->flags[i] & TOK_MACRO_ARGS)
        return UNOWNED_MACRO;
    if (role & ROLE_ADDRESS)
        return UNOWNED_ADDRESS;
    if (role & ROLE_VALUE)
        return UNOWNED_VALUE;
    if (*at == ROLE_AT_OTHER)
        return UNOWNED_INDEX;
    if (*at == 0 && (role & (ROLE_WRITTEN | ROLE_READ)) != ROLE_READ)
        return UNOWNED_UNREAD; /* no element, and not only read: not seen */
    return UNOWNED_NOT;
}

/* Where each captured view is used (b->at_own, b->at_tile, and the first
 * use of each that is at neither). */
static void find_owned(kbody *b)
{
    const body_context *ctx = b->ctx;
    uint32_t own = 0, tile = 0, unowned = 0;
    for (int c = 0; c < AMP_MAX_CAPTURES; c++) {
        b->unowned_use[c] = -1;
        b->unowned_why[c] = UNOWNED_NOT;
    }
    int kept = index_kept(b);
    for (size_t i = 0; i < b->tokens.count; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (t->kind != LEX_IDENT)
            continue;
        int c = -1;
        body_unowned why = UNOWNED_NOT;
        uint8_t at = 0;
        if (b->flags[i] & TOK_IN_DIRECTIVE) {
            for (int k = 0; k < ctx->ncaptures && c < 0; k++)
                if (ctx->capture_kinds[k] == BODY_NAME_VIEW &&
                    amp__lex_is(t, ctx->capture_names[k]))
                    c = k;
            why = UNOWNED_MACRO;
        } else {
            int32_t d = b->resolved[i];
            if (d < 0 || (b->flags[i] & TOK_DECLARATOR) || b->decls[d].kind != DECL_KERNEL ||
                b->decls[d].name_kind != BODY_NAME_VIEW || b->decls[d].capture < 0)
                continue;
            c = b->decls[d].capture;
            why = use_unowned(b, i, &at);
            if (why == UNOWNED_NOT && at && !kept)
                why = UNOWNED_INDEX_CHANGED;
        }
        if (c < 0 || c >= AMP_MAX_CAPTURES)
            continue;
        uint32_t bit = 1u << c;
        if (why == UNOWNED_NOT && at == ROLE_AT_OWN)
            own |= bit;
        if (why == UNOWNED_NOT && at == ROLE_AT_TILE)
            tile |= bit;
        if (why == UNOWNED_NOT && (own & tile & bit))
            why = UNOWNED_MIXED;
        if (why != UNOWNED_NOT && !(unowned & bit)) {
            unowned |= bit;
            b->unowned_use[c] = (int32_t)i;
            b->unowned_why[c] = (uint8_t)why;
        }
    }
    b->at_own = own & ~unowned & ~tile;
    b->at_tile = tile & ~unowned & ~own;
}

void amp__writes_find(kbody *b)
{
    const body_context *ctx = b->ctx;
    b->written = 0;
    for (size_t i = 0; i < b->tokens.count; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (t->kind != LEX_IDENT)
            continue;
        /* Named in a preprocessor line (an AMP_DEFINE's replacement, an
         * AMP_IF): what it does there is not seen. */
        if (b->flags[i] & TOK_IN_DIRECTIVE) {
            for (int c = 0; c < ctx->ncaptures; c++)
                if (ctx->capture_kinds[c] == BODY_NAME_VIEW &&
                    amp__lex_is(t, ctx->capture_names[c]))
                    b->written |= 1u << c;
            continue;
        }
        int32_t d = b->resolved[i];
        if (d < 0 || (b->flags[i] & TOK_DECLARATOR))
            continue;
        const body_decl *decl = &b->decls[d];
        if (decl->kind != DECL_KERNEL || decl->name_kind != BODY_NAME_VIEW || decl->capture < 0)
            continue;
        if (!is_read(b, i))
            b->written |= 1u << decl->capture;
    }
    find_owned(b);
}

/* The use at token i as written: the view's name and the brackets after
 * it, at most 60 characters. */
static void quote_use(const kbody *b, size_t i, strbuf *sb)
{
    const lex_token *t = b->tokens.items;
    size_t last = i;
    while (last + 1 < b->tokens.count &&
           (amp__lex_is(&t[last + 1], "(") || amp__lex_is(&t[last + 1], "[")) &&
           b->partner[last + 1] > (int32_t)last)
        last = (size_t)b->partner[last + 1];
    size_t n = (size_t)(t[last].text + t[last].length - t[i].text);
    if (n > 60)
        amp__sb_printf(sb, "'%.57s...'", t[i].text);
    else
        amp__sb_printf(sb, "'%.*s'", (int)n, t[i].text);
}

void amp__writes_unowned_text(const kbody *b, int capture, const char *name, strbuf *sb)
{
    static const char *const why[] = {
        [UNOWNED_INDEX] = "is used at an index other than the thread's own",
        [UNOWNED_MIXED] = "is used both at the thread's own index and at its tile's",
        [UNOWNED_ADDRESS] = "has an element's address taken (an atomic, or a pointer that may"
                            " write anywhere)",
        [UNOWNED_VALUE] = "is used as a view value (given to a helper function, or a section or"
                          " projection of it)",
        [UNOWNED_MACRO] = "is named in a preprocessor line or in a macro's arguments",
        [UNOWNED_UNREAD] = "is used in code the translator does not follow",
        [UNOWNED_INDEX_CHANGED] = "is used at the thread's index, and the body may change the"
                                  " index"};
    int32_t use = capture >= 0 && capture < AMP_MAX_CAPTURES ? b->unowned_use[capture] : -1;
    body_unowned w = use >= 0 ? (body_unowned)b->unowned_why[capture] : UNOWNED_NOT;
    if (w == UNOWNED_NOT || w > UNOWNED_INDEX_CHANGED)
        return;
    amp__sb_printf(sb, "view '%s' %s: ", name, why[w]);
    quote_use(b, (size_t)use, sb);
}
