/*
 * tests/device/test_helpers.c - helper functions as C++ AMP's restrict(amp)
 * functions are written: they take and return index and extent values,
 * views, arrays and struct types; a registered struct type is known to
 * every kernel and helper that names it; textures are helpers' parameters; AMP_SHARED_FUNCTION compiles one
 * text for the host and for kernels, with amp/math.h's functions on the
 * host under the kernels' names.
 */
#include <math.h>

#include "test_util.h"

#include "amp/math.h"

/* ---- Index and extent values ---- */

AMP_FUNCTION(index<2>, mirrored, (index<2> i, extent<2> e), {
    return index<2>(e[0] - 1 - i[0], e[1] - 1 - i[1]);
});

AMP_FUNCTION(extent<2>, transposed, (extent<2> e), { return extent<2>(e[1], e[0]); });

static void helpers_take_and_return_index_and_extent_values(void **state)
{
    (void)state;
    int out[12] = {0}, shape[2] = {0};
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(2), shape, &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx,
                                        AMP_CAPTURE(v, s, mirrored, transposed), {
        index<2> m = mirrored(idx, v.extent);
        v[m] = idx[0] * 10 + idx[1];
        if (idx == index<2>(0, 0)) {
            extent<2> t = transposed(v.get_extent());
            s[0] = t[0];
            s[1] = t[1];
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_amp_ok(amp_array_view_synchronize(s));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(out[(2 - i) * 4 + (3 - j)], i * 10 + j);
    assert_int_equal(shape[0], 4);
    assert_int_equal(shape[1], 3);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(s));
}

/* Declared as C++ AMP code declares them: index<2> p(i, j), extent<2>
 * e(r, c), a copy q(p), a view row(v[i]); C++ AMP's short vectors; a
 * captured bool. */
static void values_are_declared_as_cxx_amp_declares_them(void **state)
{
    (void)state;
    int out[6] = {0};
    float sums[2] = {0};
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(2, 3), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(2), sums, &s));
    _Bool flip = 1;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 3), idx, AMP_CAPTURE(v, s, flip), {
        index<2> p(idx[0], flip ? 2 - idx[1] : idx[1]);
        index<2> q(p);
        extent<2> e(2, 3);
        array_view<int, 1> row(v[q[0]]);
        row[q[1]] = e.size() * 100 + idx[0] * 10 + idx[1];
        if (idx[0] == 0 && idx[1] == 0) {
            /* rank, as C++ AMP's static member; a default index is 0 */
            index<3> zero;
            extent<2> none;
            if (zero.rank != 3 || v.rank != 2 || idx.rank != 2 || zero[2] != 0 || none[1] != 0)
                s[0] = -1000.0f;
            graphics::float_4 f = graphics::float_4(1.0f, 2.0f, 3.0f, 4.0f);
            f.x = concurrency::fast_math::sqrt(f.x) + precise_math::fabs(-0.0f);
            int_2 k = int_2(5, 6);
            s[0] += f.y + f.w;
            s[1] = k.x * k.y;
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_amp_ok(amp_array_view_synchronize(s));
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            assert_int_equal(out[i * 3 + (2 - j)], 600 + i * 10 + j);
    assert_true(sums[0] == 6.0f);
    assert_true(sums[1] == 30.0f);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(s));
}

/* ---- Views and arrays ---- */

/* C++ AMP's spellings of a reference: '&' by the name or by the type. */
AMP_FUNCTION(int, row_sum, (const array_view<const int, 1> &row), {
    int sum = 0;
    for (int j = 0; j < row.extent[0]; j++)
        sum += row[j];
    return sum;
});

AMP_FUNCTION(int, total, (array<int, 2>&a), {
    int sum = 0;
    for (int i = 0; i < a.extent[0]; i++)
        for (int j = 0; j < a.extent[1]; j++)
            sum += a[i][j];
    return sum;
});

AMP_FUNCTION(void, scale_all, (array_view<int, 2> m, int k), {
    for (int i = 0; i < m.extent[0]; i++)
        for (int j = 0; j < m.extent[1]; j++)
            m[i][j] *= k;
});

static void helpers_take_views_sections_projections_and_arrays(void **state)
{
    (void)state;
    int a[12], b[12], sums[3] = {0}, totals[1] = {0};
    for (int i = 0; i < 12; i++)
        a[i] = b[i] = i;
    amp_array_view *av, *bv, *sv, *tv;
    amp_array *arr;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), a, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), b, &bv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3), sums, &sv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(1), totals, &tv));
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(3, 4), a, NULL, &arr));
    /* A projection (a row) as a read-only view. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(3), idx, AMP_CAPTURE(av, sv, row_sum),
                                        { sv[idx] = row_sum(av[idx]); }));
    /* An array by reference. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(arr, tv, total),
                                        { tv[idx] = total(arr); }));
    /* A section written through the helper: only rows 1 and 2 change. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(bv, scale_all), {
        scale_all(bv.section(index<2>(1, 0), extent<2>(2, 4)), 10);
    }));
    assert_amp_ok(amp_array_view_synchronize(sv));
    assert_amp_ok(amp_array_view_synchronize(tv));
    assert_amp_ok(amp_array_view_synchronize(bv));
    assert_int_equal(sums[0], 0 + 1 + 2 + 3);
    assert_int_equal(sums[2], 8 + 9 + 10 + 11);
    assert_int_equal(totals[0], 66);
    for (int i = 0; i < 12; i++)
        assert_int_equal(b[i], i < 4 ? i : 10 * i);
    /* av was only read, in the kernel and through the helper: nothing to
     * copy back. */
    amp_transfer_stats st;
    assert_amp_ok(amp_array_view_get_transfers(av, &st));
    assert_int_equal(st.downloads, 0);
    assert_amp_ok(amp_array_view_release(av));
    assert_amp_ok(amp_array_view_release(bv));
    assert_amp_ok(amp_array_view_release(sv));
    assert_amp_ok(amp_array_view_release(tv));
    assert_amp_ok(amp_array_release(arr));
}

/* ---- Textures ---- */

AMP_FUNCTION(float, texel_plus_width, (texture<float, 2> t, int i, int j),
             { return t(i, j) + t.extent[1]; });

/* A texture handed on from helper to helper, and sampled there. */
AMP_FUNCTION(float, texel_and_sample, (const texture<float, 2>& t),
             { return texel_plus_width(t, 1, 1) + amp_sample(t, 0.5f, 0.5f); });

AMP_FUNCTION(int, ends_of, (texture<int_4, 1> t, index<1> i), {
    int4 v = t(i);
    return v.x + v.w;
});

static void helpers_take_textures(void **state)
{
    (void)state;
    float texels[4] = {1, 2, 3, 4};
    int quads[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    amp_texture *t, *q;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(2, 2), texels, NULL, &t));
    assert_amp_ok(amp_texture_create(AMP_INT, 4, amp_extent_1d(2), quads, NULL, &q));
    float f[2] = {0};
    int n[1] = {0};
    amp_array_view *fv, *nv;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(2), f, &fv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(1), n, &nv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                        AMP_CAPTURE(t, q, fv, nv, texel_plus_width,
                                                    texel_and_sample, ends_of), {
        fv[0] = texel_plus_width(t, 1, 1);
        fv[1] = texel_and_sample(t);
        nv[0] = ends_of(q, index<1>(1));
    }));
    assert_amp_ok(amp_array_view_synchronize(fv));
    assert_amp_ok(amp_array_view_synchronize(nv));
    assert_true(f[0] == 4.0f + 2.0f);
    /* The middle of a 2x2 texture, filtered linearly: the mean. */
    assert_true(f[1] == 6.0f + 2.5f);
    assert_int_equal(n[0], 5 + 8);
    /* A texture of another shape than the parameter's is refused, by name. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                           AMP_CAPTURE(q, fv, texel_plus_width),
                                           { fv[0] = texel_plus_width(q, 0, 0); }),
                     AMP_ERROR_KERNEL_BUILD,
                     "the texture has rank 1 and 4 int channels; the parameter, rank 2 and 1"
                     " float channel");
    assert_amp_ok(amp_array_view_release(fv));
    assert_amp_ok(amp_array_view_release(nv));
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(amp_texture_release(q));
}

/* ---- Struct types ---- */

AMP_STRUCT(span, (float, low), (float, high));

AMP_FUNCTION(span, span_around, (float x, float r), {
    span s;
    s.low = x - r;
    s.high = x + r;
    return s;
});

AMP_FUNCTION(float, span_width, (span s), { return s.high - s.low; });

static void a_registered_struct_is_known_without_a_view_of_it(void **state)
{
    (void)state;
    amp_elem_type span_type;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(span), &span_type));
    float out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), out, &v));
    /* The body declares one, a helper returns one, another takes one. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx,
                                        AMP_CAPTURE(v, span_around, span_width), {
        span s = span_around((float)idx[0], 0.5f * idx[0]);
        span copy = s;
        v[idx] = span_width(copy) + s.low;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 8; i++)
        assert_true(out[i] == (float)i + (i - 0.5f * i));
    assert_amp_ok(amp_array_view_release(v));
}

/* ---- Functions for both sides ---- */

AMP_SHARED_FUNCTION(float, smooth_step, (float edge0, float edge1, float x), {
    float t = (x - edge0) / (edge1 - edge0);
    t = precise_math_fminf(precise_math_fmaxf(t, 0.0f), 1.0f);
    return t * t * (3.0f - 2.0f * t);
});

AMP_SHARED_FUNCTION(float, hypotenuse, (float a, float b), {
    return fast_math_sqrtf(a * a + b * b) + smooth_step(0.0f, 1.0f, 0.5f);
});

AMP_SHARED_FUNCTION(span, widened, (span s, float by), {
    span w = s;
    w.low -= by;
    w.high += by;
    return w;
});

static void a_shared_function_runs_on_both_sides_with_the_same_results(void **state)
{
    (void)state;
    amp_elem_type span_type;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(span), &span_type));
    enum { N = 64 };
    float out[N], widths[N];
    amp_array_view *v, *w;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), widths, &w));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx,
                                        AMP_CAPTURE(v, w, AMP_SHARED(smooth_step),
                                                    AMP_SHARED(hypotenuse), AMP_SHARED(widened)), {
        float x = idx[0] / 16.0f;
        v[idx] = smooth_step(0.5f, 3.0f, x) + hypotenuse(x, 1.0f);
        span s = {x, 2.0f * x};
        span t = widened(s, 0.25f);
        w[idx] = t.high - t.low;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_amp_ok(amp_array_view_synchronize(w));
    for (int i = 0; i < N; i++) {
        float x = i / 16.0f;
        float host = smooth_step(0.5f, 3.0f, x) + hypotenuse(x, 1.0f);
        /* fast_math may differ by a few ulps on the device. */
        assert_true(fabsf(out[i] - host) <= 1e-5f * fmaxf(1.0f, fabsf(host)));
        span s = {x, 2.0f * x};
        span t = widened(s, 0.25f);
        assert_true(widths[i] == t.high - t.low);
    }
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(w));
}

/* The descriptor keeps the host twin: the kernel's function is that one. */
static void a_shared_functions_descriptor_names_its_host_function(void **state)
{
    (void)state;
    const amp_function *f = &AMP_SHARED(smooth_step);
    assert_string_equal(f->name, "smooth_step");
    assert_true(f->host == (void (*)(void))smooth_step);
    assert_null(mirrored.host); /* AMP_FUNCTION: the kernel's side only */
    assert_true(strncmp(f->source, "float smooth_step (float edge0", 30) == 0);
    assert_non_null(strstr(f->source, "precise_math_fminf"));
    assert_non_null(strstr(f->file, "test_helpers.c"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(helpers_take_and_return_index_and_extent_values),
        cmocka_unit_test(values_are_declared_as_cxx_amp_declares_them),
        cmocka_unit_test(helpers_take_views_sections_projections_and_arrays),
        cmocka_unit_test(helpers_take_textures),
        cmocka_unit_test(a_registered_struct_is_known_without_a_view_of_it),
        cmocka_unit_test(a_shared_function_runs_on_both_sides_with_the_same_results),
        cmocka_unit_test(a_shared_functions_descriptor_names_its_host_function),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
