/*
 * tests/device/test_kernel_features.c - C++ AMP's in-kernel features: atomics,
 * fences, fast_math and precise_math, helper functions, preprocessor lines,
 * and kernels from files.
 */
#include <math.h>

#include "amp/math.h"
#include "test_util.h"

#include "core/testing.h"
#include "kernel/codegen.h"

#ifndef KERNELS_DIR
#error "KERNELS_DIR must name tests/device/kernels"
#endif

static void atomics_on_global_memory_return_old_values(void **state)
{
    (void)state;
    enum { N = 256 };
    /* [0] add, [1] sub, [2] inc, [3] dec, [4] max, [5] min, [6] and, [7] or, [8] xor,
       [9] exchange count, [10] compare-exchange winners, [11] cas target */
    int ints[12] = {0, 1000, 0, 1000, -1, 1 << 30, -1, 0, 0, 0, 0, 0};
    unsigned uints[4] = {0, 0, 0xffffffffu, 0};
    float floats[2] = {0.0f, 0.0f};
    int olds[N] = {0};
    amp_array_view *vi, *vu, *vf, *vo;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(12), ints, &vi));
    assert_amp_ok(amp_array_view_create(AMP_UINT, amp_extent_1d(4), uints, &vu));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(2), floats, &vf));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), olds, &vo));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(vi, vu, vf, vo), {
        int i = idx[0];
        vo(i) = atomic_fetch_add(&vi(0), 2);
        atomic_fetch_sub(&vi(1), 1);
        atomic_fetch_inc(&vi(2));
        atomic_fetch_dec(&vi(3));
        atomic_fetch_max(&vi(4), i);
        atomic_fetch_min(&vi(5), i + 7);
        atomic_fetch_and(&vi(6), ~(1 << (i % 31)));
        atomic_fetch_or(&vi(7), 1 << (i % 31));
        atomic_fetch_xor(&vi(8), 1);
        atomic_exchange(&vi(9), 5);
        int expected = 0;
        if (atomic_compare_exchange(&vi(11), &expected, i + 1))
            atomic_fetch_inc(&vi(10));
        atomic_fetch_add(&vu(0), 3u);
        atomic_fetch_inc(&vu(1));
        atomic_fetch_and(&vu(2), 0xff00ff00u);
        unsigned expected_u = 0u;
        atomic_compare_exchange(&vu(3), &expected_u, 9u);
        atomic_exchange(&vf(0), 2.5f);
    }));
    assert_amp_ok(amp_array_view_release(vi));
    assert_amp_ok(amp_array_view_release(vu));
    assert_amp_ok(amp_array_view_release(vf));
    assert_amp_ok(amp_array_view_release(vo));
    assert_int_equal(ints[0], 2 * N);
    assert_int_equal(ints[1], 1000 - N);
    assert_int_equal(ints[2], N);
    assert_int_equal(ints[3], 1000 - N);
    assert_int_equal(ints[4], N - 1);
    assert_int_equal(ints[5], 7);
    assert_int_equal(ints[6], (int)0x80000000);
    assert_int_equal(ints[7], 0x7fffffff);
    assert_int_equal(ints[8], 0); /* N is even */
    assert_int_equal(ints[9], 5);
    assert_int_equal(ints[10], 1); /* exactly one thread won */
    assert_true(ints[11] >= 1 && ints[11] <= N);
    assert_int_equal(uints[0], 3u * N);
    assert_int_equal(uints[1], (unsigned)N);
    assert_int_equal(uints[2], 0xff00ff00u);
    assert_int_equal(uints[3], 9u);
    assert_true(floats[0] == 2.5f);
    /* Every old value of the add is distinct: the adds were atomic. */
    int seen[2 * N] = {0};
    for (int i = 0; i < N; i++) {
        assert_true(olds[i] >= 0 && olds[i] < 2 * N && olds[i] % 2 == 0);
        assert_int_equal(seen[olds[i]]++, 0);
    }
}

static void atomics_on_tile_static_memory_count_the_tile(void **state)
{
    (void)state;
    enum { N = 64, T = 16 };
    int counts[N / T] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N / T), counts, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                        AMP_CAPTURE(v), {
        tile_static int count;
        tile_static unsigned bits;
        if (t_idx.local[0] == 0) {
            count = 0;
            bits = 0u;
        }
        t_idx.barrier.wait_with_tile_static_memory_fence();
        atomic_fetch_add(&count, 1);
        atomic_fetch_or(&bits, 1u << t_idx.local[0]);
        tile_static_memory_fence(t_idx.barrier);
        t_idx.barrier.wait();
        if (t_idx.local[0] == 0)
            v(t_idx.tile[0]) = bits == 0xffffu ? count : -1;
    }));
    assert_amp_ok(amp_array_view_release(v));
    for (int t = 0; t < N / T; t++)
        assert_int_equal(counts[t], T);
}

static void free_fences_compile_and_run(void **state)
{
    (void)state;
    int out[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(4), 4), t_idx, AMP_CAPTURE(v), {
        v(t_idx.global[0]) = 1;
        all_memory_fence(t_idx.barrier);
        global_memory_fence(t_idx.barrier);
        tile_static_memory_fence(t_idx.barrier);
        v(t_idx.global[0]) += 1;
    }));
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(out[3], 2);
}

static void fast_and_precise_math_match_the_c_library(void **state)
{
    (void)state;
    enum { N = 8 };
    float in[N] = {0.1f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.5f, 7.25f};
    float out[6 * N] = {0};
    amp_array_view *vin, *vout;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(N), in, &vin));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(6, N), out, &vout));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(vin, vout), {
        float x = vin(idx[0]);
        float s, c;
        vout(0, idx[0]) = fast_math_sqrtf(x);
        vout(1, idx[0]) = fast_math_exp(x) + fast_math_log(x);
        vout(2, idx[0]) = precise_math_sqrt(x);
        vout(3, idx[0]) = precise_math_cbrtf(x) + precise_math_erff(x);
        precise_math_sincos(x, &s, &c);
        vout(4, idx[0]) = s * s + c * c;
        vout(5, idx[0]) = precise_math_rcbrt(x) * precise_math_cbrt(x) + precise_math_phi(0.0f);
    }));
    assert_amp_ok(amp_array_view_release(vin));
    assert_amp_ok(amp_array_view_release(vout));
    for (int i = 0; i < N; i++) {
        float x = in[i];
        assert_true(fabsf(out[0 * N + i] - sqrtf(x)) < 1e-3f * sqrtf(x) + 1e-6f);
        assert_true(fabsf(out[1 * N + i] - (expf(x) + logf(x))) < 1e-3f * (expf(x) + fabsf(logf(x))));
        assert_true(fabsf(out[2 * N + i] - sqrtf(x)) <= 1e-6f * sqrtf(x));
        assert_true(fabsf(out[3 * N + i] - (cbrtf(x) + erff(x))) < 1e-5f * (cbrtf(x) + 1));
        assert_true(fabsf(out[4 * N + i] - 1.0f) < 1e-5f);
        assert_true(fabsf(out[5 * N + i] - 1.5f) < 1e-5f);
    }
}

static void precise_math_in_double_where_the_device_has_it(void **state)
{
    (void)state;
    if (!device_has_double())
        skip();
    double in[4] = {0.5, 1.0, 2.0, 10.0}, out[4] = {0};
    amp_array_view *vin, *vout;
    assert_amp_ok(amp_array_view_create_const(AMP_DOUBLE, amp_extent_1d(4), in, &vin));
    assert_amp_ok(amp_array_view_create(AMP_DOUBLE, amp_extent_1d(4), out, &vout));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(vin, vout), {
        double x = vin(idx[0]);
        vout(idx[0]) = precise_math_exp(precise_math_log(x)) + precise_math_hypot(x, 0.0);
    }));
    assert_amp_ok(amp_array_view_release(vin));
    assert_amp_ok(amp_array_view_release(vout));
    for (int i = 0; i < 4; i++)
        assert_true(fabs(out[i] - 2 * in[i]) < 1e-13 * in[i]);
}

/* A function written once for both sides (AMP_SHARED_FUNCTION) gives the
 * same values on both: the host's sinpi, cospi and tanpi are exact where
 * OpenCL's are (sin(M_PI * x) gave 1.2e-16 at 1, and cospif(1e30f), of an
 * even integer, -0.62), and the kernels' phi of a double is a double's
 * (with 1/sqrt 2 as a float, phi(-5.0) was 4.4e-7 off). */
static void the_pi_functions_and_phi_agree_on_the_host_and_in_kernels(void **state)
{
    (void)state;
    enum { N = 8 };
    float in[N] = {1.0f, 0.5f, -2.0f, 1.5f, 3.0f, 1e30f, 0.25f, -7.5f};
    float out[3 * N] = {0};
    amp_array_view *vin, *vout;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(N), in, &vin));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(3, N), out, &vout));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(vin, vout), {
        float x = vin(idx[0]);
        vout(0, idx[0]) = precise_math_sinpif(x);
        vout(1, idx[0]) = precise_math_cospif(x);
        vout(2, idx[0]) = precise_math_tanpif(x);
    }));
    assert_amp_ok(amp_array_view_release(vin));
    assert_amp_ok(amp_array_view_release(vout));
    for (int i = 0; i < N; i++) {
        float host[3] = {precise_math_sinpif(in[i]), precise_math_cospif(in[i]),
                         precise_math_tanpif(in[i])};
        for (int k = 0; k < 3; k++) {
            /* OpenCL allows sinpi and cospi 4 ulp, tanpi 6. */
            float kernel = out[k * N + i], tol = (k == 2 ? 8e-7f : 5e-7f) * fabsf(host[k]);
            /* Exact points: zeros (of either sign) and, of sinpi and cospi,
             * ones; tanpi's infinities are infinite on both sides. */
            if (host[k] == 0.0f || (k < 2 && fabsf(host[k]) == 1.0f))
                tol = 0.0f;
            if (isinf(host[k]) || isinf(kernel))
                assert_true(isinf(host[k]) && isinf(kernel));
            else if (!(fabsf(kernel - host[k]) <= tol))
                fail_msg("function %d of %g: kernel %.9g, host %.9g", k, (double)in[i],
                         (double)kernel, (double)host[k]);
        }
    }
    assert_true(precise_math_sinpi(1.0) == 0.0 && precise_math_cospi(0.5) == 0.0);
    assert_true(precise_math_cospif(1e30f) == 1.0f && precise_math_sinpi(-3.0) == 0.0);
    if (!device_has_double())
        return;
    double din[4] = {-5.0, 1.0, 2.5, -0.3}, dout[4] = {0};
    assert_amp_ok(amp_array_view_create_const(AMP_DOUBLE, amp_extent_1d(4), din, &vin));
    assert_amp_ok(amp_array_view_create(AMP_DOUBLE, amp_extent_1d(4), dout, &vout));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(vin, vout),
                                        { vout(idx[0]) = precise_math_phi(vin(idx[0])); }));
    assert_amp_ok(amp_array_view_release(vin));
    assert_amp_ok(amp_array_view_release(vout));
    for (int i = 0; i < 4; i++) {
        double host = precise_math_phi(din[i]);
        if (!(fabs(dout[i] - host) <= 1e-13 * host))
            fail_msg("phi(%g): kernel %.17g, host %.17g", din[i], dout[i], host);
    }
}

static void a_body_using_double_on_a_device_without_it_is_unsupported(void **state)
{
    (void)state;
    /* Devices here have double: the accelerator is told it has none, for
     * the test; then, where it really has it, the same call runs. */
    amp_accelerator *acc;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    test_device_caps caps = amp__test_device_caps(acc), without = caps;
    without.fp64 = 0;
    int out[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
    for (int has_double = 0; has_double <= caps.fp64; has_double++) {
        amp__test_set_device_caps(acc, has_double ? caps : without);
        amp_clear_error();
        amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
            double d = 1.5;
            v(idx) = (int)(d * 2);
        });
        amp__test_set_device_caps(acc, caps);
        if (has_double) {
            assert_int_equal(st, AMP_OK);
        } else {
            assert_int_equal(st, AMP_ERROR_UNSUPPORTED_FEATURE);
            assert_non_null(strstr(amp_last_error(), "uses double, and the device has no double"));
        }
    }
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(out[3], caps.fp64 ? 3 : 0);
}

/* math.h's constants are OpenCL's doubles where the device has double
 * precision, and its floats (M_PI_F ...) where it has not, so that a body
 * that uses them compiles on both. */
static void math_constants_are_floats_on_a_device_without_double(void **state)
{
    (void)state;
    const amp_kernel_source *src = AMP_KERNEL_SOURCE(idx, { float f = (float)(M_PI * M_SQRT1_2); (void)f; });
    cg_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.source = src;
    spec.rank = 1;
    spec.fp64 = 0;
    cg_kernel k;
    assert_amp_ok(amp__cg_generate(&spec, "amp_test", 0, &k));
    assert_non_null(strstr(k.source, "#define M_PI M_PI_F\n"));
    assert_non_null(strstr(k.source, "#define M_SQRT1_2 M_SQRT1_2_F\n"));
    assert_null(strstr(k.source, "#define M_E "));
    amp__cg_kernel_free(&k);
    spec.fp64 = 1;
    assert_amp_ok(amp__cg_generate(&spec, "amp_test", 0, &k));
    assert_null(strstr(k.source, "M_PI_F"));
    amp__cg_kernel_free(&k);
}

AMP_FUNCTION(float, square, (float x), { return x * x; });
AMP_FUNCTION(float, sum_of_squares, (float a, float b), {
    float total = square(a) + square(b);
    return total;
});

static void helper_functions_are_callable_and_can_call_each_other(void **state)
{
    (void)state;
    float out[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v, square, sum_of_squares),
                                        { v(idx[0]) = sum_of_squares((float)idx[0], 2.0f); }));
    assert_amp_ok(amp_array_view_release(v));
    for (int i = 0; i < 4; i++)
        assert_true(out[i] == (float)(i * i + 4));
}

static void preprocessor_lines_pass_through_the_macro(void **state)
{
    (void)state;
    int out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &v));
    for (int MODE = 0; MODE < 2; MODE++) {
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(v, AMP_CONST(MODE)), {
            AMP_DEFINE(STEP 3)
            int total = 0;
            AMP_PRAGMA(unroll)
            for (int k = 0; k < 4; k++)
                total += STEP;
            AMP_IF(MODE == 1)
            v(idx[0]) = total + 100;
            AMP_ELSE
            v(idx[0]) = total;
            AMP_ENDIF
        }));
        assert_amp_ok(amp_array_view_synchronize(v));
        assert_int_equal(out[7], 12 + 100 * MODE);
    }
    assert_amp_ok(amp_array_view_release(v));
}

static void a_kernel_from_a_file_runs_with_its_directives(void **state)
{
    (void)state;
    enum { N = 32, TS = 8 };
    float in_data[N], out_data[N / TS] = {0};
    for (int i = 0; i < N; i++)
        in_data[i] = (float)i;
    amp_kernel_source *src;
    assert_amp_ok(amp_kernel_source_load(KERNELS_DIR "/scale_rows.cl", "t_idx", &src));
    amp_array_view *in, *out;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(N), in_data, &in));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N / TS), out_data, &out));
    amp_kernel_stats before = kernels_now();
    for (int rep = 0; rep < 2; rep++)
        assert_amp_ok(amp_parallel_for_each_tiled(NULL, amp_extent_tile_1d(amp_extent_1d(N), TS), src,
                                                  AMP_CAPTURE(in, out, AMP_CONST(TS))));
    assert_int_equal(kernels_now().cache_hits - before.cache_hits, 1);
    assert_amp_ok(amp_array_view_release(in));
    assert_amp_ok(amp_array_view_release(out));
    amp_kernel_source_release(src);
    for (int t = 0; t < N / TS; t++) {
        float total = 0;
        for (int i = t * TS; i < (t + 1) * TS; i++)
            total += (float)i;
        assert_true(out_data[t] == 2.0f * total);
    }
}

static void a_file_kernel_error_names_the_file_and_line(void **state)
{
    (void)state;
    amp_kernel_source *src;
    int out_data[4] = {0};
    amp_array_view *out;
    assert_amp_ok(amp_kernel_source_load(KERNELS_DIR "/broken.cl", "idx", &src));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out_data, &out));
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(4), src, AMP_CAPTURE(out)),
                     AMP_ERROR_KERNEL_BUILD, "broken.cl:4:");
    assert_non_null(strstr(amp_last_error(), "not_declared_here"));
    /* The advice for a name used in the file's body, not the one for a
     * tile_static array's size (which comes before an inline body). */
    assert_non_null(strstr(amp_last_error(), "capture 'not_declared_here' by name"));
    assert_null(strstr(amp_last_error(), "A tile_static array is made before"));
    assert_amp_ok(amp_array_view_release(out));
    amp_kernel_source_release(src);
    assert_amp_fails(amp_kernel_source_load(KERNELS_DIR "/no_such_file.cl", "idx", &src),
                     AMP_ERROR_RUNTIME, "no_such_file.cl");
    assert_amp_fails(amp_kernel_source_load(KERNELS_DIR "/broken.cl", "1x", &src),
                     AMP_ERROR_INVALID_ARGUMENT, "not an identifier");
    amp_kernel_source_release(NULL);
}

static void pad_rounds_up_and_guards_threads_past_the_extent(void **state)
{
    (void)state;
    amp_tiled_extent t = amp_tiled_extent_pad(amp_extent_tile_2d(amp_extent_2d(5, 7), 2, 4));
    assert_true(amp_extent_equal(t.extent, amp_extent_2d(6, 8)));
    assert_true(t.padded);
    assert_true(amp_extent_equal(t.original, amp_extent_2d(5, 7)));
    /* Already a multiple: nothing to guard. */
    assert_false(amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(8), 4)).padded);

    enum { N = 10, T = 4 };
    int data[N] = {0}, neighbour[4] = {7, 7, 7, 7}, threads[3] = {0};
    amp_array_view *v, *w, *count;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), neighbour, &w));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3), threads, &count));
    amp_tiled_extent padded = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(N), T));
    assert_int_equal(padded.extent.dims[0], 12);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(v, count), {
        tile_static int in_tile;
        if (t_idx.local[0] == 0)
            in_tile = 0;
        t_idx.barrier.wait();
        atomic_fetch_inc(&in_tile);
        t_idx.barrier.wait();
        /* Every thread writes, even past the extent: those writes are dropped. */
        v(t_idx.global[0]) = 1 + in_tile * 0;
        if (t_idx.local[0] == 0)
            count(t_idx.tile[0]) = in_tile;
    }));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(w));
    assert_amp_ok(amp_array_view_release(count));
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], 1);
    for (int i = 0; i < 4; i++)
        assert_int_equal(neighbour[i], 7);
    /* The last tile had 2 threads inside and 2 past the extent: all 4 met. */
    for (int t = 0; t < 3; t++)
        assert_int_equal(threads[t], T);
}

static void truncate_rounds_down_and_leaves_the_rest(void **state)
{
    (void)state;
    amp_tiled_extent t = amp_tiled_extent_truncate(amp_extent_tile_2d(amp_extent_2d(5, 7), 2, 4));
    assert_true(amp_extent_equal(t.extent, amp_extent_2d(4, 4)));
    assert_false(t.padded);
    /* It keeps what it cut from, for the timeline; truncated again, still. */
    assert_true(amp_extent_equal(t.original, amp_extent_2d(5, 7)));
    t = amp_tiled_extent_truncate(t);
    assert_true(amp_extent_equal(t.original, amp_extent_2d(5, 7)));
    /* Whole tiles already: nothing cut, nothing kept. */
    amp_tiled_extent whole =
        amp_tiled_extent_truncate(amp_extent_tile_2d(amp_extent_2d(4, 8), 2, 4));
    assert_int_equal(whole.original.rank, 0);
    /* A padded extent is whole tiles: truncated, it runs unpadded over them,
     * and its original is no longer its own. */
    amp_tiled_extent padded =
        amp_tiled_extent_truncate(amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(10), 4)));
    assert_true(amp_extent_equal(padded.extent, amp_extent_1d(12)));
    assert_false(padded.padded);
    assert_int_equal(padded.original.rank, 0);
    int data[10] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(10), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_tiled_extent_truncate(amp_extent_tile_1d(amp_extent_1d(10), 4)),
                                        t_idx, AMP_CAPTURE(v), { v(t_idx.global[0]) = 1; }));
    assert_amp_ok(amp_array_view_release(v));
    for (int i = 0; i < 10; i++)
        assert_int_equal(data[i], i < 8 ? 1 : 0);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_tiled_extent_truncate(amp_extent_tile_1d(amp_extent_1d(3), 4)),
                                           t_idx, AMP_NO_CAPTURE, { (void)t_idx; }),
                     AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                     "amp_tiled_extent_truncate left no whole tile in dimension 0");
}

static void tiled_index_has_the_static_tile_dims(void **state)
{
    (void)state;
    int dims[3] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3), dims, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_3d(2, 4, 8), 2, 2, 4), t_idx,
                                        AMP_CAPTURE(v), {
        if (t_idx.global[0] == 0 && t_idx.global[1] == 0 && t_idx.global[2] == 0) {
            v(0) = t_idx.tile_dim0;
            v(1) = t_idx.tile_dim1;
            v(2) = t_idx.tile_dim2;
        }
    }));
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(dims[0], 2);
    assert_int_equal(dims[1], 2);
    assert_int_equal(dims[2], 4);
}

/* In a padded domain, threads past the extent may still load and store
 * elements that are inside the view for the rest of their tile. */
static void padded_threads_move_data_for_others(void **state)
{
    (void)state;
    int n = 6;
    int in[6] = {10, 11, 12, 13, 14, 15}, reversed[6] = {0}, shifted[6] = {0};
    amp_array_view *a, *r, *w;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(n), in, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(n), reversed, &r));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(n), shifted, &w));
    amp_tiled_extent padded = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(n), 4));
    /* Each tile reversed into tile_static memory, and read back reversed. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(a, r, n), {
        tile_static int t[4];
        int l = t_idx.local[0];
        int src = t_idx.tile_origin[0] + 3 - l; /* threads 6 and 7 load in(5), in(4) */
        t[l] = src < n ? a(src) : -1;
        t_idx.barrier.wait();
        if (t_idx.global[0] < n)
            r(t_idx.global[0]) = t[3 - l];
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(a, w, n), {
        int dst = t_idx.global[0] - 2; /* threads 6 and 7 write out(4), out(5) */
        if (dst >= 0 && dst < n)
            w(dst) = a(dst) + 100;
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(a), {
        a(t_idx.global[0]) = -1; /* past the end for threads 6, 7: dropped */
    }));
    assert_amp_ok(amp_array_view_synchronize(r));
    assert_amp_ok(amp_array_view_synchronize(w));
    for (int i = 0; i < n; i++) {
        assert_int_equal(reversed[i], 10 + i); /* reversed into the tile and back */
        assert_int_equal(shifted[i], 110 + i);
    }
    assert_amp_ok(amp_array_view_release(a));
    assert_amp_ok(amp_array_view_release(r));
    assert_amp_ok(amp_array_view_release(w));
    for (int i = 0; i < n; i++)
        assert_int_equal(in[i], -1);
}

/* A rank-1 view takes an integer or a whole index, as C++ AMP's v[idx]. */
static void a_rank_1_view_takes_an_integer_or_an_index(void **state)
{
    (void)state;
    enum { N = 64 };
    int a[N], b[N];
    amp_array_view *va, *vb;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), a, &va));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), b, &vb));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(va), {
        va(idx) = 3 * idx[0];
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), 16), t_idx,
                                        AMP_CAPTURE(va, vb), {
        unsigned u = (unsigned)t_idx.global[0];
        long l = (long)t_idx.global[0];
        vb(t_idx.global) = va(u) + va(l) - va(get_global_id(0)) + t_idx.local[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(vb));
    for (int i = 0; i < N; i++)
        assert_int_equal(b[i], 3 * i + i % 16);
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_view_release(vb));
}

/* A kernel's offsets, strides, extents and scalars travel in one struct
 * argument (the launch's values), by size, the widest first: captures of
 * every width (32-byte double3 and int8, 16-byte float3 and int4, 8-byte
 * double and int2, 4-byte ints), in an order that would leave gaps, arrive
 * each with its value, launch after launch as some of them change. A
 * device without double runs the same without the double ones. */
static void captured_values_of_every_width_arrive_in_their_places(void **state)
{
    (void)state;
    enum { ROWS = 5, COLS = 6, DEPTH = 7, OUT = 40 };
    int has_double = device_has_double();
    static int cube[ROWS * COLS * DEPTH];
    float out[OUT];
    for (int i = 0; i < ROWS * COLS * DEPTH; i++)
        cube[i] = i;
    amp_array_view *whole, *part, *vout;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_3d(ROWS, COLS, DEPTH), cube,
                                              &whole));
    /* A section: an offset and strides that are not the extent's. */
    assert_amp_ok(amp_array_view_section(whole, amp_index_3d(1, 2, 3), amp_extent_3d(3, 4, 2),
                                         &part));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(OUT), out, &vout));
    int dims5[5] = {2, 3, 4, 5, 6};
    for (int round = 0; round < 3; round++) {
        int first = 11 + round;
        float_3 f3 = {1.5f, -2.5f, 3.25f};
        amp_index at3 = amp_index_3d(7, -8, 9 + round);
        unsigned u = 4000000000u; /* a float exactly */
        amp_extent e5 = amp_extent_nd(5, dims5);
        float f = 0.375f;
        int_2 i2 = {-21, 22};
        double d = 0.25 + round;
        double_3 d3 = {0.5, -0.75, 0.125 * round};
        for (int i = 0; i < OUT; i++)
            out[i] = -1;
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                            AMP_CAPTURE(first, f3, part, at3, u, e5, f, i2, vout),
                                            {
            vout(0) = first;
            vout(1) = f3.x;
            vout(2) = f3.y;
            vout(3) = f3.z;
            vout(4) = part(0, 0, 0);
            vout(5) = part(2, 3, 1);
            vout(6) = part.get_extent()[0] * 100 + part.get_extent()[1] * 10 +
                      part.get_extent()[2];
            vout(7) = at3[0];
            vout(8) = at3[1];
            vout(9) = at3[2];
            vout(10) = u;
            vout(11) = e5[0] * 10000 + e5[1] * 1000 + e5[2] * 100 + e5[3] * 10 + e5[4];
            vout(12) = f;
            vout(13) = i2.x;
            vout(14) = i2.y;
            vout(19) = idx[0] + 1;
        }));
        /* The doubles (32 and 8 bytes) among fields of 16, 8 and 4. */
        if (has_double)
            assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                                AMP_CAPTURE(f3, d, vout, i2, d3), {
                vout(15) = (float)d + (f3.x - 1.5f) + (i2.x + 21);
                vout(16) = (float)d3.x;
                vout(17) = (float)d3.y;
                vout(18) = (float)d3.z;
            }));
        assert_amp_ok(amp_array_view_synchronize(vout));
        assert_true(out[0] == first);
        assert_true(out[1] == 1.5f && out[2] == -2.5f && out[3] == 3.25f);
        assert_true(out[4] == (1 * COLS + 2) * DEPTH + 3);
        assert_true(out[5] == (3 * COLS + 5) * DEPTH + 4);
        assert_true(out[6] == 342);
        assert_true(out[7] == 7 && out[8] == -8 && out[9] == 9 + round);
        assert_true(out[10] == 4000000000.0f);
        assert_true(out[11] == 23456);
        assert_true(out[12] == 0.375f);
        assert_true(out[13] == -21 && out[14] == 22);
        if (has_double) {
            assert_true(out[15] == 0.25f + round);
            assert_true(out[16] == 0.5f && out[17] == -0.75f && out[18] == 0.125f * round);
        }
        assert_true(out[19] == 1);
    }
    assert_amp_ok(amp_array_view_release(vout));
    assert_amp_ok(amp_array_view_release(part));
    assert_amp_ok(amp_array_view_release(whole));
}

/* The same in a padded tiled domain, whose original extent is among the
 * values, beside a texture's extent and an index of rank 5 (an int8). */
static void a_padded_domain_and_a_texture_have_their_values_too(void **state)
{
    (void)state;
    enum { N = 10, T = 4 };
    int texels[3 * 5], got[N];
    for (int i = 0; i < 3 * 5; i++)
        texels[i] = 100 + i;
    amp_texture *tex;
    amp_array_view *v;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(3, 5), texels, NULL, &tex));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), got, &v));
    int five[5] = {1, 2, 3, 4, 5};
    amp_index i5 = amp_index_nd(5, five);
    int k = 7;
    amp_tiled_extent padded = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(N), T));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(k, tex, i5, v), {
        int i = t_idx.global[0];
        v(i) = tex(i % 3, i % 5) * 1000 + tex.get_extent()[0] * 100 + tex.get_extent()[1] * 10 +
               i5[0] + i5[4] + k;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++)
        assert_int_equal(got[i], texels[(i % 3) * 5 + i % 5] * 1000 + 350 + 1 + 5 + 7);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(tex));
}

/* A helper whose parameter and local take such names too. */
AMP_FUNCTION(int, halve, (int half), {
    int uint = half / 2;
    return uint;
});

/* Names that C and C++ leave free and OpenCL C takes as types or
 * qualifiers: a body may declare them (C++ AMP code does: int half = n / 2),
 * and the kernel calls them by names of its own, locals and tile_static
 * arrays alike, in every statement that reads or writes them. */
static void a_body_may_name_its_variables_like_opencl_types(void **state)
{
    (void)state;
    int out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(8), 4), t_idx,
                                        AMP_CAPTURE(v, halve), {
        tile_static int half[4];
        int uint = t_idx.local[0], kernel = 2, constant[2] = {10, 20}, *private = &kernel;
        half[uint] = uint * 100;
        t_idx.barrier.wait();
        for (int float4 = 0; float4 < 1; float4++)
            uint += float4;
        unsigned int sampler_t = (unsigned int)*private;
        v[t_idx] = half[3 - uint] + constant[1] * kernel + (int)sampler_t + halve(8);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], (3 - i % 4) * 100 + 46);
    /* OpenCL C 2.0's words, and all and any, which a short vectors' ==
     * calls. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(v), {
        int pipe = 1, generic = 2, vec_step = 3, all = 4, any = 5;
        int_2 a = int_2(1, 1);
        v[idx] = pipe + generic + vec_step + all + any + (a == int_2(1, 1) ? 100 : 0);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(out[5], 115);
    assert_amp_ok(amp_array_view_release(v));
}

/* C the reader does not follow as declarations keeps its meaning: a
 * struct declared inside an expression keeps its members .r and .b (no
 * vector's lanes), a local named <view>_extent does not hide the view's
 * extent, and long long is C's 64 bits (OpenCL C reserves it for 128). */
static void c_declared_inside_expressions_keeps_its_meaning(void **state)
{
    (void)state;
    int out[8] = {0};
    float texels[4] = {1, 2, 3, 4};
    amp_texture *tx;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(4), texels, NULL, &tx));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), i, AMP_CAPTURE(o, tx), {
        int raw[4] = {1, 2, 3, 4};
        o[0] = ((struct { int x, r; }){1, 2}).r;
        o[1] = ((struct R { int x, y, z, b; } *)raw)->b;
        int o_extent[1] = {99}, tx_extent[1] = {98};
        o[2] = o.extent[0] + 0 * o_extent[0];
        o[3] = tx.extent[0] + 0 * tx_extent[0];
        unsigned long long all_ones = ~0ULL;
        AMP_DEFINE(WIDE long long)
        AMP_DEFINE(BIG 3000000000LL)
        WIDE big = BIG * 4;
        o[7] = (int)(sizeof(WIDE) + sizeof(BIG));
        o[4] = (int)sizeof(long long);
        o[5] = (int)(all_ones >> 60);
        o[6] = (int)(big / 1000);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    const int want[8] = {2, 4, 8, 4, 8, 15, 12000000, 16};
    for (int k = 0; k < 8; k++)
        assert_int_equal(out[k], want[k]);
    /* A capture named so is refused. */
    int o_extent = 1;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), i, AMP_CAPTURE(o, o_extent),
                                           { o[0] = o_extent; }),
                     AMP_ERROR_INVALID_ARGUMENT,
                     "capture 'o_extent' is the name the kernel gives the extent of the captured"
                     " view or texture it starts with");
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(tx));
}

/* C's float functions, which OpenCL C has not, are C++ AMP's precise_math
 * ones: code ported from C keeps sqrtf, fabsf, powf ... */
static void c_float_functions_are_precise_math(void **state)
{
    (void)state;
    float out[8] = {0};
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), i, AMP_CAPTURE(o), {
        float x = 2.25f;
        o[0] = sqrtf(x);
        o[1] = fabsf(-x);
        o[2] = powf(x, 2.0f);
        o[3] = floorf(x);
        o[4] = fminf(x, 1.5f);
        o[5] = atan2f(0.0f, -1.0f);
        o[6] = ldexpf(x, 2);
        AMP_DEFINE(ROOT(v) sqrtf(v))
        o[7] = fmodf(x, 1.0f) + ROOT(0.0f);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    const float want[8] = {1.5f, 2.25f, 5.0625f, 2.0f, 1.5f, atan2f(0.0f, -1.0f), 9.0f, 0.25f};
    for (int k = 0; k < 8; k++)
        assert_float_equal(out[k], want[k], 1e-6);
    assert_amp_ok(amp_array_view_release(o));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(c_float_functions_are_precise_math),
        cmocka_unit_test(c_declared_inside_expressions_keeps_its_meaning),
        cmocka_unit_test(atomics_on_global_memory_return_old_values),
        cmocka_unit_test(a_body_may_name_its_variables_like_opencl_types),
        cmocka_unit_test(atomics_on_tile_static_memory_count_the_tile),
        cmocka_unit_test(free_fences_compile_and_run),
        cmocka_unit_test(fast_and_precise_math_match_the_c_library),
        cmocka_unit_test(precise_math_in_double_where_the_device_has_it),
        cmocka_unit_test(the_pi_functions_and_phi_agree_on_the_host_and_in_kernels),
        cmocka_unit_test(a_body_using_double_on_a_device_without_it_is_unsupported),
        cmocka_unit_test(math_constants_are_floats_on_a_device_without_double),
        cmocka_unit_test(helper_functions_are_callable_and_can_call_each_other),
        cmocka_unit_test(preprocessor_lines_pass_through_the_macro),
        cmocka_unit_test(a_kernel_from_a_file_runs_with_its_directives),
        cmocka_unit_test(a_file_kernel_error_names_the_file_and_line),
        cmocka_unit_test(pad_rounds_up_and_guards_threads_past_the_extent),
        cmocka_unit_test(truncate_rounds_down_and_leaves_the_rest),
        cmocka_unit_test(tiled_index_has_the_static_tile_dims),
        cmocka_unit_test(a_rank_1_view_takes_an_integer_or_an_index),
        cmocka_unit_test(padded_threads_move_data_for_others),
        cmocka_unit_test(captured_values_of_every_width_arrive_in_their_places),
        cmocka_unit_test(a_padded_domain_and_a_texture_have_their_values_too),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
