/*
 * tests/conformance/conf_short_vector.c - C++ AMP 1.2, section 10.8, the
 * short vector types of concurrency::graphics (int_2 ... double_4), in
 * restrict(amp) code and on the host (amp/short_vector.h): their layout,
 * constructors, operators and component access, and as elements of views
 * and arrays, captures, struct members and tile_static variables.
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
 * short_vector_10_8_1_sizes_as_cxx_amp_lays_them_out
 *     10.8.1 class T_N: N values of T (a float_3 is 12 bytes), on the host
 *     and as a view's element
 * short_vector_10_8_1_arithmetic_operators
 *     10.8.1 + - * / of vectors and with scalars, unary -
 * short_vector_10_8_1_integer_operators
 *     10.8.1 % & | ^ << >> ~ of integer vectors
 * short_vector_10_8_1_compound_assignments_and_steps
 *     10.8.1 += -= *= /= %= <<= |= ^= >>= &=, ++ and --
 * short_vector_10_8_1_equality_compares_all_components
 *     10.8.1 operator==, operator!=: a bool for the whole vector
 * short_vector_10_8_2_constructors_from_components_and_a_scalar
 *     10.8.2 T_N(v1, ..., vN), T_N(value), T_N(const T_N&), direct
 *     initialization float_3 v(x, y, z)
 * short_vector_10_8_2_2_explicit_conversions
 *     10.8.2.2 explicit T_N(const U_N&): each component as C converts it
 * short_vector_10_8_3_single_components
 *     10.8.3 x, y, z, w and r, g, b, a, read and written
 * short_vector_10_8_3_multi_component_swizzles
 *     10.8.3 two, three and four components (xy, bgr, wzyx, argb), read and
 *     written
 * short_vector_10_8_3_get_set_and_ref
 *     10.8.3 get_xy(), set_xy(v), ref_x() (Microsoft's reference)
 * short_vector_10_8_3_a_struct_member_named_r_is_not_a_component
 *     10.8.3 r, g, b, a of a struct the kernel knows stay its members
 * short_vector_10_8_3_components_of_a_value_the_reader_does_not_follow
 *     10.8.3 .rgba of a built-in's vector (vload4): OpenCL 1.2's letters
 * short_vector_10_8_3_multi_component_writes_of_an_element_of_3_are_refused
 *     10.8.3 set_xy() and .xy = of a float_3 a view holds: refused, with what
 *     to write; one component written and stepped
 * short_vector_10_8_as_array_view_elements_of_2_and_4
 *     10.8 and 5.2: array_view<float_2, 1>, array_view<int_4, 2>
 * short_vector_10_8_as_array_view_elements_of_3
 *     10.8 and 5.2: array_view<float_3, 1>, 12-byte elements
 * short_vector_10_8_elements_of_3_are_their_own_bytes
 *     10.8 and 5.2: writing one float_3 leaves its neighbours' bytes
 * short_vector_10_8_a_view_of_floats_reinterpreted_as_float_3
 *     10.8 and 5.2.5 reinterpret_as<float_3>() of floats
 * short_vector_10_8_as_array_elements
 *     10.8 and 5.1: array<uint_3, 1>, array<float_4, 2>
 * short_vector_10_8_as_elements_of_double_3
 *     10.8 and 5.2: array_view<double_3, 1> (double precision)
 * short_vector_10_8_sections_and_projections_of_views_of_vectors
 *     10.8 and 5.2.5: section(), operator[] of views of float_3
 * short_vector_10_8_views_of_vectors_given_to_a_function
 *     10.8 and chapter 2: array_view<const float_3, 1> parameter, float_3
 *     result
 * short_vector_10_8_a_view_of_vectors_only_read_is_not_copied_back
 *     10.8 and 5.2: a view of float_4 the kernel only reads
 * short_vector_10_8_a_scalar_assigned_to_an_element_of_3
 *     10.8.2 T_N(value) where an element is assigned: v[i] = 2.0f
 * short_vector_10_8_in_a_padded_domain
 *     10.8 and 4.3.3 pad(): views of float_3 with threads past the extent
 * short_vector_10_8_captured_by_value
 *     10.8 and 7.1: a float_4 and an int_3 captured by [=]
 * short_vector_10_8_as_struct_members
 *     10.8: a struct of float_3, float and int_2 members as a view's element
 * short_vector_10_8_struct_members_laid_out_as_opencl_lays_them
 *     10.8: a member placed where OpenCL would not place it is refused
 * short_vector_10_8_struct_with_arrays_captured_by_value
 *     10.8 and 7.1: a struct with an array and a float_4 captured by value
 * short_vector_10_8_in_tile_static_memory
 *     10.8 and chapter 2: tile_static float_3 cache[T]
 * short_vector_10_8_restrict_cpu_amp_code_runs_on_both_sides
 *     10.8 "can be used in both restrict(amp) and restrict(cpu) functions"
 * short_vector_10_8_host_names_in_a_kernel
 *     10.8: amp_float_3 and its functions, as the host names them, in a kernel
 * short_vector_10_8_1_operators_on_the_host
 *     10.8.1 the operators on the host, as functions
 * short_vector_10_8_2_2_conversions_on_the_host
 *     10.8.2.2 the explicit conversions on the host
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

/* ---- 10.8.1 Synopsis: the types and their operators ---- */

/* "class float_3 { float x, y, z; ... }": N values of the scalar, no more,
 * on the host; in a kernel, a view's float_3 element is as large. */
static void short_vector_10_8_1_sizes_as_cxx_amp_lays_them_out(void **state)
{
    (void)state;
    assert_int_equal(sizeof(int_2), 8);
    assert_int_equal(sizeof(uint_3), 12);
    assert_int_equal(sizeof(float_3), 12);
    assert_int_equal(sizeof(float_4), 16);
    assert_int_equal(sizeof(double_3), 24);
    assert_int_equal(sizeof(double_4), 32);
    assert_int_equal(amp_elem_type_size(AMP_FLOAT_3), 12);
    assert_int_equal(amp_elem_type_size(AMP_INT_2), 8);
    assert_int_equal(amp_elem_type_size(AMP_DOUBLE_4), 32);
    assert_string_equal(amp_elem_type_name(AMP_UINT_3), "uint_3");
    float_3 data[4];
    int sizes[3] = {0};
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(4), data, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3), sizes, &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v, s), {
        s[0] = (int)sizeof(v[0]);
        s[1] = (int)(3 * sizeof(float));
        s[2] = (int)((__global char *)&v[1] - (__global char *)&v[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(s));
    /* The element is 12 bytes as C++ AMP's. A value is OpenCL's float3, of
     * 16: its sizeof, which C++ AMP makes 12, is refused. */
    int want[3] = {12, 12, 12};
    assert_ints(sizes, want, 3);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(s),
                                           { s[1] = (int)sizeof(float_3); }),
                     AMP_ERROR_KERNEL_BUILD, "write 3 * sizeof(float)");
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(s));
}

/* "Binary operators +, -, *, / between two vectors, component by
 * component", and with a scalar, which converts to the vector (the
 * constructor float_3(float) is not explicit). */
static void short_vector_10_8_1_arithmetic_operators(void **state)
{
    (void)state;
    static float out[THREADS * 12];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(THREADS, 12), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        float_3 a = float_3(1.0f + i, 2.0f, 4.0f), b = float_3(2.0f, 4.0f, 8.0f);
        float_3 sum = a + b, diff = a - b, prod = a * b, quot = a / b;
        float_3 scaled = a * 2.0f, shifted = 1.0f + a;
        v(i, 0) = sum.x; v(i, 1) = sum.z;
        v(i, 2) = diff.x; v(i, 3) = diff.y;
        v(i, 4) = prod.x; v(i, 5) = prod.z;
        v(i, 6) = quot.x; v(i, 7) = quot.y;
        v(i, 8) = scaled.x; v(i, 9) = shifted.z;
        v(i, 10) = (-a).y;
        v(i, 11) = (a * b + a / b - b).z;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        float a = 1.0f + i;
        float want[12] = {a + 2, 12, a - 2, -2, 2 * a, 32, a / 2, 0.5f, 2 * a, 5, -2, 32 + 0.5f - 8};
        for (int k = 0; k < 12; k++)
            if (out[i * 12 + k] != want[k])
                fail_msg("thread %d, value %d: %g, not %g", i, k, (double)out[i * 12 + k],
                         (double)want[k]);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* "Integer types also: %, ^, |, &, <<, >>", and ~. */
static void short_vector_10_8_1_integer_operators(void **state)
{
    (void)state;
    static int out[THREADS * 8];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        int_2 a = int_2(i + 7, 12), b = int_2(3, 5);
        uint_4 u = uint_4(1u, 2u, 3u, (uint)i);
        v(i, 0) = (a % b).x;
        v(i, 1) = (a & b).y;
        v(i, 2) = (a | b).y;
        v(i, 3) = (a ^ b).y;
        v(i, 4) = (a << b).x;
        v(i, 5) = (a >> int_2(1)).y;
        v(i, 6) = (~a).y;
        v(i, 7) = (int)(u << 2u).w;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[8] = {(i + 7) % 3, 12 & 5, 12 | 5, 12 ^ 5, (i + 7) << 3, 6, ~12, i * 4};
        assert_ints(out + i * 8, want, 8);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* "Compound assignment +=, -=, *=, /= (all types), %=, ^=, |=, &=, <<=,
 * >>= (integer types)", and ++, -- of integer vectors. */
static void short_vector_10_8_1_compound_assignments_and_steps(void **state)
{
    (void)state;
    static int out[THREADS * 6];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        float_4 f = float_4((float)i);
        f += 2.0f;
        f *= float_4(1.0f, 2.0f, 3.0f, 4.0f);
        f -= 1.0f;
        f /= 2.0f;
        int_3 n = int_3(i, 10, 100);
        n %= 7;
        n <<= 1;
        n |= 1;
        n++;
        --n;
        ++n;
        v(i, 0) = (int)(f.x * 2);
        v(i, 1) = (int)(f.w * 2);
        v(i, 2) = n.x;
        v(i, 3) = n.y;
        v(i, 4) = n.z;
        uint_2 u = uint_2(5u, 6u);
        u ^= uint_2(1u);
        u >>= 1u;
        u &= 3u;
        v(i, 5) = (int)(u.x * 10 + u.y);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[6] = {(i + 2) * 1 - 1, (i + 2) * 4 - 1, ((i % 7) << 1 | 1) + 1, ((10 % 7) << 1 | 1) + 1,
                       ((100 % 7) << 1 | 1) + 1, ((5 ^ 1) >> 1 & 3) * 10 + ((6 ^ 1) >> 1 & 3)};
        assert_ints(out + i * 6, want, 6);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* ++ and -- of vectors of floats and doubles, which C++ AMP has and
 * OpenCL C has not: ++v and --v anywhere (the new value), v++ and v-- where
 * nothing uses their value (a statement, a for's step, a view's element);
 * where something does, refused with what to write. */
static void short_vector_10_8_1_steps_of_float_and_double_vectors(void **state)
{
    (void)state;
    float out[8] = {0};
    amp_float_4 elements[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    amp_array_view *v, *e;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_4, amp_extent_1d(2), elements, &e));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v, e), {
        float_3 p = float_3(0.0f, 1.0f, 2.0f);
        ++p;
        p++;
        double_2 d = double_2(1.5, 2.5);
        d--;
        float_2 q = float_2(0.25f);
        float_2 r = --q + float_2(1.0f); /* the new value: -0.75 + 1 */
        for (float_2 s = float_2(0.0f); s.x < 3.0f; s++)
            q += s;                      /* -0.75 + 0 + 1 + 2 */
        float_2 t = float_2(0.0f);
        for (int i = 0; i < 3; i++, t++)
            ;
        idx[0] == 0 ? t++ : t--;         /* 4 */
        for (int i = 0; i < 2; i++)
            e[i]++;
        --e[1];
        v[0] = p.x;
        v[1] = p.z;
        v[2] = (float)d.x;
        v[3] = (float)d.y;
        v[4] = r.x;
        v[5] = q.y;
        v[6] = t.x;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_amp_ok(amp_array_view_synchronize(e));
    const float want[7] = {2.0f, 4.0f, 0.5f, 1.5f, 0.25f, 2.25f, 4.0f};
    for (int k = 0; k < 7; k++)
        assert_true(out[k] == want[k]);
    assert_true(elements[0].x == 2.0f && elements[0].w == 5.0f);
    assert_true(elements[1].x == 5.0f && elements[1].w == 8.0f);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v), {
        float_2 a = float_2(1.0f);
        float_2 b = a++;
        v[0] = b.x;
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "++ after a vector of floats whose value is used: OpenCL C has no ++ or --"
                     " of such vectors");
    assert_amp_ok(amp_array_view_release(e));
    assert_amp_ok(amp_array_view_release(v));
}

/* "== and !=": a bool, all components equal or not; OpenCL's compare
 * each lane, and the kernel asks all() and any(). */
static void short_vector_10_8_1_equality_compares_all_components(void **state)
{
    (void)state;
    static int out[THREADS * 4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        float_3 a = float_3(1.0f, 2.0f, (float)i), b = float_3(1.0f, 2.0f, 0.0f);
        int_2 p = int_2(i, 1), q = int_2(i, 2);
        v(i, 0) = a == b;
        v(i, 1) = a != b;
        if (p != q)
            v(i, 2) = 1;
        else
            v(i, 2) = 0;
        v(i, 3) = (p == int_2(i, 1)) + (q == p);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[4] = {i == 0, i != 0, 1, 1};
        assert_ints(out + i * 4, want, 4);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* A kernel is OpenCL C: OpenCL's all(), any() and select() of a
 * comparison of short vectors take its lanes (all(all(a == b)) of C++
 * AMP's one answer would be the sign bit of 1: 0). Anywhere else the
 * comparison is C++ AMP's. */
static void short_vector_opencl_all_any_and_select_of_a_comparison_take_its_lanes(void **state)
{
    (void)state;
    static int out[THREADS * 8];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        int_2 a = int_2(1, 2), b = int_2(1, i);
        float_4 f = float_4(1.0f, 2.0f, 3.0f, (float)i), g = float_4(1.0f, 2.0f, 3.0f, 0.0f);
        v(i, 0) = all(a == int_2(1, 2));
        v(i, 1) = any(a == b);
        v(i, 2) = any(a != b);
        v(i, 3) = all((f == g));
        v(i, 4) = any(f != g) + (f == g);
        int_2 m = select(int_2(7, 7), int_2(5, 6), a == b);
        v(i, 5) = m.x * 10 + m.y;
        v(i, 6) = !(a == b);
        v(i, 7) = all(a == b) + 2 * (a == b);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[8] = {1, 1, i != 2, i == 0, (i != 0) + (i == 0), i == 2 ? 56 : 57, i != 2,
                       3 * (i == 2)};
        assert_ints(out + i * 8, want, 8);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* ---- 10.8.2 Constructors ---- */

/* "T_N(T v1, T v2 [, T v3 [, T v4]])" and "T_N(T value): every component
 * value", for each scalar type, and direct initialization, float_3 v(x, y,
 * z), as C++ writes it. */
static void short_vector_10_8_2_constructors_from_components_and_a_scalar(void **state)
{
    (void)state;
    static int out[THREADS * 8];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        int_2 a = int_2(i, 2);
        uint_3 b = uint_3(3u);
        float_4 c = float_4(1.5f, 2.5f, 3.5f, (float)i);
        double_2 d = double_2(0.25);
        float_3 e(1.0f, 2.0f, 3.0f);
        int_4 f(7);
        float_3 g(e);
        v(i, 0) = a.x + a.y;
        v(i, 1) = (int)(b.x + b.y + b.z);
        v(i, 2) = (int)(c.x + c.y + c.z + c.w);
        v(i, 3) = (int)(d.x * 8 + d.y * 4);
        v(i, 4) = (int)(e.x * 100 + e.y * 10 + e.z);
        v(i, 5) = f.x + f.w;
        v(i, 6) = (int)(g.z - e.z);
        v(i, 7) = (int)float_2(4.0f).y;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[8] = {i + 2, 9, (int)(7.5f + i), 3, 123, 14, 0, 4};
        assert_ints(out + i * 8, want, 8);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* 10.8.2.2 "explicit T_N(const U_N& other): each component converted":
 * float to int truncates toward zero, as C does. */
static void short_vector_10_8_2_2_explicit_conversions(void **state)
{
    (void)state;
    static int out[THREADS * 6];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        float_3 f = float_3(1.9f, -2.9f, (float)i + 0.5f);
        int_3 n = int_3(f);
        float_2 back = float_2(int_2(i, -i));
        uint_4 u = uint_4(int_4(1, 2, 3, i));
        v(i, 0) = n.x;
        v(i, 1) = n.y;
        v(i, 2) = n.z;
        v(i, 3) = (int)(back.x - back.y);
        v(i, 4) = (int)(u.x + u.w);
        v(i, 5) = (int)float_3(int_3(2)).y;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[6] = {1, -2, i, 2 * i, 1 + i, 2};
        assert_ints(out + i * 6, want, 6);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* ---- 10.8.3 Component access (swizzling) ---- */

/* "x, y, z, w" and "r, g, b, a" name the same components, read and
 * written; OpenCL C 1.2 has only the first, and the kernel spells them so. */
static void short_vector_10_8_3_single_components(void **state)
{
    (void)state;
    static int out[THREADS * 8];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        int_4 c = int_4(1, 2, 3, 4);
        c.r += 10;
        c.g = c.y * 10;
        c.b = i;
        c.a -= 1;
        v(i, 0) = c.x;
        v(i, 1) = c.y;
        v(i, 2) = c.z;
        v(i, 3) = c.w;
        v(i, 4) = c.r + c.g + c.b + c.a;
        float_2 f = float_2(5.0f, 6.0f);
        v(i, 5) = (int)(f.r * f.g);
        uint_3 u = uint_3(7u, 8u, 9u);
        v(i, 6) = (int)(u.b - u.r);
        v(i, 7) = (int)(int_2(3, 4).g);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[8] = {11, 20, i, 3, 11 + 20 + i + 3, 30, 2, 4};
        assert_ints(out + i * 8, want, 8);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* Two, three and four components, in any order without repeats: read as
 * vectors and written as parts, in either alphabet. */
static void short_vector_10_8_3_multi_component_swizzles(void **state)
{
    (void)state;
    static int out[THREADS * 8];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(THREADS, 8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        int_4 c = int_4(1, 2, 3, 4);
        int_2 yx = c.yx;
        int_3 bgr = c.bgr;
        int_4 wzyx = c.wzyx;
        int_4 argb = c.argb;
        c.xy = int_2(i, 20);
        c.ba = c.gr;
        v(i, 0) = yx.x * 10 + yx.y;
        v(i, 1) = bgr.x * 100 + bgr.y * 10 + bgr.z;
        v(i, 2) = wzyx.x * 1000 + wzyx.y * 100 + wzyx.z * 10 + wzyx.w;
        v(i, 3) = argb.x * 1000 + argb.y * 100 + argb.z * 10 + argb.w;
        v(i, 4) = c.x;
        v(i, 5) = c.y;
        v(i, 6) = c.z;
        v(i, 7) = c.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        int want[8] = {21, 321, 4321, 4123, i, 20, 20, i};
        assert_ints(out + i * 8, want, 8);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* The members of Microsoft's reference: get_xy(), set_xy(v), ref_x(). */
static void short_vector_10_8_3_get_set_and_ref(void **state)
{
    (void)state;
    static float out[THREADS * 6];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(THREADS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v), {
        int i = idx[0];
        float_4 f = float_4(1.0f, 2.0f, 3.0f, 4.0f);
        float_2 zw = f.get_zw();
        f.set_x((float)i);
        f.set_yz(float_2(7.0f, 8.0f));
        f.ref_w() = 9.0f;
        f.ref_b() += 1.0f;
        v(i, 0) = zw.x + zw.y;
        v(i, 1) = f.get_x();
        v(i, 2) = f.get_y();
        v(i, 3) = f.get_z();
        v(i, 4) = f.get_w();
        v(i, 5) = f.get_wzyx().x;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++) {
        float want[6] = {7.0f, (float)i, 7.0f, 9.0f, 9.0f, 9.0f};
        for (int k = 0; k < 6; k++)
            assert_true(out[i * 6 + k] == want[k]);
    }
    assert_amp_ok(amp_array_view_release(v));
}

AMP_STRUCT(rgba_pixel, (float, r), (float, g), (float, b), (float, a));

/* A struct the kernel knows with members r, g, b, a keeps them: only a
 * vector's components are spelled x, y, z, w. */
static void short_vector_10_8_3_a_struct_member_named_r_is_not_a_component(void **state)
{
    (void)state;
    amp_elem_type pixel_type;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(rgba_pixel), &pixel_type));
    rgba_pixel px[4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
    float out[4] = {0};
    amp_array_view *p, *o;
    assert_amp_ok(amp_array_view_create(pixel_type, amp_extent_1d(4), px, &p));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(p, o), {
        rgba_pixel q = p(idx);
        float_4 f = float_4(q.r, q.g, q.b, q.a);
        o(idx) = f.a - f.r + p(idx).g * 0.0f + q.b - f.b;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < 4; i++)
        assert_true(out[i] == 3.0f);
    assert_amp_ok(amp_array_view_release(p));
    assert_amp_ok(amp_array_view_release(o));
}

/* ---- Short vectors as elements, captures and members ---- */

/* array_view<float_2, 1>, array_view<int_4, 2>: elements of 2 and 4
 * values, read and written whole and by component. */
static void short_vector_10_8_as_array_view_elements_of_2_and_4(void **state)
{
    (void)state;
    enum { R = 4, C = 8 };
    static float_2 pairs[R * C];
    static int_4 quads[R * C];
    for (int k = 0; k < R * C; k++) {
        pairs[k] = amp_float_2_make((float)k, 0.5f);
        quads[k] = amp_int_4_make(k, 1, 2, 3);
    }
    amp_array_view *p, *q;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_2, amp_extent_1d(R * C), pairs, &p));
    assert_amp_ok(amp_array_view_create(AMP_INT_4, amp_extent_2d(R, C), quads, &q));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(p, q, AMP_CONST(C)), {
        int k = idx[0] * C + idx[1];
        p[k] = p[k] * 2.0f + float_2(0.0f, 1.0f);
        q[idx].yz = q[idx].zy;
        q(idx).w += q(idx).x;
    }));
    assert_amp_ok(amp_array_view_synchronize(p));
    assert_amp_ok(amp_array_view_synchronize(q));
    for (int k = 0; k < R * C; k++) {
        assert_true(pairs[k].x == 2.0f * k && pairs[k].y == 2.0f);
        int want[4] = {k, 2, 1, 3 + k};
        int got[4] = {quads[k].x, quads[k].y, quads[k].z, quads[k].w};
        assert_ints(got, want, 4);
    }
    assert_amp_ok(amp_array_view_release(p));
    assert_amp_ok(amp_array_view_release(q));
}

/* array_view<float_3, 1>: 12-byte elements, as the host's array of float_3
 * is; read whole, written whole, updated (+= once per element), and by
 * component. */
static void short_vector_10_8_as_array_view_elements_of_3(void **state)
{
    (void)state;
    enum { N = 64 };
    static float_3 pos[N], vel[N];
    for (int k = 0; k < N; k++) {
        pos[k] = amp_float_3_make((float)k, 2.0f * k, 3.0f * k);
        vel[k] = amp_float_3_make(1.0f, -1.0f, 0.5f);
    }
    amp_array_view *p, *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(N), pos, &p));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(N), vel, &v));
    float dt = 2.0f;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(p, v, dt), {
        p[idx] += v[idx] * dt;
        v(idx) = float_3(0.0f, 0.0f, p(idx).z);
        v(idx).y = p[idx].x + p(idx).g;
        p(idx) *= 2.0f;
    }));
    assert_amp_ok(amp_array_view_synchronize(p));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < N; k++) {
        float x = k + 2.0f, y = 2.0f * k - 2.0f, z = 3.0f * k + 1.0f;
        assert_true(pos[k].x == 2 * x && pos[k].y == 2 * y && pos[k].z == 2 * z);
        assert_true(vel[k].x == 0.0f && vel[k].y == x + y && vel[k].z == z);
    }
    assert_amp_ok(amp_array_view_release(p));
    assert_amp_ok(amp_array_view_release(v));
}

/* A kernel that writes every other float_3 leaves the others' bytes as
 * they were: each element is exactly its 12 bytes. */
static void short_vector_10_8_elements_of_3_are_their_own_bytes(void **state)
{
    (void)state;
    enum { N = 33 };
    static float_3 data[N];
    for (int k = 0; k < N; k++)
        data[k] = amp_float_3_splat(-1.0f - k);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v), {
        if (idx[0] % 2 == 0)
            v[idx] = float_3((float)idx[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < N; k++) {
        float want = k % 2 == 0 ? (float)k : -1.0f - k;
        assert_true(data[k].x == want && data[k].y == want && data[k].z == want);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* 5.2 reinterpret_as: floats seen as float_3, as C++ AMP lays them out (3
 * floats each, no padding), and back. */
static void short_vector_10_8_a_view_of_floats_reinterpreted_as_float_3(void **state)
{
    (void)state;
    enum { N = 12 };
    float data[N * 3];
    for (int k = 0; k < N * 3; k++)
        data[k] = (float)k;
    amp_array_view *f, *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N * 3), data, &f));
    assert_amp_ok(amp_array_view_reinterpret_as(f, AMP_FLOAT_3, &v));
    assert_int_equal(amp_array_view_get_extent(v).dims[0], N);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v), {
        v[idx] = v[idx].zyx;
    }));
    assert_amp_ok(amp_array_view_synchronize(f));
    for (int k = 0; k < N; k++) {
        assert_true(data[3 * k] == 3.0f * k + 2 && data[3 * k + 1] == 3.0f * k + 1);
        assert_true(data[3 * k + 2] == 3.0f * k);
    }
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(f));
}

/* 5.1 array<uint_3, 1> and array<float_4, 2>: made from the host, written
 * by a kernel, copied back. */
static void short_vector_10_8_as_array_elements(void **state)
{
    (void)state;
    enum { N = 16 };
    static uint_3 u[N];
    static float_4 f[N];
    for (int k = 0; k < N; k++) {
        u[k] = amp_uint_3_make((unsigned)k, 1u, 2u);
        f[k] = amp_float_4_splat((float)k);
    }
    amp_array *ua, *fa;
    assert_amp_ok(amp_array_create_from_host(AMP_UINT_3, amp_extent_1d(N), u, NULL, &ua));
    assert_amp_ok(amp_array_create_from_host(AMP_FLOAT_4, amp_extent_2d(4, N / 4), f, NULL, &fa));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, N / 4), idx, AMP_CAPTURE(ua, fa), {
        int k = idx[0] * 4 + idx[1];
        ua[k] = ua[k] + uint_3(10u);
        fa[idx].w = (float)ua[k].x;
    }));
    assert_amp_ok(AMP_COPY(ua, u));
    assert_amp_ok(AMP_COPY(fa, f));
    for (int k = 0; k < N; k++) {
        assert_true(u[k].x == (unsigned)k + 10 && u[k].y == 11 && u[k].z == 12);
        assert_true(f[k].x == (float)k && f[k].w == (float)(k + 10));
    }
    assert_amp_ok(amp_array_release(ua));
    assert_amp_ok(amp_array_release(fa));
}

/* array_view<double_3, 1>, where the device has double precision. */
static void short_vector_10_8_as_elements_of_double_3(void **state)
{
    (void)state;
    if (!device_has_double())
        skip();
    double_3 d[8];
    for (int k = 0; k < 8; k++)
        d[k] = amp_double_3_make(k, 0.5, 1e-300);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_DOUBLE_3, amp_extent_1d(8), d, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(v), {
        v[idx] += double_3(1.0, 0.25, 0.0);
        v[idx].z *= 2.0;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < 8; k++)
        assert_true(d[k].x == k + 1.0 && d[k].y == 0.75 && d[k].z == 2e-300);
    assert_amp_ok(amp_array_view_release(v));
}

/* A section of a view of float_3, and a projection of a rank-2 one: views
 * as values, each element 12 bytes. */
static void short_vector_10_8_sections_and_projections_of_views_of_vectors(void **state)
{
    (void)state;
    enum { R = 4, C = 6 };
    static float_3 m[R * C];
    for (int k = 0; k < R * C; k++)
        m[k] = amp_float_3_splat((float)k);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_2d(R, C), m, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(R), idx, AMP_CAPTURE(v, AMP_CONST(C)), {
        array_view<float_3, 1> row = v[idx[0]];
        array_view<float_3, 2> corner = v.section(index<2>(1, 1), extent<2>(2, 2));
        row[C - 1] = row[0] + float_3(100.0f);
        if (idx[0] == 0)
            corner(1, 1).y = -1.0f;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            float_3 e = m[r * C + c];
            float want = c == C - 1 ? r * C + 100.0f : (float)(r * C + c);
            assert_true(e.x == want && e.z == want);
            assert_true(e.y == (r == 2 && c == 2 ? -1.0f : want));
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* A function takes array_view<const float_3, 1> and returns a float_3. */
AMP_FUNCTION(float_3, centroid, (array_view<const float_3, 1> points), {
    float_3 sum;
    for (int k = 0; k < points.extent[0]; k++)
        sum += points[k];
    return sum / (float)points.extent[0];
});

static void short_vector_10_8_views_of_vectors_given_to_a_function(void **state)
{
    (void)state;
    enum { N = 8 };
    float_3 pts[N];
    float_3 out[1];
    for (int k = 0; k < N; k++)
        pts[k] = amp_float_3_make((float)k, 2.0f * k, 1.0f);
    amp_array_view *p, *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(N), pts, &p));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(1), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(p, o, centroid),
                                        { o[idx] = centroid(p); }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_true(out[0].x == 3.5f && out[0].y == 7.0f && out[0].z == 1.0f);
    /* p was given to a const parameter: read only, never copied back. */
    amp_transfer_stats t = ledger_of(p);
    assert_int_equal(t.downloads, 0);
    assert_amp_ok(amp_array_view_release(p));
    assert_amp_ok(amp_array_view_release(o));
}

/* 7.1 a float_4 and an int_3 captured by value ([=]): the kernel's copy. */
static void short_vector_10_8_captured_by_value(void **state)
{
    (void)state;
    float out[THREADS * 2];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(THREADS, 2), out, &v));
    float_4 tint = amp_float_4_make(0.5f, 1.5f, 2.5f, 3.5f);
    int_3 steps = amp_int_3_make(1, 10, 100);
    double_2 unused = amp_double_2_splat(0.0);
    (void)unused;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v, tint, steps), {
        v(idx[0], 0) = tint.a + tint.r * idx[0];
        v(idx[0], 1) = (float)(steps.x + steps.y + steps.z);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < THREADS; i++)
        assert_true(out[i * 2] == 3.5f + 0.5f * i && out[i * 2 + 1] == 111.0f);
    /* A new value for the same call: the kernel sees it. */
    tint.w = 10.0f;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx, AMP_CAPTURE(v, tint, steps), {
        v(idx[0], 0) = tint.a + tint.r * idx[0];
        v(idx[0], 1) = (float)(steps.x + steps.y + steps.z);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_true(out[2] == 10.5f);
    assert_amp_ok(amp_array_view_release(v));
}

AMP_STRUCT(particle3, (float_3, position), (float_3, velocity), (float, mass), (int_2, cell));

/* A struct of short vectors as a view's element, as NBody keeps its bodies:
 * members read, written and updated whole and by component. */
static void short_vector_10_8_as_struct_members(void **state)
{
    (void)state;
    enum { N = 16 };
    amp_elem_type type;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(particle3), &type));
    assert_int_equal(sizeof(particle3), 40);
    static particle3 ps[N];
    for (int k = 0; k < N; k++) {
        ps[k].position = amp_float_3_make((float)k, 0.0f, 0.0f);
        ps[k].velocity = amp_float_3_make(1.0f, 2.0f, 3.0f);
        ps[k].mass = 2.0f;
        ps[k].cell = amp_int_2_make(k, -k);
    }
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(type, amp_extent_1d(N), ps, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v), {
        particle3 p = v[idx];
        p.position += p.velocity * p.mass;
        p.velocity.y = -p.velocity.y;
        v[idx] = p;
        v[idx].cell = v[idx].cell.yx + int_2(1);
        v(idx).mass = v(idx).position.x;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < N; k++) {
        assert_true(ps[k].position.x == k + 2.0f && ps[k].position.y == 4.0f &&
                    ps[k].position.z == 6.0f);
        assert_true(ps[k].velocity.y == -2.0f && ps[k].mass == k + 2.0f);
        assert_int_equal(ps[k].cell.x, -k + 1);
        assert_int_equal(ps[k].cell.y, k + 1);
    }
    assert_amp_ok(amp_array_view_release(v));
}

AMP_STRUCT(blur_params, (float, weights, 5), (float_4, tint), (int, radius));

/* 7.1 a struct captured by value, with an array and a short vector among
 * its members. */
static void short_vector_10_8_struct_with_arrays_captured_by_value(void **state)
{
    (void)state;
    enum { N = 32 };
    amp_elem_type type;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(blur_params), &type));
    blur_params prm = {{1, 2, 3, 2, 1}, {0.5f, 0.5f, 0.5f, 2.0f}, 2};
    static float in[N], out[N];
    for (int k = 0; k < N; k++)
        in[k] = (float)(k % 4);
    amp_array_view *vi, *vo;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(N), in, &vi));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &vo));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx,
                                        AMP_CAPTURE(vi, vo, AMP_VALUE(blur_params, prm), AMP_CONST(N)), {
        float sum = 0.0f;
        for (int k = -prm.radius; k <= prm.radius; k++) {
            int at = clamp(idx[0] + k, 0, N - 1);
            sum += vi[at] * prm.weights[k + prm.radius];
        }
        vo[idx] = sum * prm.tint.a;
    }));
    assert_amp_ok(amp_array_view_synchronize(vo));
    for (int i = 0; i < N; i++) {
        float sum = 0.0f;
        for (int k = -2; k <= 2; k++) {
            int at = i + k < 0 ? 0 : i + k > N - 1 ? N - 1 : i + k;
            sum += in[at] * prm.weights[k + 2];
        }
        assert_true(out[i] == sum * 2.0f);
    }
    assert_amp_ok(amp_array_view_release(vi));
    assert_amp_ok(amp_array_view_release(vo));
}

/* tile_static float_3 in a tiled kernel: OpenCL's vectors, shared by the
 * tile. */
static void short_vector_10_8_in_tile_static_memory(void **state)
{
    (void)state;
    enum { N = 64, T = 16 };
    static float_3 data[N];
    for (int k = 0; k < N; k++)
        data[k] = amp_float_3_make((float)k, 1.0f, 0.0f);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, AMP_CONST(T)), {
        tile_static float_3 cache[T];
        cache[t_idx.local[0]] = v[t_idx.global];
        t_idx.barrier.wait();
        v[t_idx.global].z = cache[T - 1 - t_idx.local[0]].x;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < N; k++)
        assert_true(data[k].z == (float)(k / T * T + T - 1 - k % T) && data[k].y == 1.0f);
    assert_amp_ok(amp_array_view_release(v));
}

/* restrict(cpu, amp) code with short vectors: one text, the same results
 * on both sides, through amp/short_vector.h's functions. */
AMP_SHARED_FUNCTION(float_3, reflect_z, (float_3 v, float bounce), {
    float_3 flipped = amp_float_3_make(v.x, v.y, -v.z);
    return amp_float_3_add(amp_float_3_scale(flipped, bounce), amp_float_3_splat(0.25f));
});

static void short_vector_10_8_restrict_cpu_amp_code_runs_on_both_sides(void **state)
{
    (void)state;
    enum { N = 8 };
    float_3 in[N], out[N];
    for (int k = 0; k < N; k++)
        in[k] = amp_float_3_make((float)k, 1.0f, (float)-k);
    amp_array_view *vi, *vo;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT_3, amp_extent_1d(N), in, &vi));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(N), out, &vo));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(vi, vo, AMP_SHARED(reflect_z)),
                                        { vo[idx] = reflect_z(vi[idx], 0.5f); }));
    assert_amp_ok(amp_array_view_synchronize(vo));
    for (int k = 0; k < N; k++) {
        float_3 host = reflect_z(in[k], 0.5f);
        assert_true(out[k].x == host.x && out[k].y == host.y && out[k].z == host.z);
        assert_true(host.z == 0.5f * k + 0.25f);
    }
    assert_amp_ok(amp_array_view_release(vi));
    assert_amp_ok(amp_array_view_release(vo));
}

/* 10.8.1's operators on the host, as functions: each component as C++ AMP
 * computes it. */
static void short_vector_10_8_1_operators_on_the_host(void **state)
{
    (void)state;
    float_3 a = amp_float_3_make(1.0f, 2.0f, 3.0f), b = amp_float_3_splat(2.0f);
    float_3 s = amp_float_3_add(a, b), d = amp_float_3_sub(a, b), p = amp_float_3_mul(a, b);
    float_3 q = amp_float_3_div(a, b), k = amp_float_3_scale(a, 3.0f), n = amp_float_3_neg(a);
    assert_true(s.x == 3.0f && s.z == 5.0f && d.y == 0.0f && p.z == 6.0f && q.x == 0.5f);
    assert_true(k.y == 6.0f && n.z == -3.0f);
    assert_true(amp_float_3_eq(a, a) && !amp_float_3_eq(a, b) && amp_float_3_ne(a, b));
    int_4 i = amp_int_4_make(7, 12, 5, -1), j = amp_int_4_make(3, 5, 1, 1);
    int_4 m = amp_int_4_mod(i, j), x = amp_int_4_xor(i, j), l = amp_int_4_shl(j, j);
    int_4 r = amp_int_4_shr(i, amp_int_4_splat(1)), t = amp_int_4_not(i);
    assert_true(m.x == 1 && m.y == 2 && x.y == (12 ^ 5) && l.x == 24 && r.y == 6 && t.w == 0);
    assert_true(amp_int_4_and(i, j).y == 4 && amp_int_4_or(i, j).z == 5);
    uint_2 u = amp_uint_2_sub(amp_uint_2_splat(1u), amp_uint_2_make(2u, 1u));
    assert_true(u.x == 0xffffffffu && u.y == 0u);
}

/* 10.8.2.2's explicit conversions on the host: a C cast of each
 * component. */
static void short_vector_10_8_2_2_conversions_on_the_host(void **state)
{
    (void)state;
    int_3 n = amp_int_3_from_float_3(amp_float_3_make(1.9f, -2.9f, 3.0f));
    assert_true(n.x == 1 && n.y == -2 && n.z == 3);
    double_2 d = amp_double_2_from_int_2(amp_int_2_make(-4, 5));
    assert_true(d.x == -4.0 && d.y == 5.0);
    uint_4 u = amp_uint_4_from_int_4(amp_int_4_make(1, 2, 3, 4));
    assert_true(u.w == 4u);
    float_2 f = amp_float_2_from_double_2(amp_double_2_make(0.5, 1e10));
    assert_true(f.x == 0.5f && f.y == 1e10f);
}

/* A vector that a built-in gives (vload4, read from a view of floats) is
 * one the reader does not follow: .r .g .b .a of it are still its
 * components, spelled x y z w. */
static void short_vector_10_8_3_components_of_a_value_the_reader_does_not_follow(void **state)
{
    (void)state;
    float in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8] = {0};
    amp_array_view *vi, *vo;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(8), in, &vi));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), out, &vo));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(vi, vo), {
        int at = idx[0] * 4;
        vo(at) = vload4(0, &vi(at)).a;
        vo(at + 1) = vload4(0, &vi(at)).b;
        vo(at + 2) = vload4(0, &vi(at)).rg.y;
        vo(at + 3) = vload4(0, &vi(at)).bgra.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(vo));
    float want[8] = {4, 3, 2, 4, 8, 7, 6, 8};
    for (int k = 0; k < 8; k++)
        assert_true(out[k] == want[k]);
    assert_amp_ok(amp_array_view_release(vi));
    assert_amp_ok(amp_array_view_release(vo));
}

/* A float_3 a view holds is 12 bytes, written whole or one component at a
 * time: set_xy() of one is refused, with what to write. */
static void short_vector_10_8_3_multi_component_writes_of_an_element_of_3_are_refused(
    void **state)
{
    (void)state;
    float_3 data[4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(4), data, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                           { v[idx].set_xy(float_2(1.0f, 2.0f)); }),
                     AMP_ERROR_KERNEL_BUILD, "is written whole or one component at a time");
    /* Assigned through a swizzle, as C++ AMP writes it (clang's own words
     * were "expression is not assignable"). */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                           { v[idx].xy = float_2(1.0f, 2.0f); }),
                     AMP_ERROR_KERNEL_BUILD, "is written whole or one component at a time");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                           { v[idx].yz += float_2(1.0f, 2.0f); }),
                     AMP_ERROR_KERNEL_BUILD, "is written whole or one component at a time");
    /* One component is any value's. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        v[idx] = float_3(1.0f, 2.0f, 3.0f);
        v[idx].x++;
        --v[idx].z;
        v[idx].y = 7.0f;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_true(data[3].x == 2.0f && data[3].y == 7.0f && data[3].z == 2.0f);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), { v[idx]++; }),
                     AMP_ERROR_KERNEL_BUILD, "write += 1");
    assert_amp_ok(amp_array_view_release(v));
}

/* A view of float_4 the kernel only reads is passed read only and never
 * copied back. */
static void short_vector_10_8_a_view_of_vectors_only_read_is_not_copied_back(void **state)
{
    (void)state;
    enum { N = 16 };
    float_4 in[N];
    float out[N];
    for (int k = 0; k < N; k++)
        in[k] = amp_float_4_make(k, 1, 2, 3);
    amp_array_view *vi, *vo;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_4, amp_extent_1d(N), in, &vi));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &vo));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(vi, vo), {
        float_4 f = vi[idx];
        vo[idx] = f.x + vi(idx).w + vi[idx].yz.y;
    }));
    assert_amp_ok(amp_array_view_synchronize(vo));
    assert_amp_ok(amp_array_view_synchronize(vi));
    for (int k = 0; k < N; k++)
        assert_true(out[k] == k + 5.0f);
    assert_int_equal(ledger_of(vi).downloads, 0);
    assert_amp_ok(amp_array_view_release(vi));
    assert_amp_ok(amp_array_view_release(vo));
}

/* "T_N(T value)" converts a scalar where a float_3 element is assigned,
 * and float_3() is zeros. */
static void short_vector_10_8_a_scalar_assigned_to_an_element_of_3(void **state)
{
    (void)state;
    float_3 data[6];
    for (int k = 0; k < 6; k++)
        data[k] = amp_float_3_splat(9.0f);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(6), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(6), idx, AMP_CAPTURE(v), {
        if (idx[0] < 3)
            v[idx] = 2.0f * idx[0];
        else
            v[idx] = float_3();
        v[idx] += 1;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < 6; k++) {
        float want = k < 3 ? 2.0f * k + 1.0f : 1.0f;
        assert_true(data[k].x == want && data[k].y == want && data[k].z == want);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* Padding threads of a padded domain (4.3.3) reach past a view of
 * float_3: their accesses land on the sink, never on the view's
 * neighbours. */
static void short_vector_10_8_in_a_padded_domain(void **state)
{
    (void)state;
    float_3 data[12];
    for (int k = 0; k < 12; k++)
        data[k] = amp_float_3_splat((float)k);
    amp_array_view *all, *part;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_3, amp_extent_1d(12), data, &all));
    assert_amp_ok(amp_array_view_section(all, amp_index_1d(2), amp_extent_1d(6), &part));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(
        amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(6), 4)), t_idx, AMP_CAPTURE(part),
        {
            part[t_idx.global] += float_3(100.0f);
            part[t_idx.global].y = -1.0f;
        }));
    assert_amp_ok(amp_array_view_synchronize(all));
    for (int k = 0; k < 12; k++) {
        int in = k >= 2 && k < 8;
        assert_true(data[k].x == (in ? k + 100.0f : (float)k));
        assert_true(data[k].y == (in ? -1.0f : (float)k));
        assert_true(data[k].z == (in ? k + 100.0f : (float)k));
    }
    assert_amp_ok(amp_array_view_release(part));
    assert_amp_ok(amp_array_view_release(all));
}

AMP_STRUCT(float_first, (float, a), (float_4, v));
AMP_STRUCT(double_after_float, (float, a), (double_4, v));

/* A struct's short vector is where OpenCL puts it: a float_4 after a
 * float at byte 16 (the host aligns it so too); a double_4 at byte 32,
 * where a host's 16-byte alignment does not put it: refused, naming it. */
static void short_vector_10_8_struct_members_laid_out_as_opencl_lays_them(void **state)
{
    (void)state;
    amp_elem_type t;
    assert_int_equal(offsetof(float_first, v), 16);
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(float_first), &t));
    assert_amp_fails(amp_struct_register(AMP_STRUCT_DESC(double_after_float), &t),
                     AMP_ERROR_INVALID_ARGUMENT, "member 'v' of struct double_after_float");
    float_first s[2] = {{1.0f, {2, 3, 4, 5}}, {6.0f, {7, 8, 9, 10}}};
    float out[2];
    amp_array_view *v, *o;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(float_first), &t));
    assert_amp_ok(amp_array_view_create(t, amp_extent_1d(2), s, &v));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(2), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(v, o),
                                        { o[idx] = v[idx].a + v[idx].v.w; }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_true(out[0] == 6.0f && out[1] == 16.0f);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(o));
}

/* The host's names, amp_float_3 and its functions, mean the same in a
 * kernel. */
static void short_vector_10_8_host_names_in_a_kernel(void **state)
{
    (void)state;
    float out[4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        amp_float_3 a = amp_float_3_make(1.0f, 2.0f, (float)idx[0]);
        amp_float_3 b = amp_float_3_scale(amp_float_3_splat(2.0f), 3.0f);
        amp_int_3 n = amp_int_3_from_float_3(amp_float_3_sub(b, a));
        v[idx] = amp_float_3_add(a, b).z + (float)n.x + (float)amp_float_3_eq(a, a);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 4; i++)
        assert_true(out[i] == i + 6.0f + 5.0f + 1.0f);
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(short_vector_10_8_default_constructor_is_zero),
        cmocka_unit_test(short_vector_10_8_default_constructor_in_a_function),
        cmocka_unit_test(short_vector_10_8_default_constructor_as_an_expression),
        cmocka_unit_test(short_vector_10_8_default_constructor_through_types),
        cmocka_unit_test(short_vector_10_8_1_sizes_as_cxx_amp_lays_them_out),
        cmocka_unit_test(short_vector_10_8_1_arithmetic_operators),
        cmocka_unit_test(short_vector_10_8_1_integer_operators),
        cmocka_unit_test(short_vector_10_8_1_compound_assignments_and_steps),
        cmocka_unit_test(short_vector_10_8_1_steps_of_float_and_double_vectors),
        cmocka_unit_test(short_vector_10_8_1_equality_compares_all_components),
        cmocka_unit_test(short_vector_opencl_all_any_and_select_of_a_comparison_take_its_lanes),
        cmocka_unit_test(short_vector_10_8_2_constructors_from_components_and_a_scalar),
        cmocka_unit_test(short_vector_10_8_2_2_explicit_conversions),
        cmocka_unit_test(short_vector_10_8_3_single_components),
        cmocka_unit_test(short_vector_10_8_3_multi_component_swizzles),
        cmocka_unit_test(short_vector_10_8_3_get_set_and_ref),
        cmocka_unit_test(short_vector_10_8_3_a_struct_member_named_r_is_not_a_component),
        cmocka_unit_test(short_vector_10_8_as_array_view_elements_of_2_and_4),
        cmocka_unit_test(short_vector_10_8_as_array_view_elements_of_3),
        cmocka_unit_test(short_vector_10_8_elements_of_3_are_their_own_bytes),
        cmocka_unit_test(short_vector_10_8_a_view_of_floats_reinterpreted_as_float_3),
        cmocka_unit_test(short_vector_10_8_as_array_elements),
        cmocka_unit_test(short_vector_10_8_as_elements_of_double_3),
        cmocka_unit_test(short_vector_10_8_sections_and_projections_of_views_of_vectors),
        cmocka_unit_test(short_vector_10_8_views_of_vectors_given_to_a_function),
        cmocka_unit_test(short_vector_10_8_captured_by_value),
        cmocka_unit_test(short_vector_10_8_as_struct_members),
        cmocka_unit_test(short_vector_10_8_struct_with_arrays_captured_by_value),
        cmocka_unit_test(short_vector_10_8_in_tile_static_memory),
        cmocka_unit_test(short_vector_10_8_restrict_cpu_amp_code_runs_on_both_sides),
        cmocka_unit_test(short_vector_10_8_1_operators_on_the_host),
        cmocka_unit_test(short_vector_10_8_2_2_conversions_on_the_host),
        cmocka_unit_test(short_vector_10_8_3_components_of_a_value_the_reader_does_not_follow),
        cmocka_unit_test(short_vector_10_8_3_multi_component_writes_of_an_element_of_3_are_refused),
        cmocka_unit_test(short_vector_10_8_a_view_of_vectors_only_read_is_not_copied_back),
        cmocka_unit_test(short_vector_10_8_a_scalar_assigned_to_an_element_of_3),
        cmocka_unit_test(short_vector_10_8_in_a_padded_domain),
        cmocka_unit_test(short_vector_10_8_struct_members_laid_out_as_opencl_lays_them),
        cmocka_unit_test(short_vector_10_8_host_names_in_a_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
