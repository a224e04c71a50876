/*
 * runtime/translate/hoist.h - the pass that moves tile_static declarations
 * to kernel scope (after the grammar and the names' check).
 */
#ifndef AMP_TRANSLATE_HOIST_H
#define AMP_TRANSLATE_HOIST_H

#include "translate/body.h"

/*
 * Decide how b's tile_static declarations move: the tokens of each block's
 * declaration (b->hoists) flagged TOK_HOISTED, every tile_static
 * declaration that cannot keep its name at kernel scope renamed
 * (decls[].renamed), and the preprocessor lines that go with them flagged
 * TOK_HOIST_COPY. (A macro that names a tile_static declaration failed b
 * before: names.h.) Printing is layout.c's.
 */
void amp__hoist(kbody *b);

#endif
