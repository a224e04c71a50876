/*
 * runtime/translate/spell.h - the pass that writes C++ AMP's spellings in
 * OpenCL C, from the constructs the grammar noted.
 */
#ifndef AMP_TRANSLATE_SPELL_H
#define AMP_TRANSLATE_SPELL_H

#include "translate/body.h"

/* Edit b's tokens for each of its constructs, in order, and record the
 * ranks and captured views as values that the edits use (b->ranks,
 * b->values). Fails b only when out of memory or when a construct lies
 * past the text's end (AMP_ERROR_RUNTIME: an edit would be lost). */
void amp__spell(kbody *b);

#endif
