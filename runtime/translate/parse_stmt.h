/*
 * runtime/translate/parse_stmt.h - the grammar's entry (parse.h: the
 * grammar's files).
 */
#ifndef AMP_TRANSLATE_PARSE_STMT_H
#define AMP_TRANSLATE_PARSE_STMT_H

#include "translate/parse.h"

/*
 * Read b (scanned) as C: a body's block items, or a helper function's
 * definition (b->ctx->function). Records the facts body.h describes:
 * names resolved, declarations, types, roles, constructs, the tile_static
 * declarations of blocks, a helper's parameters and result. A text it
 * cannot bound (braces that do not balance, nesting past
 * AMP_MAX_NESTING, C++ that C cannot take) fails b with
 * AMP_ERROR_KERNEL_BUILD and a message at the place.
 */
void amp__parse_body(kbody *b);

#endif
