/*
 * runtime/translate/locals.h - the pass that makes a helper's tile_static
 * variables parameters, declared by the kernels that call it (after
 * spell.c).
 */
#ifndef AMP_TRANSLATE_LOCALS_H
#define AMP_TRANSLATE_LOCALS_H

#include "translate/body.h"

/*
 * Record in b->locals the tile_static variables of helpers that b needs
 * passed in: a helper's own (hoist.c moved them out of its blocks) and
 * those of the helpers it calls; a body's, those of the helpers it calls.
 * Each call of such a helper gets them as its last arguments, and a
 * helper's parameter list gets them as its last parameters. Fails b with
 * AMP_ERROR_KERNEL_BUILD when two variables would have one name at kernel
 * scope, or AMP_ERROR_OUT_OF_MEMORY.
 */
void amp__locals(kbody *b);

#endif
