/*
 * runtime/translate/names.h - the pass that refuses names the generated
 * kernel owns, after the grammar.
 */
#ifndef AMP_TRANSLATE_NAMES_H
#define AMP_TRANSLATE_NAMES_H

#include "translate/body.h"

/* Fail b (AMP_ERROR_KERNEL_BUILD) when it uses a name of the generated
 * kernel (amp_..., AMP_... but for amp_sample and the AMP_PRAGMA family),
 * or an AMP_DEFINE redefines a name the kernel gives it or a name of the
 * kernel vocabulary. */
void amp__names_check(kbody *b);

#endif
