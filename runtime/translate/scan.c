/*
 * runtime/translate/scan.c - the first pass over a text's tokens: its
 * preprocessor lines and the macros they define, C++ AMP's namespace
 * qualifiers, the tokens the grammar reads, and their brackets' partners.
 */
#include "translate/scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const directive_words[] = {"AMP_PRAGMA", "AMP_IF",     "AMP_IFDEF", "AMP_IFNDEF",
                                              "AMP_ELIF",   "AMP_DEFINE", NULL};
static const char *const bare_directive_words[] = {"AMP_ELSE", "AMP_ENDIF", NULL};

/* The words a pragma starts with that OpenCL compilers take: clang's loop
 * hints (which PoCL's, NVIDIA's and AMD's compilers are), OpenCL's and C's
 * own, and Intel's loop attributes. A compiler ignores a pragma it does not
 * know, so a misspelt unroll would be silently lost. */
static const char *const pragma_words[] = {"unroll",
                                           "nounroll",
                                           "unroll_and_jam",
                                           "nounroll_and_jam",
                                           "OPENCL",
                                           "STDC",
                                           "clang",
                                           "GCC",
                                           "ivdep",
                                           "ii",
                                           "loop_coalesce",
                                           "max_concurrency",
                                           "max_interleaving",
                                           "speculated_iterations",
                                           "disable_loop_pipelining",
                                           "intel",
                                           "pack",
                                           "once",
                                           "message",
                                           "weak",
                                           "push_macro",
                                           "pop_macro",
                                           "redefine_extname",
                                           "nv_diag_suppress",
                                           "nv_diag_default",
                                           NULL};

/* How many letters' edits make a into b (of at most 31 letters). */
static int edits_between(const char *a, size_t na, const char *b)
{
    size_t nb = strlen(b);
    if (na > 31 || nb > 31)
        return 99;
    int row[32];
    for (size_t j = 0; j <= nb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int above = row[j];
            int best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[nb];
}

/* A pragma whose first word is token word (-1: none) is one a compiler
 * takes; otherwise the body fails at token at, naming the word it is
 * closest to. */
static int known_pragma(kbody *b, long word, long at)
{
    const lex_token *tok = b->tokens.items;
    if (word >= 0 && tok[word].kind == LEX_IDENT && amp__lex_is_any(&tok[word], pragma_words))
        return 1;
    if (word < 0) {
        amp__body_fail(b, at, AMP_ERROR_KERNEL_BUILD, "a pragma needs its words, as in unroll 4");
        return 0;
    }
    const char *closest = NULL;
    int fewest = 3;
    for (int k = 0; pragma_words[k]; k++) {
        int d = edits_between(tok[word].text, tok[word].length, pragma_words[k]);
        if (d < fewest) {
            fewest = d;
            closest = pragma_words[k];
        }
    }
    char hint[64] = "";
    if (closest)
        snprintf(hint, sizeof hint, "; did you mean %s?", closest);
    amp__body_fail(b, word, AMP_ERROR_KERNEL_BUILD,
                   "'%.*s' starts no pragma an OpenCL compiler takes, and a compiler ignores"
                   " one it does not know%s (the pragmas taken start with unroll, nounroll,"
                   " OPENCL, STDC or clang)",
                   (int)tok[word].length, tok[word].text, hint);
    return 0;
}

/* Whether the preprocessor knows name: a macro defined before it, an
 * AMP_CONST, or one OpenCL C defines (its names: __..., cl_..., CL_...,
 * and C's limits and constants). */
static int preprocessor_knows(const kbody *b, const lex_token *t)
{
    static const char *const prefixes[] = {"__",   "cl_",   "CL_",    "FLT_",   "DBL_",  "HALF_",
                                           "M_",   "CHAR_", "SCHAR_", "UCHAR_", "SHRT_", "USHRT_",
                                           "INT_", "UINT_", "LONG_",  "ULONG_", "FP_",   NULL};
    static const char *const names[] = {"defined",  "MAXFLOAT", "HUGE_VALF", "HUGE_VAL",
                                        "INFINITY", "NAN",      "CHAR_BIT",  NULL};
    if (amp__lex_is_any(t, names))
        return 1;
    for (int k = 0; prefixes[k]; k++)
        if (amp__lex_has_prefix(t, prefixes[k]))
            return 1;
    return amp__body_defines_macro(b, t->text, t->length) ||
           amp__body_capture_kind(b->ctx, t->text, t->length) == BODY_NAME_CONSTANT;
}

/* A condition of the preprocessor (AMP_IF, AMP_ELIF, #if, #elif), tokens
 * first .. last: a name it does not know reads as 0 there, silently, where
 * a body's name would be an error. Refused, but after defined. (A helper's
 * conditions may name the launch's AMP_CONSTs, which its text does not
 * know: not checked.) */
static int condition_names_known(kbody *b, size_t first, size_t last)
{
    const body_context *c = b->ctx;
    if (!c || c->function || !c->capture_kinds || !c->capture_names)
        return 1;
    const lex_token *tok = b->tokens.items;
    for (size_t i = first; i <= last; i++) {
        if (tok[i].kind != LEX_IDENT || preprocessor_knows(b, &tok[i]))
            continue;
        /* Named by a defined anywhere in the condition: defined(X) && X > 2. */
        int tested = 0;
        for (size_t j = first; j <= last && !tested; j++)
            tested = j > first && tok[j].length == tok[i].length &&
                     memcmp(tok[j].text, tok[i].text, tok[i].length) == 0 &&
                     (amp__lex_is(&tok[j - 1], "defined") ||
                      (j > first + 1 && amp__lex_is(&tok[j - 1], "(") &&
                       amp__lex_is(&tok[j - 2], "defined")));
        if (tested)
            continue;
        if (amp__body_capture_kind(c, tok[i].text, tok[i].length))
            amp__body_fail(b, (long)i, AMP_ERROR_KERNEL_BUILD,
                           "'%.*s' is a captured variable, and a preprocessor condition is"
                           " read before the kernel runs, where it would be 0: test it with"
                           " if (...), or capture a constant with AMP_CONST(%.*s)",
                           (int)tok[i].length, tok[i].text, (int)tok[i].length, tok[i].text);
        else
            amp__body_fail(b, (long)i, AMP_ERROR_KERNEL_BUILD,
                           "'%.*s' is no macro the kernel defines, and a preprocessor condition"
                           " reads such a name as 0: capture its value with AMP_CONST(%.*s),"
                           " define it with AMP_DEFINE, or write defined(%.*s)",
                           (int)tok[i].length, tok[i].text, (int)tok[i].length, tok[i].text,
                           (int)tok[i].length, tok[i].text);
        return 0;
    }
    return 1;
}

/* Record the macro whose name is token name and whose definition ends at
 * token last: NAME(x) without a space before the '(' is function-like, as
 * in a #define. */
static int add_macro(kbody *b, size_t name, size_t last)
{
    const lex_token *tok = b->tokens.items;
    body_macro m = {(uint32_t)name, (uint32_t)name + 1, (uint32_t)last, 0};
    if (name + 1 <= last && amp__lex_is(&tok[name + 1], "(") && !tok[name + 1].space_before) {
        m.function_like = 1;
        size_t k = name + 2;
        while (k <= last && !amp__lex_is(&tok[k], ")"))
            k++;
        m.first = (uint32_t)k + 1;
    }
    body_macro *grown = realloc(b->macros, (b->nmacros + 1) * sizeof *grown);
    if (!grown) {
        amp__body_no_memory(b);
        return 0;
    }
    b->macros = grown;
    b->macros[b->nmacros++] = m;
    return 1;
}

/* C++ AMP's namespaces, written out in a body: concurrency::,
 * Concurrency::, graphics:: name what C spells without them, and
 * fast_math::NAME and precise_math::NAME are fast_math_NAME and
 * precise_math_NAME. A qualifier at token i is noted (spell.c prints it as
 * nothing, and prefixes the name after fast_math::) and the grammar never
 * sees it: returns how many tokens it takes, 0 when there is none. */
static size_t namespace_qualifier(kbody *b, size_t i)
{
    static const char *const dropped[] = {"concurrency", "Concurrency", "graphics", NULL};
    static const char *const prefixed[] = {"fast_math", "precise_math", NULL};
    const lex_token *tok = b->tokens.items;
    size_t n = b->tokens.count;
    if (i + 2 >= n || !amp__lex_is(&tok[i + 1], ":") || !amp__lex_is(&tok[i + 2], ":") ||
        tok[i + 2].space_before)
        return 0;
    int prefix = amp__lex_is_any(&tok[i], prefixed);
    if (!prefix && !amp__lex_is_any(&tok[i], dropped))
        return 0;
    if (prefix && (i + 3 >= n || tok[i + 3].kind != LEX_IDENT))
        return 0;
    body_construct c = {.kind = C_NAMESPACE, .tok = {(int32_t)i, prefix ? (int32_t)i + 3 : -1}};
    amp__body_note(b, &c);
    return 3;
}

/* using namespace concurrency; (or concurrency::graphics, ::fast_math,
 * ::precise_math) at token i, as C++ AMP kernels write it: the names it
 * opens are the kernel's as they stand (a qualifier is dropped, and
 * precise_math's float functions are C's names), so the statement is
 * printed as nothing and the grammar never sees it. Returns how many
 * tokens it takes, 0 when there is none. */
static size_t using_namespace(kbody *b, size_t i)
{
    static const char *const names[] = {"concurrency", "Concurrency",  "graphics",
                                        "fast_math",   "precise_math", NULL};
    const lex_token *tok = b->tokens.items;
    size_t n = b->tokens.count, k = i + 2;
    if (!amp__lex_is(&tok[i], "using") || i + 2 >= n || !amp__lex_is(&tok[i + 1], "namespace"))
        return 0;
    while (k < n && amp__lex_is_any(&tok[k], names)) {
        if (k + 2 < n && amp__lex_is(&tok[k + 1], ":") && amp__lex_is(&tok[k + 2], ":"))
            k += 3;
        else
            k++;
        if (k < n && amp__lex_is(&tok[k], ";"))
            break;
    }
    if (k >= n || !amp__lex_is(&tok[k], ";") || amp__lex_is(&tok[k - 1], ":"))
        return 0;
    for (size_t j = i; j <= k; j++)
        amp__body_edit_instead(b, (long)j, "");
    return k - i + 1;
}

/* Flag the preprocessor lines (AMP_PRAGMA(...) and the others), record
 * the AMP_DEFINE macros, and list the other tokens in order. */
static void find_directives(kbody *b)
{
    const lex_token *tok = b->tokens.items;
    size_t n = b->tokens.count;
    for (size_t i = 0; i < n && b->status == AMP_OK; i++) {
        if (tok[i].line_start && amp__lex_is(&tok[i], "#")) {
            /* A real preprocessor line, in a kernel file: to the line's end. */
            b->flags[i] |= TOK_DIRECTIVE;
            size_t k = i + 1;
            while (k < n && !tok[k].line_start)
                b->flags[k++] |= TOK_IN_DIRECTIVE;
            if (i + 2 < k && amp__lex_is(&tok[i + 1], "define") && tok[i + 2].kind == LEX_IDENT &&
                !add_macro(b, i + 2, k - 1))
                return;
            if (i + 1 < k && amp__lex_is(&tok[i + 1], "pragma") &&
                !known_pragma(b, i + 2 < k ? (long)i + 2 : -1, (long)i + 1))
                return;
            if (i + 2 < k && (amp__lex_is(&tok[i + 1], "if") || amp__lex_is(&tok[i + 1], "elif")) &&
                !condition_names_known(b, i + 2, k - 1))
                return;
            i = k - 1;
            continue;
        }
        if (amp__lex_is_any(&tok[i], bare_directive_words)) {
            b->flags[i] |= TOK_DIRECTIVE;
            continue;
        }
        if (!amp__lex_is_any(&tok[i], directive_words)) {
            size_t skip = namespace_qualifier(b, i);
            if (!skip)
                skip = using_namespace(b, i);
            if (skip) {
                i += skip - 1;
                continue;
            }
            b->order[b->norder++] = (uint32_t)i;
            continue;
        }
        b->flags[i] |= TOK_DIRECTIVE;
        if (i + 1 >= n || !amp__lex_is(&tok[i + 1], "(")) {
            amp__body_fail(b, (long)i, AMP_ERROR_KERNEL_BUILD, "%.*s takes its line in parentheses",
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
            if (nest > AMP_MAX_NESTING) {
                amp__body_fail(b, (long)i, AMP_ERROR_KERNEL_BUILD,
                               "parentheses in a preprocessor line nest more than %d deep",
                               AMP_MAX_NESTING);
                return;
            }
            b->flags[i] |= TOK_IN_DIRECTIVE;
        }
        if (nest > 0) {
            amp__body_fail(b, (long)open, AMP_ERROR_KERNEL_BUILD, "this '(' is never closed");
            return;
        }
        size_t close = i - 1;
        b->flags[close] |= TOK_DIRECTIVE_PAREN;
        b->partner[open] = (int32_t)close;
        b->partner[close] = (int32_t)open;
        i = close;
        if ((amp__lex_is(&tok[open - 1], "AMP_IF") || amp__lex_is(&tok[open - 1], "AMP_ELIF")) &&
            open + 1 < close && !condition_names_known(b, open + 1, close - 1))
            return;
        if (amp__lex_is(&tok[open - 1], "AMP_PRAGMA") &&
            !known_pragma(b, open + 1 < close ? (long)open + 1 : -1, (long)open - 1))
            return;
        if (amp__lex_is(&tok[open - 1], "AMP_DEFINE")) {
            if (open + 1 >= close || tok[open + 1].kind != LEX_IDENT) {
                amp__body_fail(b, (long)open - 1, AMP_ERROR_KERNEL_BUILD,
                               "AMP_DEFINE needs a name");
                return;
            }
            if (!add_macro(b, open + 1, close - 1))
                return;
        }
    }
}

/* Each bracket of the grammar's tokens with the one that closes it (a
 * bracket with none keeps -1: the grammar says where it went wrong). */
static void pair_brackets(kbody *b)
{
    uint32_t open[AMP_MAX_NESTING];
    size_t depth = 0;
    for (size_t k = 0; k < b->norder; k++) {
        uint32_t i = b->order[k];
        const lex_token *t = &b->tokens.items[i];
        char c = amp__lex_bracket(t);
        if (!c)
            continue;
        if (c == '(' || c == '[' || c == '{') {
            if (depth == AMP_MAX_NESTING)
                return; /* the grammar refuses the nesting */
            open[depth++] = i;
        } else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0)
                continue;
            char o = amp__lex_bracket(&b->tokens.items[open[depth - 1]]);
            if ((c == ')' && o != '(') || (c == ']' && o != '[') || (c == '}' && o != '{'))
                return; /* from here the brackets are the grammar's to judge */
            depth--;
            b->partner[open[depth]] = (int32_t)i;
            b->partner[i] = (int32_t)open[depth];
        }
    }
}

void amp__scan(kbody *b)
{
    find_directives(b);
    if (b->status == AMP_OK)
        pair_brackets(b);
}
