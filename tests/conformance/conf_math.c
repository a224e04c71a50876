/*
 * tests/conformance/conf_math.c - C++ AMP 1.2, chapter 9, the math
 * libraries (fast_math, precise_math) as restrict(amp) and restrict(cpu,
 * amp) code uses them, and math.h's constants (M_PI ...) that such code
 * takes for granted.
 *
 * Each test, and the section it comes from:
 *
 * math_9_constants_in_a_kernel
 *     9 M_PI, M_E and the others of math.h, as OpenCL C names them in a
 *     kernel (doubles where the device has double precision)
 * math_9_constants_on_the_host_in_strict_c
 *     9 the same names on the host under -std=c11, where <math.h> hides them:
 *     amp/math.h defines them, with the C library's values
 * math_9_constants_expanded_by_the_host_in_a_kernel
 *     9 a body where the host's macros replaced M_PI by its digits
 * math_9_1_fast_math_in_restrict_cpu_amp_code
 *     9.1 fast_math functions in code for both sides, close on both
 * math_9_2_precise_math_in_restrict_cpu_amp_code
 *     9.2 precise_math functions in double, where the device has it
 * math_9_a_function_style_cast_names_the_c_spelling
 *     9 float(M_E), C++'s cast, refused with C's spelling at its line
 */
#include <math.h>

#include "conf_util.h"

#include "amp/math.h"

/* The body as a string of its own: the host's M_PI (amp/math.h's) does not
 * replace the kernel's. */
static const char constants_body[] = "{ v(0) = (float)M_PI; v(1) = (float)M_E; v(2) = "
                                     "(float)M_SQRT2; v(3) = (float)M_LN2; v(4) = (float)M_PI_2; "
                                     "v(5) = (float)M_1_PI; v(6) = (float)M_SQRT1_2; v(7) = "
                                     "(float)M_LOG2E; }";

static void math_9_constants_in_a_kernel(void **state)
{
    (void)state;
    float out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), out, &v));
    amp_kernel_source src = {__FILE__, __LINE__, "idx", constants_body, sizeof constants_body - 1,
                             0};
    assert_amp_ok(amp_parallel_for_each(NULL, amp_extent_1d(1), &src, AMP_CAPTURE(v)));
    assert_amp_ok(amp_array_view_synchronize(v));
    float want[8] = {(float)M_PI,  (float)M_E,      (float)M_SQRT2,   (float)M_LN2,
                     (float)M_PI_2, (float)M_1_PI, (float)M_SQRT1_2, (float)M_LOG2E};
    for (int k = 0; k < 8; k++)
        if (out[k] != want[k])
            fail_msg("constant %d is %.9g in the kernel, %.9g on the host", k, (double)out[k],
                     (double)want[k]);
    assert_amp_ok(amp_array_view_release(v));
}

/* -std=c11 (this file's) hides M_PI in <math.h>; amp/math.h gives it. */
static void math_9_constants_on_the_host_in_strict_c(void **state)
{
    (void)state;
    assert_true(fabs(M_PI - 4.0 * atan(1.0)) < 1e-15);
    assert_true(fabs(M_E - exp(1.0)) < 1e-15);
    assert_true(fabs(M_SQRT2 * M_SQRT1_2 - 1.0) < 1e-15);
    assert_true(fabs(M_LN10 - log(10.0)) < 1e-15);
    assert_true(fabs(M_LOG10E * M_LN10 - 1.0) < 1e-15);
    assert_true(fabs(M_2_SQRTPI - 2.0 / sqrt(M_PI)) < 1e-15);
    assert_true(fabs(M_PI_4 * 4.0 - M_PI) < 1e-15 && fabs(M_2_PI * M_PI - 2.0) < 1e-15);
}

/* Written in a macro's body, M_PI reaches the kernel as the host's digits:
 * the same value. */
static void math_9_constants_expanded_by_the_host_in_a_kernel(void **state)
{
    (void)state;
    float out[2] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(2), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v), {
        v(0) = (float)(M_PI * 2.0);
        v(1) = fast_math_cos((float)M_PI);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_true(out[0] == (float)(M_PI * 2.0));
    assert_true(fabsf(out[1] + 1.0f) < 1e-5f);
    assert_amp_ok(amp_array_view_release(v));
}

AMP_SHARED_FUNCTION(float, wave, (float x), {
    return fast_math_sinf(x * (float)M_PI) * fast_math_expf(-x) + fast_math_sqrtf(x);
});

/* 9.1 fast_math's functions, in one text for the host and kernels: the
 * results agree within fast_math's precision. */
static void math_9_1_fast_math_in_restrict_cpu_amp_code(void **state)
{
    (void)state;
    enum { N = 64 };
    float out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v, AMP_SHARED(wave)),
                                        { v[idx] = wave(idx[0] / 16.0f); }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++) {
        float host = wave(i / 16.0f);
        if (fabsf(out[i] - host) > 1e-3f * (1.0f + fabsf(host)))
            fail_msg("wave(%d/16): %g in the kernel, %g on the host", i, (double)out[i],
                     (double)host);
    }
    assert_amp_ok(amp_array_view_release(v));
}

AMP_SHARED_FUNCTION(double, bell, (double x), {
    return precise_math_exp(-x * x / 2.0) / precise_math_sqrt(2.0 * M_PI) + precise_math_erf(x);
});

/* 9.2 precise_math's functions in double: the same to a few ulps. */
static void math_9_2_precise_math_in_restrict_cpu_amp_code(void **state)
{
    (void)state;
    if (!device_has_double())
        skip();
    enum { N = 32 };
    double out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_DOUBLE, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v, AMP_SHARED(bell)),
                                        { v[idx] = bell(idx[0] / 8.0 - 2.0); }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++) {
        double host = bell(i / 8.0 - 2.0);
        if (fabs(out[i] - host) > 1e-13)
            fail_msg("bell: %.17g in the kernel, %.17g on the host", out[i], host);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* float(M_E) is C++'s function-style cast: refused before it is built, at
 * its line, with the C spelling. */
static void math_9_a_function_style_cast_names_the_c_spelling(void **state)
{
    (void)state;
    float out[1];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(1), out, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v),
                                           { v(0) = float(M_E) * 2.0f; }),
                     AMP_ERROR_KERNEL_BUILD,
                     "C has no function-style casts: write (float)(x), as in (float)(M_E)");
    assert_non_null(strstr(amp_last_error(), "conf_math.c:"));
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(math_9_constants_in_a_kernel),
        cmocka_unit_test(math_9_constants_on_the_host_in_strict_c),
        cmocka_unit_test(math_9_constants_expanded_by_the_host_in_a_kernel),
        cmocka_unit_test(math_9_1_fast_math_in_restrict_cpu_amp_code),
        cmocka_unit_test(math_9_2_precise_math_in_restrict_cpu_amp_code),
        cmocka_unit_test(math_9_a_function_style_cast_names_the_c_spelling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
