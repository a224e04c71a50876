/*
 * runtime/kernel/body.c - reading a kernel body: preprocessor lines,
 * statements, scopes and declarations, and the names of moved tile_static
 * declarations.
 *
 * The reader is a recursive descent over statements, bounded by
 * BODY_MAX_NESTING, that walks expressions flat with a stack of their
 * brackets: it needs to know where each statement and scope begins and
 * ends and which tokens declare names, not the structure of expressions.
 */
#include "kernel/body.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "core/error.h"
#include "core/lexicon.h"
#include "core/strbuf.h"
#include "kernel/vocabulary.h"

/* The names visible now under one spelling, innermost last. */
typedef struct name_slot {
    const char *name;
    uint32_t length;
    int32_t *stack;
    size_t count, capacity;
    UT_hash_handle hh;
} name_slot;

/* An AMP_DEFINE: its name's token, and its replacement's tokens. */
typedef struct body_macro {
    uint32_t name;
    uint32_t first, last; /* the replacement, first > last when empty */
    int function_like;
} body_macro;

typedef struct reader {
    kbody *b;
    const body_context *ctx;
    const lex_token *tok;
    uint32_t *order; /* the tokens outside preprocessor lines, in order */
    size_t n;        /* how many */
    size_t at;       /* the current one, an index into order */
    int depth;       /* statements and brackets open */
    uint32_t scopes; /* scopes made so far */
    uint32_t scope;  /* the current one */
    name_slot *names;
    name_slot **pushed; /* every make_visible, in order, to undo at scope ends */
    size_t npushed, cap_pushed;
    size_t cap_decls;
    body_macro *macros;
    size_t nmacros;
    amp_status status;
} reader;

static const lex_token eof_token = {"", 0, 0, 0, 0};

/* ---- Failures ---- */

static const char *where_file(const reader *r)
{
    return r->ctx->file ? r->ctx->file : "?";
}

/* Record the first failure, at token position i of the body (or -1). */
static void fail(reader *r, long i, amp_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail(reader *r, long i, amp_status status, const char *fmt, ...)
{
    if (r->status != AMP_OK)
        return;
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (i >= 0 && (size_t)i < r->b->tokens.count) {
        const lex_token *t = &r->tok[i];
        int shown = t->length > 40 ? 40 : (int)t->length;
        r->status = amp__err_set(status, "The kernel at %s:%d: %s (at token %ld, '%.*s').",
                                 where_file(r), r->ctx->line, what, i + 1, shown, t->text);
    } else {
        r->status = amp__err_set(status, "The kernel at %s:%d: %s.", where_file(r), r->ctx->line,
                                 what);
    }
}

static void no_memory(reader *r)
{
    fail(r, -1, AMP_ERROR_OUT_OF_MEMORY, "out of host memory reading the body");
}

/* ---- Tokens ---- */

static size_t index_at(const reader *r, size_t k)
{
    return r->at + k < r->n ? r->order[r->at + k] : SIZE_MAX;
}

static const lex_token *peek(const reader *r, size_t k)
{
    size_t i = index_at(r, k);
    return i == SIZE_MAX ? &eof_token : &r->tok[i];
}

static int at_end(const reader *r)
{
    return r->at >= r->n || r->status != AMP_OK;
}

static int is(const reader *r, size_t k, const char *s)
{
    const lex_token *t = peek(r, k);
    return t->length > 0 && amp__lex_is(t, s);
}

static long cur(const reader *r)
{
    size_t i = index_at(r, 0);
    return i == SIZE_MAX ? -1 : (long)i;
}

static void mark(reader *r, int32_t resolution)
{
    size_t i = index_at(r, 0);
    if (i != SIZE_MAX)
        r->b->resolved[i] = resolution;
}

static void advance(reader *r)
{
    if (r->at < r->n)
        r->at++;
}

static void expect(reader *r, const char *s)
{
    if (r->status != AMP_OK)
        return;
    if (!is(r, 0, s)) {
        if (at_end(r))
            fail(r, -1, AMP_ERROR_KERNEL_BUILD, "the body ends where '%s' was expected", s);
        else
            fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "'%s' was expected here", s);
        return;
    }
    mark(r, BODY_NOT_A_USE);
    advance(r);
}

/* Enter a statement or bracket: refused past the nesting limit, where
 * the recursion stops before the stack is at risk. */
static int enter(reader *r)
{
    if (++r->depth > BODY_MAX_NESTING) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD,
             "statements, braces, parentheses or brackets nest more than %d deep; split the"
             " body into helper functions (AMP_FUNCTION)",
             BODY_MAX_NESTING);
        return 0;
    }
    return 1;
}

static void leave(reader *r)
{
    r->depth--;
}

/* ---- Keywords ---- */

static int word_in(const lex_token *t, const char *const *words)
{
    for (; *words; words++)
        if (amp__lex_is(t, *words))
            return 1;
    return 0;
}

/* Keywords that start or steer statements, never declarations. */
static const char *const statement_words[] = {
    "break", "case", "continue", "default", "do", "else", "for", "goto", "if", "return",
    "sizeof", "switch", "while", "true", "false", NULL};

static int is_keyword(const lex_token *t)
{
    if (t->kind != LEX_IDENT || t->length >= 64)
        return 0;
    char word[64];
    memcpy(word, t->text, t->length);
    word[t->length] = '\0';
    /* The prelude makes global and local plain names (t_idx.global). */
    if (strcmp(word, "global") == 0 || strcmp(word, "local") == 0)
        return 0;
    return amp__lexicon_is_keyword(word);
}

/* A keyword that can start or continue a declaration's specifiers. */
static int is_specifier_word(const lex_token *t)
{
    return (is_keyword(t) && !word_in(t, statement_words)) || amp__lex_is(t, "__attribute__") ||
           amp__lex_is(t, "inline") || amp__lex_is(t, "__kernel");
}

/* Qualifiers that may stand among a declarator's '*'s. */
static const char *const pointer_qualifiers[] = {
    "const", "volatile", "restrict", "__global", "__local", "__constant", "constant",
    "__private", "private", "__generic", NULL};

/* ---- Names and scopes ---- */

static name_slot *slot_of(reader *r, const char *name, uint32_t length, int make)
{
    name_slot *s = NULL;
    HASH_FIND(hh, r->names, name, length, s);
    if (s || !make)
        return s;
    s = calloc(1, sizeof *s);
    if (!s) {
        no_memory(r);
        return NULL;
    }
    s->name = name;
    s->length = length;
    HASH_ADD_KEYPTR(hh, r->names, s->name, s->length, s);
    return s;
}

static int32_t declare(reader *r, const char *name, uint32_t length, body_decl_kind kind,
                       int32_t token)
{
    kbody *b = r->b;
    if (b->ndecls == r->cap_decls) {
        size_t cap = r->cap_decls ? 2 * r->cap_decls : 16;
        body_decl *grown = realloc(b->decls, cap * sizeof *grown);
        if (!grown) {
            no_memory(r);
            return -1;
        }
        b->decls = grown;
        r->cap_decls = cap;
    }
    body_decl *d = &b->decls[b->ndecls];
    memset(d, 0, sizeof *d);
    d->name = name;
    d->length = length;
    d->kind = (uint8_t)kind;
    d->capture = -1;
    d->token = token;
    d->scope = r->scope;
    if (token >= 0) {
        /* The declarator names its own declaration, and is not a use. */
        b->resolved[token] = (int32_t)b->ndecls;
        b->flags[token] |= TOK_DECLARATOR;
    }
    return (int32_t)b->ndecls++;
}

/* From now on, the declaration's name refers to it (until its scope
 * ends). */
static void make_visible(reader *r, int32_t id)
{
    if (id < 0 || r->status != AMP_OK)
        return;
    const body_decl *d = &r->b->decls[id];
    name_slot *s = slot_of(r, d->name, d->length, 1);
    if (!s)
        return;
    if (s->count == s->capacity) {
        size_t cap = s->capacity ? 2 * s->capacity : 4;
        int32_t *grown = realloc(s->stack, cap * sizeof *grown);
        if (!grown) {
            no_memory(r);
            return;
        }
        s->stack = grown;
        s->capacity = cap;
    }
    if (r->npushed == r->cap_pushed) {
        size_t cap = r->cap_pushed ? 2 * r->cap_pushed : 64;
        name_slot **grown = realloc(r->pushed, cap * sizeof *grown);
        if (!grown) {
            no_memory(r);
            return;
        }
        r->pushed = grown;
        r->cap_pushed = cap;
    }
    s->stack[s->count++] = id;
    r->pushed[r->npushed++] = s;
}

static int32_t lookup(reader *r, const lex_token *t)
{
    name_slot *s = slot_of(r, t->text, t->length, 0);
    return s && s->count ? s->stack[s->count - 1] : BODY_UNRESOLVED;
}

typedef struct scope_mark {
    size_t pushed;
    uint32_t scope;
} scope_mark;

static scope_mark scope_open(reader *r)
{
    scope_mark m = {r->npushed, r->scope};
    r->scope = ++r->scopes;
    return m;
}

static void scope_close(reader *r, scope_mark m)
{
    while (r->npushed > m.pushed)
        r->pushed[--r->npushed]->count--;
    r->scope = m.scope;
}

/* ---- Expressions ---- */

static const body_macro *function_macro(const reader *r, const lex_token *t)
{
    for (size_t i = 0; i < r->nmacros; i++) {
        const lex_token *name = &r->tok[r->macros[i].name];
        if (r->macros[i].function_like && name->length == t->length &&
            memcmp(name->text, t->text, t->length) == 0)
            return &r->macros[i];
    }
    return NULL;
}

/* Nonzero when the current token ends the expression: one of the
 * terminators at bracket depth 0. */
static int ends_here(const reader *r, const char *const *terminators)
{
    const lex_token *t = peek(r, 0);
    return t->kind == LEX_PUNCT && word_in(t, terminators);
}

/*
 * Walk an expression up to (not over) a terminator at bracket depth 0,
 * resolving each name it uses. Brackets nest flat, on a stack, and an
 * unmatched closing one ends the expression for the caller to see.
 */
static void walk_expression(reader *r, const char *const *terminators)
{
    char open[BODY_MAX_NESTING + 1];
    uint8_t macro_args[BODY_MAX_NESTING + 1];
    int depth = 0;
    int in_macro = 0; /* macro-argument brackets open */
    const lex_token *prev = &eof_token;
    while (!at_end(r)) {
        const lex_token *t = peek(r, 0);
        if (depth == 0 && ends_here(r, terminators))
            return;
        if (t->kind == LEX_PUNCT && t->length == 1 && strchr("([{", t->text[0])) {
            if (!enter(r))
                return;
            int is_macro = prev->kind == LEX_IDENT && function_macro(r, prev) != NULL;
            open[depth] = t->text[0];
            macro_args[depth] = (uint8_t)is_macro;
            in_macro += is_macro;
            depth++;
            mark(r, BODY_NOT_A_USE);
        } else if (t->kind == LEX_PUNCT && t->length == 1 && strchr(")]}", t->text[0])) {
            if (depth == 0)
                return; /* the caller's bracket */
            static const char match[] = {[')'] = '(', [']'] = '[', ['}'] = '{'};
            if (open[depth - 1] != match[(unsigned char)t->text[0]]) {
                fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "'%c' closes '%c'", t->text[0],
                     open[depth - 1]);
                return;
            }
            depth--;
            in_macro -= macro_args[depth];
            leave(r);
            mark(r, BODY_NOT_A_USE);
        } else if (t->kind == LEX_IDENT) {
            if (amp__lex_is(prev, ".") || amp__lex_is(prev, "->") || is_keyword(t) ||
                amp__lex_is(prev, "struct") || amp__lex_is(prev, "union") ||
                amp__lex_is(prev, "enum"))
                mark(r, BODY_NOT_A_USE);
            else
                mark(r, lookup(r, t));
        } else {
            mark(r, BODY_NOT_A_USE);
        }
        if (in_macro)
            r->b->flags[index_at(r, 0)] |= TOK_MACRO_ARGS;
        prev = t;
        advance(r);
    }
    if (depth > 0)
        fail(r, -1, AMP_ERROR_KERNEL_BUILD, "a '%c' is never closed", open[depth - 1]);
}

static const char *const until_semicolon[] = {";", NULL};
static const char *const until_colon[] = {":", ";", NULL};
static const char *const until_paren[] = {")", NULL};
static const char *const until_bracket[] = {"]", NULL};
static const char *const until_declarator_end[] = {",", ";", NULL};

/* ( expression ) */
static void parenthesized(reader *r)
{
    expect(r, "(");
    if (r->status != AMP_OK || !enter(r))
        return;
    walk_expression(r, until_paren);
    leave(r);
    expect(r, ")");
}

/* Skip a bracketed group whose names declare nothing outside it (a
 * struct's members, a prototype's parameters, an attribute's arguments),
 * resolving its names as uses, which errs on the side of renaming. */
static void skip_group(reader *r, const char *open, const char *const *close)
{
    expect(r, open);
    if (r->status != AMP_OK || !enter(r))
        return;
    walk_expression(r, close);
    leave(r);
    expect(r, close[0]);
}

static const char *const until_brace[] = {"}", NULL};

/* ---- Declarations ---- */

static int is_type_name(reader *r, const lex_token *t)
{
    int32_t d = lookup(r, t);
    if (d >= 0)
        return r->b->decls[d].kind == DECL_TYPEDEF;
    for (int i = 0; i < r->ctx->ntypes; i++)
        if (amp__lex_is(t, r->ctx->type_names[i]))
            return 1;
    return 0;
}

/* The position after the __attribute__((...)) groups that start at k. */
static size_t past_attributes(const reader *r, size_t k)
{
    while (is(r, k, "__attribute__") && is(r, k + 1, "(")) {
        size_t nest = 0;
        k++;
        do {
            if (is(r, k, "("))
                nest++;
            else if (is(r, k, ")"))
                nest--;
            k++;
        } while (nest > 0 && index_at(r, k) != SIZE_MAX);
    }
    return k;
}

/* Whether the tokens at the current place start a declaration. */
static int declaration_starts(reader *r)
{
    size_t k0 = past_attributes(r, 0);
    const lex_token *t = peek(r, k0);
    if (t->kind != LEX_IDENT)
        return 0;
    if (is_keyword(t) || amp__lex_is(t, "inline"))
        return is_specifier_word(t);
    if (is_type_name(r, t))
        return 1;
    if (lookup(r, t) != BODY_UNRESOLVED)
        return 0; /* a variable, a capture, the index: an expression */
    /* An unknown name (a type from an AMP_DEFINE, say) followed by a
     * declarator: "T x", "T *x;", "T **p = ...". Two names in a row are a
     * declaration in C; "a * b;" alone is the ambiguous case, and a name
     * known as nothing else is taken as a type there. */
    size_t k = k0 + 1;
    while (is(r, k, "*") || word_in(peek(r, k), pointer_qualifiers))
        k++;
    const lex_token *after = peek(r, k);
    if (after->kind != LEX_IDENT || is_keyword(after))
        return 0;
    if (k == k0 + 1)
        return 1;
    const lex_token *next = peek(r, k + 1);
    return amp__lex_is(next, ";") || amp__lex_is(next, ",") || amp__lex_is(next, "=") ||
           amp__lex_is(next, "[") || amp__lex_is(next, ")");
}

/* enum [tag] { A, B = expr, ... }: enumerators are names in this scope. */
static void enum_body(reader *r)
{
    expect(r, "{");
    if (r->status != AMP_OK || !enter(r))
        return;
    while (!at_end(r) && !is(r, 0, "}")) {
        const lex_token *t = peek(r, 0);
        if (t->kind != LEX_IDENT) {
            fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "an enumerator's name was expected");
            break;
        }
        mark(r, BODY_NOT_A_USE);
        int32_t id = declare(r, t->text, t->length, DECL_ENUMERATOR, (int32_t)cur(r));
        advance(r);
        if (is(r, 0, "=")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            static const char *const ends[] = {",", "}", NULL};
            walk_expression(r, ends);
        }
        make_visible(r, id);
        if (is(r, 0, ","))
            expect(r, ",");
        else
            break;
    }
    leave(r);
    expect(r, "}");
}

/* { members }: a member's name (a name before ';', ',', '[' or ':') is
 * the struct's, not a use; other names (types, sizes) are uses. */
static void struct_body(reader *r)
{
    size_t open = index_at(r, 0);
    skip_group(r, "{", until_brace);
    size_t close = index_at(r, 0) == SIZE_MAX ? r->b->tokens.count : index_at(r, 0);
    for (size_t i = open + 1; i + 1 < close && r->status == AMP_OK; i++) {
        const lex_token *next = &r->tok[i + 1];
        if (r->tok[i].kind == LEX_IDENT && (amp__lex_is(next, ";") || amp__lex_is(next, ",") ||
                                           amp__lex_is(next, "[") || amp__lex_is(next, ":")))
            r->b->resolved[i] = BODY_NOT_A_USE;
    }
}

typedef struct specifiers {
    int tile_static;
    int typedef_;
    int type_seen;
} specifiers;

/* A declaration's specifiers: storage, qualifiers, one type. */
static void read_specifiers(reader *r, specifiers *s)
{
    while (!at_end(r)) {
        const lex_token *t = peek(r, 0);
        if (amp__lex_is(t, "__attribute__")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            skip_group(r, "(", until_paren);
        } else if (amp__lex_is(t, "struct") || amp__lex_is(t, "union") ||
                   amp__lex_is(t, "enum")) {
            int is_enum = amp__lex_is(t, "enum");
            mark(r, BODY_NOT_A_USE);
            advance(r);
            if (peek(r, 0)->kind == LEX_IDENT && !is_keyword(peek(r, 0))) {
                mark(r, BODY_NOT_A_USE); /* a tag */
                advance(r);
            }
            if (is(r, 0, "{")) {
                if (is_enum)
                    enum_body(r);
                else
                    struct_body(r);
            }
            s->type_seen = 1;
        } else if (is_specifier_word(t)) {
            s->tile_static |= amp__lex_is(t, "tile_static");
            s->typedef_ |= amp__lex_is(t, "typedef");
            if (!word_in(t, pointer_qualifiers) && !amp__lex_is(t, "tile_static") &&
                !amp__lex_is(t, "typedef"))
                s->type_seen = 1;
            mark(r, BODY_NOT_A_USE);
            advance(r);
        } else if (t->kind == LEX_IDENT && !s->type_seen && !is_keyword(t) &&
                   (is_type_name(r, t) || lookup(r, t) == BODY_UNRESOLVED)) {
            mark(r, lookup(r, t)); /* a typedef's use, or an unknown type */
            advance(r);
            s->type_seen = 1;
        } else {
            return;
        }
    }
}

/* A declarator: '*'s and qualifiers, the name (perhaps in parentheses),
 * then array and function suffixes. Returns the name's token, or -1 for a
 * declarator without one. */
static long read_declarator(reader *r)
{
    if (!enter(r))
        return -1;
    long name = -1;
    while (is(r, 0, "*") || word_in(peek(r, 0), pointer_qualifiers) ||
           is(r, 0, "__attribute__")) {
        if (is(r, 0, "__attribute__")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            skip_group(r, "(", until_paren);
        } else {
            mark(r, BODY_NOT_A_USE);
            advance(r);
        }
    }
    if (is(r, 0, "(") && !is(r, 1, ")")) {
        expect(r, "(");
        name = read_declarator(r);
        expect(r, ")");
    } else if (peek(r, 0)->kind == LEX_IDENT && !is_keyword(peek(r, 0))) {
        name = cur(r);
        mark(r, BODY_NOT_A_USE);
        advance(r);
    }
    while (r->status == AMP_OK && (is(r, 0, "[") || is(r, 0, "("))) {
        if (is(r, 0, "["))
            skip_group(r, "[", until_bracket);
        else
            skip_group(r, "(", until_paren); /* a prototype: its names are its own */
    }
    leave(r);
    return name;
}

/* A declaration, from its specifiers to its ';'. As an item of a block
 * (hoistable), a tile_static declaration is recorded to be moved. */
static void read_declaration(reader *r, int hoistable)
{
    long first = cur(r);
    specifiers s = {0, 0, 0};
    read_specifiers(r, &s);
    while (r->status == AMP_OK && !is(r, 0, ";")) {
        long name = read_declarator(r);
        int32_t id = -1;
        if (name >= 0) {
            const lex_token *t = &r->tok[name];
            body_decl_kind kind = s.typedef_       ? DECL_TYPEDEF
                                  : s.tile_static ? DECL_TILE_STATIC
                                                  : DECL_VARIABLE;
            id = declare(r, t->text, t->length, kind, (int32_t)name);
        }
        /* A name is in scope from the end of its declarator, so its own
         * initializer already sees it. */
        make_visible(r, id);
        if (is(r, 0, "=")) {
            mark(r, BODY_NOT_A_USE);
            advance(r);
            walk_expression(r, until_declarator_end);
        }
        if (!is(r, 0, ","))
            break;
        expect(r, ",");
    }
    if (r->status != AMP_OK)
        return;
    if (!is(r, 0, ";")) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "a declaration should end with ';' here");
        return;
    }
    long last = cur(r);
    expect(r, ";");
    if (s.tile_static && hoistable && first >= 0) {
        kbody *b = r->b;
        body_hoist *grown = realloc(b->hoists, (b->nhoists + 1) * sizeof *grown);
        if (!grown) {
            no_memory(r);
            return;
        }
        b->hoists = grown;
        b->hoists[b->nhoists++] = (body_hoist){(uint32_t)first, (uint32_t)last};
        for (long i = first; i <= last; i++)
            b->flags[i] |= TOK_HOISTED;
    }
}

/* ---- Statements ---- */

static void read_statement(reader *r);

static void read_item(reader *r)
{
    if (declaration_starts(r))
        read_declaration(r, 1);
    else
        read_statement(r);
}

/* { items } */
static void read_block(reader *r)
{
    size_t open = index_at(r, 0);
    expect(r, "{");
    if (r->status != AMP_OK)
        return;
    r->b->flags[open] |= TOK_BLOCK;
    scope_mark m = scope_open(r);
    while (!at_end(r) && !is(r, 0, "}"))
        read_item(r);
    if (r->status == AMP_OK && at_end(r))
        fail(r, (long)open, AMP_ERROR_KERNEL_BUILD, "this '{' is never closed");
    if (r->status == AMP_OK) {
        r->b->flags[index_at(r, 0)] |= TOK_BLOCK;
        expect(r, "}");
    }
    scope_close(r, m);
}

static void read_for(reader *r)
{
    expect(r, "for");
    scope_mark m = scope_open(r);
    expect(r, "(");
    if (r->status == AMP_OK && enter(r)) {
        if (is(r, 0, ";"))
            expect(r, ";");
        else if (declaration_starts(r))
            read_declaration(r, 0);
        else {
            walk_expression(r, until_semicolon);
            expect(r, ";");
        }
        walk_expression(r, until_semicolon);
        expect(r, ";");
        walk_expression(r, until_paren);
        leave(r);
        expect(r, ")");
        read_statement(r);
    }
    scope_close(r, m);
}

static void read_statement(reader *r)
{
    if (r->status != AMP_OK || !enter(r))
        return;
    const lex_token *t = peek(r, 0);
    if (amp__lex_is(t, "{")) {
        read_block(r);
    } else if (amp__lex_is(t, "if")) {
        /* else-if chains loop here rather than nest. */
        for (;;) {
            expect(r, "if");
            parenthesized(r);
            read_statement(r);
            if (!is(r, 0, "else") || r->status != AMP_OK)
                break;
            expect(r, "else");
            if (!is(r, 0, "if")) {
                read_statement(r);
                break;
            }
        }
    } else if (amp__lex_is(t, "while") || amp__lex_is(t, "switch")) {
        mark(r, BODY_NOT_A_USE);
        advance(r);
        parenthesized(r);
        read_statement(r);
    } else if (amp__lex_is(t, "do")) {
        expect(r, "do");
        read_statement(r);
        expect(r, "while");
        parenthesized(r);
        expect(r, ";");
    } else if (amp__lex_is(t, "for")) {
        read_for(r);
    } else if (amp__lex_is(t, "case")) {
        expect(r, "case");
        walk_expression(r, until_colon);
        expect(r, ":");
    } else if (amp__lex_is(t, "default")) {
        expect(r, "default");
        expect(r, ":");
    } else if (amp__lex_is(t, "return")) {
        expect(r, "return");
        walk_expression(r, until_semicolon);
        expect(r, ";");
    } else if (amp__lex_is(t, "break") || amp__lex_is(t, "continue")) {
        mark(r, BODY_NOT_A_USE);
        advance(r);
        expect(r, ";");
    } else if (amp__lex_is(t, "goto")) {
        expect(r, "goto");
        mark(r, BODY_NOT_A_USE); /* a label */
        advance(r);
        expect(r, ";");
    } else if (amp__lex_is(t, "__attribute__")) {
        /* __attribute__((opencl_unroll_hint)) before a loop */
        expect(r, "__attribute__");
        skip_group(r, "(", until_paren);
        read_statement(r);
    } else if (t->kind == LEX_IDENT && !is_keyword(t) && is(r, 1, ":")) {
        mark(r, BODY_NOT_A_USE); /* a label */
        advance(r);
        expect(r, ":");
    } else if (amp__lex_is(t, ";")) {
        expect(r, ";");
    } else if (amp__lex_is(t, "}") || amp__lex_is(t, ")") || amp__lex_is(t, "]")) {
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "'%.1s' closes nothing", t->text);
    } else {
        walk_expression(r, until_semicolon);
        if (r->status == AMP_OK && !is(r, 0, ";"))
            fail(r, at_end(r) ? -1 : cur(r), AMP_ERROR_KERNEL_BUILD,
                 "%s", at_end(r) ? "the last statement has no ';'" : "';' was expected here");
        else
            expect(r, ";");
    }
    leave(r);
}

/* A helper function: its signature up to the body's '{' (the names there
 * are its own), then the body. */
static void read_function(reader *r)
{
    while (!at_end(r) && !is(r, 0, "{")) {
        mark(r, BODY_NOT_A_USE);
        advance(r);
    }
    read_block(r);
    if (r->status == AMP_OK && !at_end(r))
        fail(r, cur(r), AMP_ERROR_KERNEL_BUILD, "a helper function ends with its body's '}'");
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
        no_memory(r);
        return 0;
    }
    r->macros = grown;
    r->macros[r->nmacros++] = m;
    return 1;
}

/* Flag the preprocessor lines (AMP_PRAGMA(...) and the others), record
 * the AMP_DEFINE macros, and list the other tokens in order. */
static void find_directives(reader *r)
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
        if (word_in(&tok[i], bare_directive_words)) {
            b->flags[i] |= TOK_DIRECTIVE;
            continue;
        }
        if (!word_in(&tok[i], directive_words)) {
            r->order[r->n++] = (uint32_t)i;
            continue;
        }
        b->flags[i] |= TOK_DIRECTIVE;
        if (i + 1 >= n || !amp__lex_is(&tok[i + 1], "(")) {
            fail(r, (long)i, AMP_ERROR_KERNEL_BUILD, "%.*s takes its line in parentheses",
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
                fail(r, (long)i, AMP_ERROR_KERNEL_BUILD,
                     "parentheses in a preprocessor line nest more than %d deep",
                     BODY_MAX_NESTING);
                return;
            }
            b->flags[i] |= TOK_IN_DIRECTIVE;
        }
        if (nest > 0) {
            fail(r, (long)open, AMP_ERROR_KERNEL_BUILD, "this '(' is never closed");
            return;
        }
        size_t close = i - 1;
        b->flags[close] |= TOK_DIRECTIVE_PAREN;
        i = close;
        if (amp__lex_is(&tok[open - 1], "AMP_DEFINE")) {
            if (open + 1 >= close || tok[open + 1].kind != LEX_IDENT) {
                fail(r, (long)open - 1, AMP_ERROR_KERNEL_BUILD, "AMP_DEFINE needs a name");
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
static void check_reserved_names(reader *r)
{
    const kbody *b = r->b;
    for (size_t i = 0; i < b->tokens.count && r->status == AMP_OK; i++) {
        const lex_token *t = &b->tokens.items[i];
        if (t->kind != LEX_IDENT || (i > 0 && (amp__lex_is(&t[-1], ".") || amp__lex_is(&t[-1], "->"))))
            continue;
        if ((amp__lex_has_prefix(t, "amp_") || amp__lex_has_prefix(t, "AMP_") ||
             amp__lex_is(t, "amp_") || amp__lex_is(t, "AMP_")) &&
            !in_words(t->text, t->length, allowed_amp_names))
            fail(r, (long)i, AMP_ERROR_KERNEL_BUILD,
                 "'%.*s' is a name of the generated kernel: names that start with amp_ or AMP_"
                 " belong to the library inside kernels. Rename it",
                 (int)t->length, t->text);
    }
    for (size_t m = 0; m < r->nmacros && r->status == AMP_OK; m++) {
        const lex_token *t = &b->tokens.items[r->macros[m].name];
        int32_t d = lookup(r, t);
        if (d >= 0 || amp__vocab_reserves(t->text, t->length))
            fail(r, r->macros[m].name, AMP_ERROR_KERNEL_BUILD,
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
static void name_moved_declarations(reader *r)
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
                    fail(r, (long)i, AMP_ERROR_KERNEL_BUILD,
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
            no_memory(r);
    }
}

/* ---- Reading ---- */

/* The names the kernel declares around the body, at its outermost scope. */
static void declare_kernel_names(reader *r)
{
    const body_context *c = r->ctx;
    int32_t id;
    if (c->index_name) {
        id = declare(r, c->index_name, (uint32_t)strlen(c->index_name), DECL_KERNEL, -1);
        if (id >= 0)
            r->b->decls[id].name_kind = BODY_NAME_INDEX;
        make_visible(r, id);
    }
    for (int i = 0; i < c->ncaptures && r->status == AMP_OK; i++) {
        const char *name = c->capture_names[i];
        id = declare(r, name, (uint32_t)strlen(name), DECL_KERNEL, -1);
        if (id < 0)
            return;
        r->b->decls[id].name_kind = (uint8_t)c->capture_kinds[i];
        r->b->decls[id].capture = i;
        make_visible(r, id);
    }
}

static void reader_free(reader *r)
{
    name_slot *s, *tmp;
    HASH_ITER(hh, r->names, s, tmp)
    {
        HASH_DEL(r->names, s);
        free(s->stack);
        free(s);
    }
    free(r->pushed);
    free(r->order);
    free(r->macros);
}

amp_status amp__body_read(const char *text, size_t length, const body_context *ctx, kbody *out)
{
    memset(out, 0, sizeof *out);
    reader r;
    memset(&r, 0, sizeof r);
    r.b = out;
    r.ctx = ctx;
    r.status = amp__lex(text, length, &out->tokens);
    size_t n = out->tokens.count;
    if (r.status == AMP_OK) {
        r.tok = out->tokens.items;
        out->resolved = malloc((n + 1) * sizeof *out->resolved);
        out->flags = calloc(n + 1, 1);
        r.order = malloc((n + 1) * sizeof *r.order);
        if (!out->resolved || !out->flags || !r.order)
            no_memory(&r);
    }
    if (r.status == AMP_OK) {
        for (size_t i = 0; i < n; i++)
            out->resolved[i] = BODY_NOT_A_USE;
        find_directives(&r);
    }
    if (r.status == AMP_OK) {
        declare_kernel_names(&r);
        if (ctx->function)
            read_function(&r);
        else
            while (!at_end(&r))
                read_item(&r);
    }
    if (r.status == AMP_OK)
        check_reserved_names(&r);
    if (r.status == AMP_OK)
        name_moved_declarations(&r);
    if (r.status == AMP_OK)
        amp__body_find_writes(out, ctx);
    amp_status st = r.status;
    reader_free(&r);
    return st;
}

void amp__body_free(kbody *b)
{
    for (size_t i = 0; i < b->ndecls; i++)
        free(b->decls[i].renamed);
    free(b->decls);
    free(b->hoists);
    free(b->resolved);
    free(b->flags);
    amp__lex_free(&b->tokens);
    memset(b, 0, sizeof *b);
}

const char *amp__body_token_text(const kbody *b, size_t i, uint32_t *length)
{
    int32_t d = b->resolved[i];
    if (d >= 0 && b->decls[d].renamed) {
        *length = (uint32_t)strlen(b->decls[d].renamed);
        return b->decls[d].renamed;
    }
    *length = b->tokens.items[i].length;
    return b->tokens.items[i].text;
}

int amp__body_uses(const kbody *b, const char *name)
{
    for (size_t i = 0; i < b->tokens.count; i++)
        if (b->tokens.items[i].kind == LEX_IDENT && amp__lex_is(&b->tokens.items[i], name))
            return 1;
    return 0;
}

int amp__body_uses_prefix(const kbody *b, const char *prefix)
{
    for (size_t i = 0; i < b->tokens.count; i++)
        if (amp__lex_has_prefix(&b->tokens.items[i], prefix))
            return 1;
    return 0;
}
