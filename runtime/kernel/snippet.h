/*
 * runtime/kernel/snippet.h - reading the user's kernel body.
 *
 * A body written inside a macro reaches the runtime as one line: the
 * preprocessor's stringification joins its lines and drops its comments.
 * This module lays it out again, one statement per line, and finds two
 * things the generated kernel needs: the tile_static declarations (which
 * OpenCL C accepts only at kernel scope) and which captured views the body
 * writes (so that read-only ones are passed as const and never copied back).
 */
#ifndef AMP_KERNEL_SNIPPET_H
#define AMP_KERNEL_SNIPPET_H

#include <stddef.h>

#include "core/strbuf.h"

/*
 * Append the body, laid out with one statement per line and four spaces per
 * level of braces (starting at indent spaces), to out. tile_static
 * declarations are left out of it, with a comment in their place, and are
 * appended to hoisted, one per line at indent spaces (hoisted may be NULL
 * to leave them in place). AMP_PRAGMA(...), AMP_IF(...), AMP_IFDEF(...),
 * AMP_ELIF(...), AMP_ELSE, AMP_ENDIF and AMP_DEFINE(...) become preprocessor
 * lines, which a macro argument cannot hold. When first_token is not NULL,
 * first_token[k] receives the ordinal of the first body token on output
 * line k (or -1 for a line made by the layout), for k < max_lines; and
 * when hoisted_first_token is not NULL, hoisted_first_token[h] receives the
 * ordinal of the first token of hoisted line h (its tile_static), for
 * h < max_lines, so that a compiler's error in a moved declaration can be
 * taken back to the user's line too. Returns the number of lines appended
 * to out.
 */
int amp__snip_format(const char *text, size_t length, int indent, strbuf *out, strbuf *hoisted,
                int *first_token, int *hoisted_first_token, int max_lines);

/* Nonzero when the identifier name appears in the text as a token. */
int amp__snip_uses(const char *text, size_t length, const char *name);

/* Nonzero when some identifier of the text starts with prefix. */
int amp__snip_uses_prefix(const char *text, size_t length, const char *prefix);

/* A place in a file: 1-based line and column. */
typedef struct snip_pos {
    int line;
    int column;
} snip_pos;

/*
 * Find the body's tokens in the text of the file it was written in, at or
 * after line from_line (comments in the file are skipped, as the
 * preprocessor skipped them), and store where each of the first n tokens
 * is. Returns the number of tokens placed; 0 when the body is not there
 * (the file changed since it was compiled).
 */
size_t amp__snip_locate(const char *file_text, int from_line, const char *body, size_t length,
                   snip_pos *pos, size_t n);

/* The ordinal, among the tokens of line (a line of laid-out output), of
 * the token at the 1-based column; the last token when column is past it. */
int amp__snip_token_at_column(const char *line, size_t length, int column);

/*
 * Nonzero when the body may write the view called name: an element of it is
 * assigned, incremented or has its address taken, or the name is used other
 * than as name(...). A "no" is certain; a "yes" may be cautious.
 */
int amp__snip_may_write(const char *text, size_t length, const char *name);


#endif
