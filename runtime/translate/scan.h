/*
 * runtime/translate/scan.h - the first pass over a text's tokens, before
 * the grammar: preprocessor lines (AMP_PRAGMA, AMP_IF ... AMP_DEFINE, or a
 * kernel file's # lines) flagged, the macros they define recorded, C++
 * AMP's namespace qualifiers noted (concurrency::, fast_math::), the
 * grammar's tokens listed in order, and each bracket paired with its
 * partner.
 */
#ifndef AMP_TRANSLATE_SCAN_H
#define AMP_TRANSLATE_SCAN_H

#include "translate/body.h"

/* Scan b (opened by amp__body_open). A preprocessor line without its
 * parentheses, or with parentheses that do not close, fails b with
 * AMP_ERROR_KERNEL_BUILD. */
void amp__scan(kbody *b);

#endif
