/*
 * runtime/translate/names.h - the pass that refuses names the generated
 * kernel owns, after the grammar.
 */
#ifndef AMP_TRANSLATE_NAMES_H
#define AMP_TRANSLATE_NAMES_H

#include "translate/body.h"

/* Fail b (AMP_ERROR_KERNEL_BUILD) when it uses a name of the generated
 * kernel (amp_..., AMP_... but for amp_sample and the AMP_PRAGMA family),
 * an AMP_DEFINE redefines a name the kernel gives it or a name of the
 * kernel vocabulary, or an AMP_DEFINE's text names a declaration that the
 * kernel moves (tile_static) or renames (a variable named like a type of
 * OpenCL C). */
void amp__names_check(kbody *b);

#endif
