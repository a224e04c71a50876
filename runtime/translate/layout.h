/*
 * runtime/translate/layout.h - printing a body read by text.c as readable
 * OpenCL C: one statement per line, four spaces per level of braces, the
 * preprocessor lines on lines of their own, tile_static declarations moved
 * out, and a map from each printed line back to the body's tokens (for
 * build errors and AMP_CHECK's reports at the user's lines).
 */
#ifndef AMP_TRANSLATE_LAYOUT_H
#define AMP_TRANSLATE_LAYOUT_H

#include "core/strbuf.h"
#include "translate/body.h"

/* Where each token of a laid-out body was printed, for taking a
 * compiler's line and column back to the user's token: per token, its line
 * (from 0) and 1-based column in out, or in hoisted (a line h there is
 * recorded as -2 - h), or -1 when it printed nothing. */
typedef struct layout_map {
    int *token_line;
    int *token_column;
} layout_map;

/*
 * Append the body b to out, starting at indent spaces. Its tile_static
 * declarations (b->hoists) are appended to hoisted instead, one per line at
 * indent spaces, under their kernel-scope names, after the preprocessor
 * lines that go with them (hoist.c), and a comment takes each one's place
 * in out (with hoisted NULL they stay where they are).
 * AMP_PRAGMA(...), AMP_IF(...), ..., AMP_DEFINE(...) become preprocessor
 * lines. map, when not NULL, receives where each token was printed (arrays
 * of one entry per token). Returns the number of lines appended to out.
 */
int amp__layout_body(const kbody *b, int indent, strbuf *out, strbuf *hoisted,
                     const layout_map *map);

/* Append the body b as written (its spacing, its lines), each token as the
 * reader rewrote it: a kernel file, whose lines must stay where they are.
 * text is what b was read from, NUL-terminated. */
void amp__layout_verbatim(const kbody *b, const char *text, strbuf *out);

/* Append text to out as the inside of a C comment: a "*" followed by "/"
 * is broken so that it cannot end the comment, and line breaks become
 * spaces. */
void amp__layout_comment_text(strbuf *out, const char *text, size_t length);

#endif
