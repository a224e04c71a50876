/*
 * runtime/translate/names.c - the names the generated kernel owns: a body
 * may not use them, nor redefine with AMP_DEFINE a name the kernel gives
 * it or a name of the kernel's vocabulary.
 */
#include "translate/names.h"

#include <string.h>

#include "translate/vocabulary.h"

/* Names of the amp_ and AMP_ families a body may use; amp/short_vector.h's
 * (amp_float_3, amp_float_3_add ...) too. */
static const char *const allowed_amp_names[] = {"amp_sample", "AMP_PRAGMA", "AMP_IF",   "AMP_IFDEF",
                                                "AMP_IFNDEF", "AMP_ELIF",   "AMP_ELSE", "AMP_ENDIF",
                                                "AMP_DEFINE", NULL};

/* Whether t names a declaration of the outermost scope: a name the kernel
 * gives the body, or one a kernel file declares at its top. */
static int outermost_name(const kbody *b, const lex_token *t)
{
    for (size_t d = 0; d < b->ndecls; d++)
        if (b->decls[d].scope == 0 && b->decls[d].length == t->length &&
            memcmp(b->decls[d].name, t->text, t->length) == 0)
            return 1;
    return 0;
}

/* A macro whose text names a declaration the kernel moves or calls by
 * another name is refused: which one the macro means is lost.
 * - Every tile_static declaration moves to the top of the kernel
 *   (hoist.c), away from the macro's place among the body's names.
 * - A variable named like a type or function of OpenCL C is renamed
 *   (amp_name_half: parse.c); the macro could mean either. */
static void names_a_moved_declaration(kbody *b, const body_macro *macro)
{
    const lex_token *name = &b->tokens.items[macro->name];
    for (uint32_t i = macro->first; i <= macro->last && i < b->tokens.count; i++) {
        const lex_token *t = &b->tokens.items[i];
        for (size_t d = 0; d < b->ndecls && b->status == AMP_OK; d++) {
            const body_decl *decl = &b->decls[d];
            if (decl->length != t->length || memcmp(decl->name, t->text, t->length) != 0)
                continue;
            if (decl->kind == DECL_TILE_STATIC)
                amp__body_fail(b, (long)i, AMP_ERROR_KERNEL_BUILD,
                               "the macro %.*s names '%.*s', and a tile_static declaration has"
                               " that name too: the runtime cannot tell which one the macro"
                               " means once the declaration moves to the top of the kernel."
                               " Rename one of them",
                               (int)name->length, name->text, (int)t->length, t->text);
            else if (decl->renamed)
                amp__body_fail(b, (long)i, AMP_ERROR_KERNEL_BUILD,
                               "the macro %.*s names '%.*s', which the body declares and the"
                               " kernel calls %s (OpenCL C has a type or function of that name):"
                               " the runtime cannot tell which one the macro means. Rename the"
                               " variable",
                               (int)name->length, name->text, (int)t->length, t->text,
                               decl->renamed);
        }
        if (b->status != AMP_OK)
            return;
    }
}

void amp__names_check(kbody *b)
{
    for (size_t i = 0; i < b->tokens.count && b->status == AMP_OK; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (t->kind != LEX_IDENT ||
            (i > 0 && (amp__lex_is(&t[-1], ".") || amp__lex_is(&t[-1], "->"))))
            continue;
        if ((amp__lex_has_prefix(t, "amp_") || amp__lex_has_prefix(t, "AMP_") ||
             amp__lex_is(t, "amp_") || amp__lex_is(t, "AMP_")) &&
            !amp__lex_is_any(t, allowed_amp_names) &&
            !amp__vocab_is_vector_name(t->text, t->length))
            amp__body_fail(
                b, (long)i, AMP_ERROR_KERNEL_BUILD,
                "'%.*s' is a name of the generated kernel: names that start with amp_ or AMP_"
                " belong to the library inside kernels. Rename it",
                (int)t->length, t->text);
    }
    for (size_t m = 0; m < b->nmacros && b->status == AMP_OK; m++) {
        const lex_token *t = &b->tokens.items[b->macros[m].name];
        names_a_moved_declaration(b, &b->macros[m]);
        int kernels = outermost_name(b, t);
        if (kernels || amp__vocab_reserves(t->text, t->length))
            amp__body_fail(
                b, b->macros[m].name, AMP_ERROR_KERNEL_BUILD,
                "AMP_DEFINE(%.*s ...) would redefine %s inside the kernel; choose another"
                " name",
                (int)t->length, t->text,
                kernels ? "a name the kernel gives the body (a capture, the index or an"
                          " extent)"
                        : "a name of the kernel vocabulary");
    }
}
