/*
 * runtime/translate/writes.h - the pass that finds which captured views a
 * body may write.
 */
#ifndef AMP_TRANSLATE_WRITES_H
#define AMP_TRANSLATE_WRITES_H

#include "core/strbuf.h"
#include "translate/body.h"

/* Find the captured views the body may write (b->written): every use of a
 * view that is not provably a read counts as a write. And where each view
 * is used: only at the thread's own index (b->at_own), only at its tile's
 * (b->at_tile), or else the first use that is not, and why. */
void amp__writes_find(kbody *b);

/* Why captured view capture of b, called name, is not used only at the
 * thread's own index or only at its tile's, with the first use that is
 * not, appended to sb ("view 'c' is used at an index other than the
 * thread's own: 'c(row, col)'"); nothing when it is. Reads b's tokens and
 * facts alone (its context may be gone). */
void amp__writes_unowned_text(const kbody *b, int capture, const char *name, strbuf *sb);

#endif
