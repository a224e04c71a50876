/*
 * runtime/translate/writes.c - which captured views a kernel body may
 * write.
 *
 * A view passed read only is never copied back, so a write the analysis
 * misses would be lost: the analysis proves reads, and everything else is
 * a write. A use of view v is a read only when it is an access v(...) whose
 * value is taken: after its members, subscripts and grouping parentheses,
 * it is neither assigned (=, +=, ...), incremented or decremented, nor the
 * operand of a unary '&' (whose pointer could be written through), nor an
 * argument of a macro the body defines (whose expansion could do either).
 * v[...] is an access as v(...) is, and v.extent a read of no data. A bare
 * name, another member, or a view named in a preprocessor line is a write. The generated kernel backs this up: a read-only view's accessor
 * is an rvalue, so a write the analysis called a read does not compile, and
 * the kernel cache builds it again with the view written (kcache.c).
 */
#include "translate/writes.h"

#include <string.h>

#include "core/lexicon.h"

static int is_keyword(const lex_token *t)
{
    char word[32];
    if (t->kind != LEX_IDENT || t->length >= sizeof word)
        return 0;
    memcpy(word, t->text, t->length);
    word[t->length] = '\0';
    return amp__lexicon_is_keyword(word) || strcmp(word, "return") == 0 ||
           strcmp(word, "case") == 0 || strcmp(word, "sizeof") == 0 || strcmp(word, "else") == 0;
}

static int is_punct(const lex_token *t, const char *s)
{
    return t->kind == LEX_PUNCT && amp__lex_is(t, s);
}

static int is_assignment(const lex_token *t)
{
    static const char *const ops[] = {
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", NULL};
    for (const char *const *op = ops; *op; op++)
        if (is_punct(t, *op))
            return 1;
    return 0;
}

/* The token that closes the bracket opened at i (the body is balanced:
 * amp__body_read checked it). */
static size_t closing(const kbody *b, size_t i)
{
    const lex_token *t = b->tokens.items;
    int nest = 0;
    for (size_t k = i; k < b->tokens.count; k++) {
        if (t[k].kind != LEX_PUNCT || t[k].length != 1)
            continue;
        char c = t[k].text[0];
        if (c == '(' || c == '[' || c == '{')
            nest++;
        else if ((c == ')' || c == ']' || c == '}') && --nest == 0)
            return k;
    }
    return b->tokens.count - 1;
}

/* Whether the '(' at p groups an expression, rather than calling a
 * function or macro (after a name), following a cast, or being the
 * parentheses of sizeof, if, while, for or switch. */
static int groups(const kbody *b, size_t p)
{
    static const char *const own_parentheses[] = {"sizeof",        "if", "while", "for", "switch",
                                                  "__attribute__", NULL};
    if (p == 0)
        return 1;
    const lex_token *before = &b->tokens.items[p - 1];
    if (is_punct(before, ")") || is_punct(before, "]"))
        return 0;
    if (before->kind != LEX_IDENT)
        return 1;
    if (!is_keyword(before))
        return 0; /* a call */
    for (const char *const *w = own_parentheses; *w; w++)
        if (amp__lex_is(before, *w))
            return 0;
    return 1; /* return (v(i)), else (v(i)) = ... */
}

/* The token that opens the bracket closed at i. */
static size_t opening(const kbody *b, size_t i)
{
    const lex_token *t = b->tokens.items;
    int nest = 0;
    for (size_t k = i + 1; k-- > 0;) {
        if (t[k].kind != LEX_PUNCT || t[k].length != 1)
            continue;
        char c = t[k].text[0];
        if (c == ')' || c == ']' || c == '}')
            nest++;
        else if ((c == '(' || c == '[' || c == '{') && --nest == 0)
            return k;
    }
    return 0;
}

/* Whether the '&' at i is the unary one: it follows no operand. A ')'
 * ends an operand when it closes a call (a name before its '('); any
 * other could close a cast, so it counts as no operand. */
static int unary_ampersand(const kbody *b, size_t i)
{
    if (i == 0)
        return 1;
    const lex_token *before = &b->tokens.items[i - 1];
    if (is_punct(before, ")")) {
        size_t open = opening(b, i - 1);
        if (open == 0)
            return 1;
        const lex_token *callee = &b->tokens.items[open - 1];
        return !((callee->kind == LEX_IDENT && !is_keyword(callee)) || is_punct(callee, "]"));
    }
    int operand = before->kind == LEX_NUMBER || before->kind == LEX_STRING ||
                  before->kind == LEX_CHAR || is_punct(before, "]") ||
                  (before->kind == LEX_IDENT && !is_keyword(before));
    return !operand;
}

/* Whether the use of a view at token i is provably a read. */
static int is_read(const kbody *b, size_t i)
{
    const lex_token *t = b->tokens.items;
    size_t n = b->tokens.count;
    if (b->flags[i] & TOK_MACRO_ARGS)
        return 0;
    /* Made a value (a section, a projection, an argument): read only when
     * the value went only where a const view was due. */
    if (b->roles[i] & ROLE_VALUE)
        return (b->roles[i] & ROLE_VALUE_READ) != 0;
    /* v.extent and v.get_extent() read the view's shape, not its data. */
    if (i + 2 < n && is_punct(&t[i + 1], ".") &&
        (amp__lex_is(&t[i + 2], "extent") || amp__lex_is(&t[i + 2], "get_extent")))
        return 1;
    /* v(...) or v[...][...]: an access. The bare name, or another member,
     * is not an access we can bound. */
    if (i + 1 >= n || !(is_punct(&t[i + 1], "(") || is_punct(&t[i + 1], "[")))
        return 0;
    size_t start = i, end = closing(b, i + 1);
    for (;;) {
        /* Members and subscripts of the element: v(i).x, v(i).a[2]. */
        while (end + 1 < n) {
            if ((is_punct(&t[end + 1], ".") || is_punct(&t[end + 1], "->")) && end + 2 < n &&
                t[end + 2].kind == LEX_IDENT)
                end += 2;
            else if (is_punct(&t[end + 1], "["))
                end = closing(b, end + 1);
            else
                break;
        }
        /* (v(i)), ((v(i)).x) */
        if (start > 0 && end + 1 < n && is_punct(&t[start - 1], "(") &&
            is_punct(&t[end + 1], ")") && groups(b, start - 1)) {
            start--;
            end++;
            continue;
        }
        break;
    }
    const uint16_t directive = TOK_DIRECTIVE | TOK_IN_DIRECTIVE;
    if (end + 1 < n) {
        const lex_token *after = &t[end + 1];
        if ((b->flags[end + 1] & directive) || is_assignment(after) || is_punct(after, "++") ||
            is_punct(after, "--"))
            return 0;
    }
    if (start > 0) {
        const lex_token *before = &t[start - 1];
        if ((b->flags[start - 1] & directive) || is_punct(before, "++") || is_punct(before, "--") ||
            (is_punct(before, "&") && unary_ampersand(b, start - 1)))
            return 0;
    }
    return 1;
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
