/*
 * runtime/kernel/body_names.c - the body reader's names: preprocessor
 * lines and the macros they define, the names the generated kernel owns,
 * and the names of moved tile_static declarations.
 */
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "kernel/body_reader.h"
#include "kernel/vocabulary.h"

const body_macro *amp__body_function_macro(const reader *r, const lex_token *t)
{
    for (size_t i = 0; i < r->nmacros; i++) {
        const lex_token *name = &r->tok[r->macros[i].name];
        if (r->macros[i].function_like && name->length == t->length &&
            memcmp(name->text, t->text, t->length) == 0)
            return &r->macros[i];
    }
    return NULL;
}

/* ---- Preprocessor lines ---- */

static const char *const directive_words[] = {"AMP_PRAGMA", "AMP_IF",   "AMP_IFDEF",
                                              "AMP_IFNDEF", "AMP_ELIF", "AMP_DEFINE", NULL};
static const char *const bare_directive_words[] = {"AMP_ELSE", "AMP_ENDIF", NULL};

/* Record the macro whose name is token name and whose definition ends at
 * token last: NAME(x) without a space before the '(' is function-like, as
 * in a #define. */
static int add_macro(reader *r, size_t name, size_t last)
{
    const lex_token *tok = r->b->tokens.items;
    body_macro m = {(uint32_t)name, (uint32_t)name + 1, (uint32_t)last, 0};
    if (name + 1 <= last && amp__lex_is(&tok[name + 1], "(") && !tok[name + 1].space_before) {
        m.function_like = 1;
        size_t k = name + 2;
        while (k <= last && !amp__lex_is(&tok[k], ")"))
            k++;
        m.first = (uint32_t)k + 1;
    }
    body_macro *grown = realloc(r->macros, (r->nmacros + 1) * sizeof *grown);
    if (!grown) {
        amp__body_no_memory(r);
        return 0;
    }
    r->macros = grown;
    r->macros[r->nmacros++] = m;
    return 1;
}

/* Flag the preprocessor lines (AMP_PRAGMA(...) and the others), record
 * the AMP_DEFINE macros, and list the other tokens in order. */
void amp__body_find_directives(reader *r)
{
    kbody *b = r->b;
    const lex_token *tok = b->tokens.items;
    size_t n = b->tokens.count;
    for (size_t i = 0; i < n && r->status == AMP_OK; i++) {
        if (tok[i].line_start && amp__lex_is(&tok[i], "#")) {
            /* A real preprocessor line, in a kernel file: to the line's end. */
            b->flags[i] |= TOK_DIRECTIVE;
            size_t k = i + 1;
            while (k < n && !tok[k].line_start)
                b->flags[k++] |= TOK_IN_DIRECTIVE;
            if (i + 2 < k && amp__lex_is(&tok[i + 1], "define") && tok[i + 2].kind == LEX_IDENT &&
                !add_macro(r, i + 2, k - 1))
                return;
            i = k - 1;
            continue;
        }
        if (amp__body_word_in(&tok[i], bare_directive_words)) {
            b->flags[i] |= TOK_DIRECTIVE;
            continue;
        }
        if (!amp__body_word_in(&tok[i], directive_words)) {
            r->order[r->n++] = (uint32_t)i;
            continue;
        }
        b->flags[i] |= TOK_DIRECTIVE;
        if (i + 1 >= n || !amp__lex_is(&tok[i + 1], "(")) {
            amp__body_fail(r, (long)i, AMP_ERROR_KERNEL_BUILD, "%.*s takes its line in parentheses",
                 (int)tok[i].length, tok[i].text);
            return;
        }
        size_t open = ++i, nest = 1;
        b->flags[open] |= TOK_IN_DIRECTIVE | TOK_DIRECTIVE_PAREN;
        for (i++; i < n && nest > 0; i++) {
            if (amp__lex_is(&tok[i], "("))
                nest++;
            else if (amp__lex_is(&tok[i], ")"))
                nest--;
            if (nest > BODY_MAX_NESTING) {
                amp__body_fail(r, (long)i, AMP_ERROR_KERNEL_BUILD,
                     "parentheses in a preprocessor line nest more than %d deep",
                     BODY_MAX_NESTING);
                return;
            }
            b->flags[i] |= TOK_IN_DIRECTIVE;
        }
        if (nest > 0) {
            amp__body_fail(r, (long)open, AMP_ERROR_KERNEL_BUILD, "this '(' is never closed");
            return;
        }
        size_t close = i - 1;
        b->flags[close] |= TOK_DIRECTIVE_PAREN;
        i = close;
        if (amp__lex_is(&tok[open - 1], "AMP_DEFINE")) {
            if (open + 1 >= close || tok[open + 1].kind != LEX_IDENT) {
                amp__body_fail(r, (long)open - 1, AMP_ERROR_KERNEL_BUILD, "AMP_DEFINE needs a name");
                return;
            }
            if (!add_macro(r, open + 1, close - 1))
                return;
        }
    }
}

/* ---- Names the generated kernel owns ---- */

static int in_words(const char *name, uint32_t length, const char *const *words)
{
    for (; *words; words++)
        if (strlen(*words) == length && memcmp(*words, name, length) == 0)
            return 1;
    return 0;
}

/* Names of the amp_ and AMP_ families a body may use. */
static const char *const allowed_amp_names[] = {
    "amp_sample", "AMP_PRAGMA", "AMP_IF", "AMP_IFDEF", "AMP_IFNDEF", "AMP_ELIF",
    "AMP_ELSE",   "AMP_ENDIF",  "AMP_DEFINE", NULL};

/* Refuse a body that uses a name of the generated kernel's own (amp_...,
 * AMP_...), or that redefines one with AMP_DEFINE. */
void amp__body_check_reserved_names(reader *r)
{
    const kbody *b = r->b;
    for (size_t i = 0; i < b->tokens.count && r->status == AMP_OK; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (t->kind != LEX_IDENT || (i > 0 && (amp__lex_is(&t[-1], ".") || amp__lex_is(&t[-1], "->"))))
            continue;
        if ((amp__lex_has_prefix(t, "amp_") || amp__lex_has_prefix(t, "AMP_") ||
             amp__lex_is(t, "amp_") || amp__lex_is(t, "AMP_")) &&
            !in_words(t->text, t->length, allowed_amp_names))
            amp__body_fail(r, (long)i, AMP_ERROR_KERNEL_BUILD,
                 "'%.*s' is a name of the generated kernel: names that start with amp_ or AMP_"
                 " belong to the library inside kernels. Rename it",
                 (int)t->length, t->text);
    }
    for (size_t m = 0; m < r->nmacros && r->status == AMP_OK; m++) {
        const lex_token *t = &b->tokens.items[r->macros[m].name];
        int32_t d = amp__body_lookup(r, t);
        if (d >= 0 || amp__vocab_reserves(t->text, t->length))
            amp__body_fail(r, r->macros[m].name, AMP_ERROR_KERNEL_BUILD,
                 "AMP_DEFINE(%.*s ...) would redefine %s inside the kernel; choose another"
                 " name",
                 (int)t->length, t->text,
                 d >= 0 ? "a name the kernel gives the body (a capture, the index or an"
                          " extent)"
                        : "a name of the kernel vocabulary");
    }
}

/* ---- Moved tile_static declarations ---- */

static int same_name(const body_decl *d, const lex_token *t)
{
    return t->kind == LEX_IDENT && t->length == d->length &&
           memcmp(t->text, d->name, d->length) == 0;
}

/* Whether the moved declaration id may keep its name at kernel scope:
 * nothing else is declared under it, every use of it anywhere refers to
 * this declaration, and the generated kernel does not use it. */
static int keeps_its_name(const reader *r, int32_t id)
{
    const kbody *b = r->b;
    const body_decl *d = &b->decls[id];
    if (amp__vocab_reserves(d->name, d->length))
        return 0;
    for (size_t k = 0; k < b->ndecls; k++)
        if ((int32_t)k != id && b->decls[k].length == d->length &&
            memcmp(b->decls[k].name, d->name, d->length) == 0)
            return 0;
    for (size_t i = 0; i < b->tokens.count; i++) {
        if (!same_name(d, &b->tokens.items[i]))
            continue;
        if (b->flags[i] & TOK_IN_DIRECTIVE)
            return 0;
        if (b->resolved[i] != id && b->resolved[i] != BODY_NOT_A_USE)
            return 0;
    }
    return 1;
}

/* Name the moved declarations that cannot keep theirs: amp_ts_NAME, then
 * amp_ts2_NAME, ... for more of the same name (the body cannot use amp_
 * names, so these are free). */
void amp__body_name_moved_declarations(reader *r)
{
    kbody *b = r->b;
    for (size_t id = 0; id < b->ndecls && r->status == AMP_OK; id++) {
        body_decl *d = &b->decls[id];
        if (d->kind != DECL_TILE_STATIC)
            continue;
        for (size_t m = 0; m < r->nmacros; m++)
            for (uint32_t i = r->macros[m].first; i <= r->macros[m].last && i < b->tokens.count;
                 i++)
                if (same_name(d, &b->tokens.items[i]))
                    amp__body_fail(r, (long)i, AMP_ERROR_KERNEL_BUILD,
                         "the macro %.*s names '%.*s', and a tile_static declaration has that"
                         " name too: the runtime cannot tell which one the macro means once"
                         " the declaration moves to the top of the kernel. Rename one of them",
                         (int)b->tokens.items[r->macros[m].name].length,
                         b->tokens.items[r->macros[m].name].text, (int)d->length, d->name);
        if (r->status != AMP_OK || keeps_its_name(r, (int32_t)id))
            continue;
        int same = 1;
        for (size_t k = 0; k < id; k++)
            same += b->decls[k].kind == DECL_TILE_STATIC && b->decls[k].renamed &&
                    b->decls[k].length == d->length &&
                    memcmp(b->decls[k].name, d->name, d->length) == 0;
        strbuf sb = STRBUF_INIT;
        if (same == 1)
            amp__sb_printf(&sb, "amp_ts_%.*s", (int)d->length, d->name);
        else
            amp__sb_printf(&sb, "amp_ts%d_%.*s", same, (int)d->length, d->name);
        d->renamed = amp__sb_take(&sb);
        if (!d->renamed)
            amp__body_no_memory(r);
    }
}

