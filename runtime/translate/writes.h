/*
 * runtime/translate/writes.h - the pass that finds which captured views a
 * body may write.
 */
#ifndef AMP_TRANSLATE_WRITES_H
#define AMP_TRANSLATE_WRITES_H

#include "translate/body.h"

/* Find the captured views the body may write (b->written): every use of a
 * view that is not provably a read counts as a write. */
void amp__writes_find(kbody *b);

#endif
