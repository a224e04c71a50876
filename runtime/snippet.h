/*
 * runtime/snippet.h - reading the user's kernel body.
 *
 * A body written inside a macro reaches the runtime as one line: the
 * preprocessor's stringification joins its lines and drops its comments.
 * This module lays it out again, one statement per line, and finds two
 * things the generated kernel needs: the tile_static declarations (which
 * OpenCL C accepts only at kernel scope) and which captured views the body
 * writes (so that read-only ones are passed as const and never copied back).
 */
#ifndef RT_SNIPPET_H
#define RT_SNIPPET_H

#include <stddef.h>

#include "strbuf.h"

/*
 * Append the body, laid out with one statement per line and four spaces per
 * level of braces (starting at indent spaces), to out. tile_static
 * declarations are left out of it, with a comment in their place, and are
 * appended to hoisted, one per line at indent spaces. Returns the number of
 * lines appended to out.
 */
int snip_format(const char *text, size_t length, int indent, strbuf *out, strbuf *hoisted);

/*
 * Nonzero when the body may write the view called name: an element of it is
 * assigned, incremented or has its address taken, or the name is used other
 * than as name(...). A "no" is certain; a "yes" may be cautious.
 */
int snip_may_write(const char *text, size_t length, const char *name);

/* Nonzero when s is a C identifier. */
int snip_is_identifier(const char *s);

#endif
