/*
 * runtime/translate/hoist.c - moving tile_static declarations to kernel
 * scope: which move, under which names, and which preprocessor lines go
 * with them. layout.c prints what this pass decided.
 *
 * OpenCL C allows __local variables only at kernel scope; C++ AMP code
 * declares tiles anywhere. The declarations of blocks move (the grammar
 * lists them); each keeps its name when that name is provably free at
 * kernel scope: declared nowhere else, used nowhere but for it, and no
 * name the generated kernel uses. Otherwise it and exactly the uses that
 * C's scoping gives it are renamed, amp_ts_NAME (then amp_ts2_NAME ...):
 * a body cannot use amp_ names, so these are free.
 */
#include "translate/hoist.h"

#include <string.h>

#include "core/lexicon.h"
#include "core/strbuf.h"
#include "translate/vocabulary.h"

static int same_name(const body_decl *d, const lex_token *t)
{
    return t->kind == LEX_IDENT && t->length == d->length &&
           memcmp(t->text, d->name, d->length) == 0;
}

static int same_decl_name(const body_decl *d, const body_decl *e)
{
    return d->length == e->length && memcmp(d->name, e->name, d->length) == 0;
}

/* Whether declarations k and id are one array in two branches of an
 * AMP_IF: tile_static, of one name, in one block. C allows no second
 * declaration of a name in a block, so the preprocessor keeps one of them
 * at most, and at kernel scope they must have one name too. */
static int same_array(const kbody *b, size_t k, size_t id)
{
    const body_decl *d = &b->decls[id], *e = &b->decls[k];
    return e->kind == DECL_TILE_STATIC && d->kind == DECL_TILE_STATIC && e->scope == d->scope &&
           same_decl_name(d, e);
}

/* Whether the moved declaration id may keep its name at kernel scope:
 * nothing else is declared under it (but the same array in another
 * branch), every use of it anywhere refers to this declaration (or that
 * one), and the generated kernel does not use it. */
static int keeps_its_name(const kbody *b, int32_t id)
{
    const body_decl *d = &b->decls[id];
    if (amp__vocab_reserves(d->name, d->length) ||
        amp__lexicon_is_opencl_only(d->name, d->length) ||
        amp__body_is_extent_name(b, d->name, d->length))
        return 0;
    for (size_t k = 0; k < b->ndecls; k++)
        if ((int32_t)k != id && same_decl_name(d, &b->decls[k]) && !same_array(b, k, (size_t)id))
            return 0;
    for (size_t i = 0; i < b->tokens.count; i++) {
        if (!same_name(d, &b->tokens.items[i]))
            continue;
        if (b->flags[i] & TOK_IN_DIRECTIVE)
            return 0;
        int32_t r = b->resolved[i];
        if (r != id && r != BODY_NOT_A_USE && !(r >= 0 && same_array(b, (size_t)r, (size_t)id)))
            return 0;
    }
    return 1;
}

/* Name the tile_static declarations that cannot keep theirs. (A macro
 * that names one was refused before: names.c.) */
static void name_declarations(kbody *b)
{
    for (size_t id = 0; id < b->ndecls && b->status == AMP_OK; id++) {
        body_decl *d = &b->decls[id];
        if (d->kind != DECL_TILE_STATIC)
            continue;
        if (keeps_its_name(b, (int32_t)id))
            continue;
        int same = 1;
        const char *branch = NULL; /* the same array's name in an earlier branch */
        for (size_t k = 0; k < id; k++) {
            if (b->decls[k].renamed && same_array(b, k, id))
                branch = b->decls[k].renamed;
            else
                same += b->decls[k].kind == DECL_TILE_STATIC && b->decls[k].renamed &&
                        same_decl_name(d, &b->decls[k]);
        }
        strbuf sb = STRBUF_INIT;
        if (branch)
            amp__sb_printf(&sb, "%s", branch);
        else if (same == 1)
            amp__sb_printf(&sb, "amp_ts_%.*s", (int)d->length, d->name);
        else
            amp__sb_printf(&sb, "amp_ts%d_%.*s", same, (int)d->length, d->name);
        d->renamed = amp__sb_take(&sb);
        if (!d->renamed)
            amp__body_no_memory(b);
    }
}

/* The preprocessor lines that go with the moved declarations, in the
 * order the body has them. Up to the last moved declaration: every
 * AMP_DEFINE, which the declarations may use (tile_static int buffer[N]),
 * and every AMP_IF, AMP_ELIF, AMP_ELSE and AMP_ENDIF around them, so that a
 * name defined in two branches means there what it means in the body
 * (without them the last definition written would size the array,
 * whichever branch the constants take). A second definition with the same
 * text is C's own rule for macros. After the last one: only the AMP_ENDIFs
 * that close what the copy opened. */
static void copy_directives(kbody *b)
{
    const lex_token *t = b->tokens.items;
    size_t next = 0;
    int open = 0;    /* conditionals the copy has open */
    int skipped = 0; /* after the last move: conditionals opened and not copied */
    for (size_t i = 0; i < b->tokens.count; i++) {
        if (next < b->nhoists && b->hoists[next].first == i) {
            i = b->hoists[next++].last; /* a moved declaration: its lines go with it */
            continue;
        }
        if (!(b->flags[i] & TOK_DIRECTIVE))
            continue;
        int opens = amp__lex_is(&t[i], "AMP_IF") || amp__lex_is(&t[i], "AMP_IFDEF") ||
                    amp__lex_is(&t[i], "AMP_IFNDEF");
        int closes = amp__lex_is(&t[i], "AMP_ENDIF");
        int copy;
        if (next < b->nhoists) {
            copy = opens || closes || amp__lex_is(&t[i], "AMP_ELIF") ||
                   amp__lex_is(&t[i], "AMP_ELSE") || amp__lex_is(&t[i], "AMP_DEFINE");
            open += opens - (closes && open > 0);
        } else if (opens) {
            copy = 0;
            skipped++;
        } else if (closes && skipped > 0) {
            copy = 0;
            skipped--;
        } else {
            copy = closes && open > 0;
            open -= copy;
        }
        if (copy)
            b->flags[i] |= TOK_HOIST_COPY;
        /* The line's argument is no preprocessor line of its own. */
        if (i + 1 < b->tokens.count && (b->flags[i + 1] & TOK_DIRECTIVE_PAREN))
            for (i += 2; i < b->tokens.count && !(b->flags[i] & TOK_DIRECTIVE_PAREN); i++)
                ;
    }
}

void amp__hoist(kbody *b)
{
    for (size_t h = 0; h < b->nhoists; h++)
        for (uint32_t i = b->hoists[h].first; i <= b->hoists[h].last; i++)
            b->flags[i] |= TOK_HOISTED;
    name_declarations(b);
    if (b->status == AMP_OK && b->nhoists > 0)
        copy_directives(b);
}
