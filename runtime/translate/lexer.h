/*
 * runtime/translate/lexer.h - the tokens of OpenCL C source: a kernel body as
 * the preprocessor's stringification left it (one line, comments gone), a
 * helper's source, or the text of the user's file, to find a body's tokens
 * in it again.
 *
 * The lexer accepts any bytes: what is not an identifier, a number, a
 * string, a character constant or one of C's punctuators is a token of one
 * byte, which the compiler will reject with a message at its place.
 */
#ifndef AMP_TRANSLATE_LEXER_H
#define AMP_TRANSLATE_LEXER_H

#include <stddef.h>
#include <stdint.h>

#include "amp/status.h"
#include "core/strbuf.h"

typedef enum lex_kind {
    LEX_IDENT = 1,
    LEX_NUMBER, /* a preprocessing number: 42, 0x1F, 1.5e-3f */
    LEX_STRING,
    LEX_CHAR,
    LEX_PUNCT /* a punctuator, or one byte that is none */
} lex_kind;

typedef struct lex_token {
    const char *text; /* into the lexed text, not NUL-terminated */
    uint32_t length;
    uint8_t kind;         /* a lex_kind */
    uint8_t space_before; /* whitespace (or a comment) preceded it */
    uint8_t line_start;   /* the first token of a line (a backslash-newline continues one) */
} lex_token;

typedef struct lex_tokens {
    lex_token *items;
    size_t count;
} lex_tokens;

/* The tokens of text[0 .. length), in *out (free with amp__lex_free).
 * Comments and backslash-newlines count as whitespace. Returns AMP_ERROR_OUT_OF_MEMORY, or
 * AMP_ERROR_INVALID_ARGUMENT for a text over 2^31 bytes. */
amp_status amp__lex(const char *text, size_t length, lex_tokens *out);

void amp__lex_free(lex_tokens *tokens);

/* Nonzero when t is the token s (an identifier or punctuator). */
int amp__lex_is(const lex_token *t, const char *s);

/* Nonzero when t is one of words (a NULL-terminated list). */
int amp__lex_is_any(const lex_token *t, const char *const *words);

/* The number that t's leading decimal digits make, as atoi reads it (0
 * for none), reading nothing past the token: of its first 9 digits. */
int amp__lex_leading_number(const lex_token *t);

/* Nonzero when t is an identifier that starts with prefix and is longer. */
int amp__lex_has_prefix(const lex_token *t, const char *prefix);

/* Nonzero when some token of text is the identifier name; when prefix is
 * nonzero, when some identifier starts with name and is longer. C++ AMP's
 * NS::NAME counts as NS_NAME (fast_math::sqrt as fast_math_sqrt), as the
 * body reader reads it. Makes no allocation (for checks on the dispatch
 * path). */
int amp__lex_text_uses(const char *text, size_t length, const char *name, int prefix);

/* A place in a file: 1-based line and column. */
typedef struct lex_pos {
    int line;
    int column;
} lex_pos;

/* How amp__lex_locate() matches a body with its file. */
enum {
    /* Host macros expanded in the body: a name in the file the body does
     * not have, with its arguments, stands for the body's tokens up to the
     * file's next token; they are all placed at the name. */
    LEX_LOCATE_MACROS = 1,
    /* The body is the arguments of a macro joined by # (AMP_FUNCTION's
     * return type, name, parameters and body): the commas between them in
     * the file are not in it. */
    LEX_LOCATE_MACRO_ARGS = 2
};

/*
 * Find the body's tokens in the text of the file it was written in, at or
 * after line from_line (comments in the file are skipped, as the
 * preprocessor skipped them), and store where each of the first n tokens
 * is. flags: LEX_LOCATE_* or 0 for the tokens exactly as written. Returns
 * the number of tokens placed; 0 when the body is not there (the file
 * changed since it was compiled).
 */
size_t amp__lex_locate(const char *file_text, int from_line, const char *body, size_t length,
                       lex_pos *pos, size_t n, int flags);

/* Append "file:line:column: severity: message", the file's line and a caret
 * under column, as a C compiler prints a diagnostic (no line when
 * file_text is NULL or has no such line). */
void amp__lex_diagnostic(strbuf *out, const char *file, const char *file_text, int line, int column,
                         const char *severity, const char *message, size_t length);

#endif
