/*
 * runtime/translate/parse_expr.h - expressions, by C's precedence (parse.h:
 * the grammar's files).
 */
#ifndef AMP_TRANSLATE_PARSE_EXPR_H
#define AMP_TRANSLATE_PARSE_EXPR_H

#include "translate/parse.h"

/* An expression: its type, and its first and last tokens (-1 for none). */
typedef struct body_value {
    body_type type;
    long first, last;
    long root;   /* a view value made from a captured view: the capture's token, else -1 */
    long root2;  /* and of the second view a ?: chooses between, else -1 */
    long access; /* an element of a captured view, or a member or subscript of one (an
                    lvalue): the view's token, else -1 */
} body_value;

/* An expression up to (not over) one of terminators at bracket depth 0
 * (a comma operator only when "," is not among them): names resolved,
 * types followed, C++ AMP's spellings and the roles of captured views
 * recorded. What the grammar does not take is walked to the terminator,
 * its names resolved. */
body_value amp__parse_expression(reader *r, const char *const *terminators);

/* The view value v goes where a const view is due (array_view<const T, N>):
 * the captured views it may be made of are only read there. */
void amp__parse_value_read(reader *r, body_value v);

/* What a value of element type elem is to the reader: a short vector (a
 * 3-vector packed when it is in memory: in_memory, a view's element or a
 * struct's member), a registered struct, or nothing it follows. */
body_type amp__parse_element_type(reader *r, uint16_t elem, int in_memory);

/* A tiled index where an index is due stands for its global index: noted,
 * and v is an index from then on. */
body_value amp__parse_as_index(reader *r, body_value v);

#endif
