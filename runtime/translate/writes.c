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
 */
#include "translate/writes.h"

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
}
