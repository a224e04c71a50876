/*
 * tests/conformance/conf_short_vector.c - C++ AMP 1.2, section 10.8, the
 * short vector types of concurrency::graphics (int_2 ... double_4), in
 * restrict(amp) code.
 *
 * Each test, and the section it comes from:
 *
 * short_vector_10_8_default_constructor_is_zero
 *     10.8 int_N(), uint_N(), float_N(), double_N(): "initializes all
 *     elements with 0", for N = 2, 3, 4, a value and an array of them
 * short_vector_10_8_default_constructor_in_a_function
 *     10.8 the same in a restrict(amp) function (chapter 2)
 * short_vector_10_8_default_constructor_as_an_expression
 *     10.8 float_3() and int_4() as values
 * short_vector_10_8_default_constructor_through_types
 *     10.8 a typedef of a short vector, a struct with short-vector
 *     members, a type named by AMP_DEFINE, a for loop's declaration,
 *     OpenCL's own spelling (float4)
 *
 * Written from the specification's text: each test checks every element a
 * kernel writes, against the value the section gives. Private memory is
 * reused across a kernel's loop, and across the calls of a function, so a
 * value that is not zeroed shows what an earlier round left there.
 */
#include "conf_util.h"

enum { THREADS = 64, ROUNDS = 8 };

/* "int_2() restrict(amp,cpu): Default constructor, initializes all
 * elements with 0", and the same for every short vector type and length.
 * Each round reads the values before it writes them. */
static void short_vector_10_8_default_constructor_is_zero(void **state)
{
    (void)state;
    enum { VALUES = 12 };
    static int out[THREADS * ROUNDS * VALUES];
    memset(out, 0x55, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(THREADS * ROUNDS * VALUES), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx,
                                        AMP_CAPTURE(v, AMP_CONST(ROUNDS), AMP_CONST(VALUES)), {
        for (int k = 0; k < ROUNDS; k++) {
            int_2 i2;
            int_3 i3;
            int_4 i4;
            uint_2 u2;
            uint_3 u3;
            uint_4 u4;
            float_2 f2;
            float_3 f3;
            float_4 f4;
            double_2 d2;
            double_3 d3, darr[3];
            float_4 farr[4];
            int at = (idx * ROUNDS + k) * VALUES;
            v[at + 0] = i2.x | i2.y;
            v[at + 1] = i3.x | i3.y | i3.z;
            v[at + 2] = i4.x | i4.y | i4.z | i4.w;
            v[at + 3] = (int)(u2.x | u2.y);
            v[at + 4] = (int)(u3.x | u3.y | u3.z);
            v[at + 5] = (int)(u4.x | u4.y | u4.z | u4.w);
            v[at + 6] = f2.x != 0.0f || f2.y != 0.0f;
            v[at + 7] = f3.x != 0.0f || f3.y != 0.0f || f3.z != 0.0f;
            v[at + 8] = f4.x != 0.0f || f4.y != 0.0f || f4.z != 0.0f || f4.w != 0.0f;
            v[at + 9] = d2.x != 0.0 || d2.y != 0.0 || d3.x != 0.0 || d3.y != 0.0 || d3.z != 0.0;
            v[at + 10] = darr[k % 3].x != 0.0 || darr[k % 3].z != 0.0;
            v[at + 11] = farr[k % 4].x != 0.0f || farr[k % 4].w != 0.0f;
            /* What the next round would see if its values were not made anew. */
            i2 += idx + k + 1;
            i3 += idx + k + 1;
            i4 += idx + k + 1;
            u2 += (uint)(idx + k + 1);
            u3 += (uint)(idx + k + 1);
            u4 += (uint)(idx + k + 1);
            f2 += 1.5f;
            f3 += 1.5f;
            f4 += 1.5f;
            d2 += 2.5;
            d3 += 2.5;
            darr[k % 3] += 3.5;
            farr[k % 4] += 4.5f;
            v[at + 0] |= (i2.x + i3.y + i4.z + (int)(u2.x + u3.y + u4.w)) == -1;
            v[at + 6] |= (f2.x + f3.y + f4.z + d2.x + d3.z + darr[k % 3].y + farr[k % 4].x) < 0;
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    static const char *const names[VALUES] = {"int_2",   "int_3",    "int_4",    "uint_2",
                                              "uint_3",  "uint_4",   "float_2",  "float_3",
                                              "float_4", "double_N", "double_3[3]", "float_4[4]"};
    for (int k = 0; k < THREADS * ROUNDS * VALUES; k++)
        if (out[k] != 0)
            fail_msg("thread %d, round %d: a default-constructed %s is not all zeros (%d)",
                     k / (ROUNDS * VALUES), k / VALUES % ROUNDS, names[k % VALUES], out[k]);
    assert_amp_ok(amp_array_view_release(v));
}

/* The function of a ported program: it adds 1 to a default-constructed
 * float_3's first element ten times. */
AMP_FUNCTION(float, ten, (float seed), {
    float_3 partialSum;
    for (int k = 0; k < 10; k++)
        partialSum.x += 1.0f;
    return partialSum.x + seed * 0.0f;
});

/* A function that leaves its private memory dirty for the next call. */
AMP_FUNCTION(float, scribble, (float seed), {
    float_4 dirty = float_4(seed, seed + 1.0f, seed + 2.0f, seed + 3.0f);
    float_4 more[2];
    more[0] = dirty * 3.0f;
    more[1] = dirty * 5.0f;
    return dirty.w + more[0].y + more[1].z;
});

/* 10.8 in a restrict(amp) function: the default constructor runs at each
 * call. */
static void short_vector_10_8_default_constructor_in_a_function(void **state)
{
    (void)state;
    enum { N = 4096 };
    static float out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx,
                                        AMP_CAPTURE(v, ten, scribble), {
        float noise = scribble((float)idx);
        v[idx] = ten(noise);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < N; k++)
        if (out[k] != 10.0f)
            fail_msg("call %d returned %g, not 10: its float_3 did not start at zero", k,
                     (double)out[k]);
    assert_amp_ok(amp_array_view_release(v));
}

/* 10.8 float_3() and int_4(): a value of zeros where an expression is due. */
static void short_vector_10_8_default_constructor_as_an_expression(void **state)
{
    (void)state;
    static float out[THREADS * 3];
    memset(out, 0x55, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(THREADS * 3), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        float_3 a = float_3(1.0f, 2.0f, 3.0f);
        a = float_3();
        int_4 b = int_4() + idx;
        v[idx * 3] = a.x + a.y + a.z;
        v[idx * 3 + 1] = (float)(b.x + b.y + b.z + b.w - 4 * idx);
        v[idx * 3 + 2] = (float_2() + 1.0f).y;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < THREADS; k++) {
        if (out[k * 3] != 0.0f || out[k * 3 + 1] != 0.0f || out[k * 3 + 2] != 1.0f)
            fail_msg("thread %d: float_3() gives %g, int_4() %g, float_2() + 1 %g", k,
                     (double)out[k * 3], (double)out[k * 3 + 1], (double)out[k * 3 + 2]);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* 10.8 through the ways C code names a type: a typedef, a struct whose
 * members are short vectors (C++ AMP constructs each member), a name made
 * by AMP_DEFINE, a for loop's own declaration, and OpenCL's spelling. */
static void short_vector_10_8_default_constructor_through_types(void **state)
{
    (void)state;
    enum { VALUES = 6 };
    static int out[THREADS * ROUNDS * VALUES];
    memset(out, 0x55, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(THREADS * ROUNDS * VALUES), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx,
                                        AMP_CAPTURE(v, AMP_CONST(ROUNDS), AMP_CONST(VALUES)), {
        AMP_DEFINE(VEC float_3)
        typedef float_2 pair;
        struct particle {
            float_3 position;
            float_3 velocity;
        };
        for (int k = 0; k < ROUNDS; k++) {
            int at = (idx * ROUNDS + k) * VALUES;
            pair p;
            struct particle body;
            VEC w;
            float4 native;
            v[at] = p.x != 0.0f || p.y != 0.0f;
            v[at + 1] = body.position.x != 0.0f || body.velocity.z != 0.0f;
            v[at + 2] = w.x != 0.0f || w.z != 0.0f;
            v[at + 3] = native.x != 0.0f || native.w != 0.0f;
            v[at + 4] = 0;
            for (uint_2 c; c.x < 2; c.x++)
                v[at + 4] |= (int)c.y;
            v[at + 5] = 0;
            p += 1.0f;
            body.position += 2.0f;
            body.velocity += 3.0f;
            w += 4.0f;
            native += 5.0f;
            v[at + 5] = (p.x + body.position.y + body.velocity.z + w.x + native.w) < 0;
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    static const char *const names[VALUES] = {"typedef float_2",  "struct of float_3",
                                              "AMP_DEFINE'd float_3", "float4",
                                              "for's uint_2",     "(none)"};
    for (int k = 0; k < THREADS * ROUNDS * VALUES; k++)
        if (out[k] != 0)
            fail_msg("thread %d, round %d: a default-constructed %s is not all zeros (%d)",
                     k / (ROUNDS * VALUES), k / VALUES % ROUNDS, names[k % VALUES], out[k]);
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_vector_10_8_default_constructor_is_zero),
        cmocka_unit_test(short_vector_10_8_default_constructor_in_a_function),
        cmocka_unit_test(short_vector_10_8_default_constructor_as_an_expression),
        cmocka_unit_test(short_vector_10_8_default_constructor_through_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
