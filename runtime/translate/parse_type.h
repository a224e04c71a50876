/*
 * runtime/translate/parse_type.h - C++ AMP's class templates in a body's
 * types (parse.h: the grammar's files).
 */
#ifndef AMP_TRANSLATE_PARSE_TYPE_H
#define AMP_TRANSLATE_PARSE_TYPE_H

#include "translate/parse.h"

/* A type written C++ AMP's way at the current place (index<2>,
 * extent<3>, array_view<float, 2>, ...): consumed, checked and noted, its
 * kind and rank in *type. Returns 0, consuming nothing, when there is
 * none. */
int amp__parse_template_type(reader *r, body_type *type);

#endif
