/*
 * runtime/core/elem.h - the built-in element types: scalars and C++ AMP's
 * short vectors of them (amp/array_view.h numbers AMP_INT_2 ... AMP_DOUBLE_4
 * from 5, three lengths per scalar type), taken apart and put together.
 */
#ifndef AMP_CORE_ELEM_H
#define AMP_CORE_ELEM_H

#include <stddef.h>

#include "amp/array_view.h"

/* Nonzero for AMP_INT ... AMP_DOUBLE. */
static inline int amp__elem_is_scalar(amp_elem_type t)
{
    return t >= AMP_INT && t <= AMP_DOUBLE;
}

/* Nonzero for a short vector type, AMP_INT_2 ... AMP_DOUBLE_4. */
static inline int amp__elem_is_vector(amp_elem_type t)
{
    return t >= AMP_INT_2 && t <= AMP_DOUBLE_4;
}

/* The scalar of a short vector type (AMP_FLOAT for AMP_FLOAT_3), a scalar
 * type itself, or 0 for any other type. */
static inline amp_elem_type amp__elem_scalar(amp_elem_type t)
{
    if (amp__elem_is_scalar(t))
        return t;
    return amp__elem_is_vector(t) ? (amp_elem_type)(AMP_INT + ((int)t - AMP_INT_2) / 3)
                                  : (amp_elem_type)0;
}

/* The values in one element: 1 for a scalar, 2 to 4 for a short vector, 0
 * for any other type. */
static inline int amp__elem_lanes(amp_elem_type t)
{
    if (amp__elem_is_scalar(t))
        return 1;
    return amp__elem_is_vector(t) ? 2 + ((int)t - AMP_INT_2) % 3 : 0;
}

/* The type of lanes values of scalar (1: the scalar), or 0. */
static inline amp_elem_type amp__elem_of(amp_elem_type scalar, int lanes)
{
    if (!amp__elem_is_scalar(scalar) || lanes < 1 || lanes > 4)
        return (amp_elem_type)0;
    return lanes == 1 ? scalar
                      : (amp_elem_type)(AMP_INT_2 + ((int)scalar - AMP_INT) * 3 + lanes - 2);
}

/* The bytes of one scalar of a built-in type's elements (4 or 8), or 0. */
static inline size_t amp__elem_scalar_size(amp_elem_type t)
{
    amp_elem_type s = amp__elem_scalar(t);
    return s == AMP_DOUBLE ? 8 : s ? 4 : 0;
}

/* The name of the scalar, as OpenCL C and C++ AMP's T_N spell it: "int",
 * "uint", "float", "double", or NULL. */
static inline const char *amp__elem_scalar_name(amp_elem_type t)
{
    static const char *const names[] = {"int", "uint", "float", "double"};
    amp_elem_type s = amp__elem_scalar(t);
    return s ? names[s - AMP_INT] : NULL;
}

#endif
