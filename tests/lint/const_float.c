/*
 * tests/lint/const_float.c - AMP_CONST of a float does not compile: the
 * cast to an integer would drop the fraction without a word (the test
 * amp_const_refuses_floats compiles it and expects the message).
 */
#include <amp/amp.h>

amp_status scaled(amp_array_view *v);

amp_status scaled(amp_array_view *v)
{
    const float scale = 2.5f;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, AMP_CONST(scale)),
                                 { v(idx) = 10 * scale; });
}
