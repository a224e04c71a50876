/*
 * runtime/translate/body_names.c - the body reader's names: preprocessor
 * lines and the macros they define, the names the generated kernel owns,
 * the names of moved tile_static declarations, and C++'s names that C
 * cannot take.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "translate/body_reader.h"
#include "translate/vocabulary.h"

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

static const char *const directive_words[] = {"AMP_PRAGMA", "AMP_IF",     "AMP_IFDEF", "AMP_IFNDEF",
                                              "AMP_ELIF",   "AMP_DEFINE", NULL};
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

/* C++ AMP's namespaces, written out in a body: concurrency::,
 * Concurrency::, graphics:: name what C spells without them, and
 * fast_math::NAME and precise_math::NAME are fast_math_NAME and
 * precise_math_NAME. A qualifier at token i is printed as nothing (the name
 * after fast_math:: gains its prefix) and the reader never sees it: returns
 * how many tokens it takes, 0 when there is none. */
static size_t namespace_qualifier(reader *r, size_t i)
{
    static const char *const dropped[] = {"concurrency", "Concurrency", "graphics", NULL};
    static const char *const prefixed[] = {"fast_math", "precise_math", NULL};
    kbody *b = r->b;
    const lex_token *tok = b->tokens.items;
    size_t n = b->tokens.count;
    if (i + 2 >= n || !amp__lex_is(&tok[i + 1], ":") || !amp__lex_is(&tok[i + 2], ":") ||
        tok[i + 2].space_before)
        return 0;
    int prefix = amp__body_word_in(&tok[i], prefixed);
    if (!prefix && !amp__body_word_in(&tok[i], dropped))
        return 0;
    if (prefix && (i + 3 >= n || tok[i + 3].kind != LEX_IDENT))
        return 0;
    for (size_t k = i; k < i + 3; k++)
        amp__body_edit_instead(r, k, "");
    if (prefix) {
        char text[32];
        snprintf(text, sizeof text, "%.*s_", (int)tok[i].length, tok[i].text);
        amp__body_edit_before(r, i + 3, text);
    }
    return 3;
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
            size_t skip = namespace_qualifier(r, i);
            if (skip) {
                i += skip - 1;
                continue;
            }
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
                amp__body_fail(r, (long)open - 1, AMP_ERROR_KERNEL_BUILD,
                               "AMP_DEFINE needs a name");
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
static const char *const allowed_amp_names[] = {"amp_sample", "AMP_PRAGMA", "AMP_IF",   "AMP_IFDEF",
                                                "AMP_IFNDEF", "AMP_ELIF",   "AMP_ELSE", "AMP_ENDIF",
                                                "AMP_DEFINE", NULL};

/* Refuse a body that uses a name of the generated kernel's own (amp_...,
 * AMP_...), or that redefines one with AMP_DEFINE. */
void amp__body_check_reserved_names(reader *r)
{
    const kbody *b = r->b;
    for (size_t i = 0; i < b->tokens.count && r->status == AMP_OK; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (t->kind != LEX_IDENT ||
            (i > 0 && (amp__lex_is(&t[-1], ".") || amp__lex_is(&t[-1], "->"))))
            continue;
        if ((amp__lex_has_prefix(t, "amp_") || amp__lex_has_prefix(t, "AMP_") ||
             amp__lex_is(t, "amp_") || amp__lex_is(t, "AMP_")) &&
            !in_words(t->text, t->length, allowed_amp_names))
            amp__body_fail(
                r, (long)i, AMP_ERROR_KERNEL_BUILD,
                "'%.*s' is a name of the generated kernel: names that start with amp_ or AMP_"
                " belong to the library inside kernels. Rename it",
                (int)t->length, t->text);
    }
    for (size_t m = 0; m < r->nmacros && r->status == AMP_OK; m++) {
        const lex_token *t = &b->tokens.items[r->macros[m].name];
        int32_t d = amp__body_lookup(r, t);
        if (d >= 0 || amp__vocab_reserves(t->text, t->length))
            amp__body_fail(
                r, r->macros[m].name, AMP_ERROR_KERNEL_BUILD,
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
                    amp__body_fail(
                        r, (long)i, AMP_ERROR_KERNEL_BUILD,
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


/* ---- C++ in a body ---- */

/* Words of C++ that restrict(amp) code uses and C has not, with what to
 * write instead. follow: what must come next for the word to be C++'s
 * (NULL: anything). */
static const struct {
    const char *word;
    const char *follow;
    const char *hint;
} cpp_words[] = {
    {"std", "::",
     "C has no namespaces: std::min is min (fmin for float), std::max is max (fmax),"
     " std::abs is abs (fabs), std::sqrt is sqrt"},
    {"direct3d", "::",
     "direct3d's functions are not offered: write abs, clamp, mad, rcp, step ... with"
     " OpenCL C's built-ins"},
    {"nullptr", NULL, "C has no nullptr: write 0 (or NULL)"},
    {"static_cast", "<", "C has no named casts: write (T)x"},
    {"reinterpret_cast", "<", "C has no named casts: write (T)x, or as_float(x) for the bits"},
    {"const_cast", "<", "C has no named casts: write (T)x"},
    {"dynamic_cast", "<", "C has no named casts, and kernels no classes"},
    {"this", NULL, "a kernel is not a member function: name the captured view or value"},
    {"new", NULL,
     "kernels cannot allocate: use a tile_static array, or a local array of constant size"},
    {"delete", NULL, "kernels cannot allocate or free memory"},
    {"throw", NULL,
     "restrict(amp) code has no exceptions: write a status into a view and check it on the"
     " host"},
    {"try", "{", "restrict(amp) code has no exceptions"},
    {"template", "<",
     "C has no templates: write a helper (AMP_FUNCTION) for each type, or use a macro"},
    {"typename", NULL, "C has no templates: name the type"},
    {"class", NULL, "C has no classes: use a struct (AMP_STRUCT for views' elements)"},
    {"operator", NULL, "C has no operator overloading: write a helper function"},
    {"using", NULL, "C has no using: write the names in full (index<2>, fast_math_sqrt)"},
    {"namespace", NULL, "C has no namespaces"},
    {"restrict", "(",
     "a kernel body and an AMP_FUNCTION are restrict(amp) already: leave restrict(amp) out;"
     " for restrict(cpu, amp), write AMP_SHARED_FUNCTION"},
    {"parallel_for_each", "(",
     "a kernel cannot start another: run the two parallel_for_each calls one after the"
     " other on the host"},
    {"unorm", NULL, "unorm is not offered: use float, clamped to 0..1 with clamp(x, 0.0f, 1.0f)"},
    {"norm", NULL, "norm is not offered: use float, clamped to -1..1 with clamp(x, -1.0f, 1.0f)"},
    {"completion_future", NULL, "completion_future is the host's (amp_completion)"},
    {"accelerator_view", NULL,
     "accelerators are the host's: a kernel runs on the one it was given"},
};

const char *amp__body_cpp_hint(const reader *r)
{
    const lex_token *t = peek(r, 0);
    if (t->kind != LEX_IDENT || amp__body_lookup((reader *)r, t) != BODY_UNRESOLVED)
        return NULL;
    for (size_t i = 0; i < sizeof cpp_words / sizeof cpp_words[0]; i++) {
        if (!amp__lex_is(t, cpp_words[i].word))
            continue;
        const char *follow = cpp_words[i].follow;
        /* "::" is two ':' tokens to the lexer */
        if (!follow ||
            (strcmp(follow, "::") == 0 ? is(r, 1, ":") && is(r, 2, ":") : is(r, 1, follow)))
            return cpp_words[i].hint;
    }
    return NULL;
}
