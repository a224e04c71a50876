/*
 * tests/device/test_textures.c - textures (C++ AMP's texture and texture_view<const
 * T>): reads of every element type and rank in kernels, by index and by
 * whole index, channels, sampling, copies, the ledger, the kernel cache's
 * signature, bad input, device limits, a device without images, faults in
 * every OpenCL call of a creation, and textures after amp_shutdown().
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

/* A size property of the default device, read the way texture.c reads it. */
static size_t device_limit(cl_device_info what)
{
    amp_accelerator *acc;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    size_t v = 0;
    assert_int_equal(amp__clapi.GetDeviceInfo(amp__test_cl_of_accelerator(acc).device, what, sizeof v, &v, NULL), CL_SUCCESS);
    return v;
}

static amp_transfer_stats of(const amp_texture *t)
{
    amp_transfer_stats s;
    assert_amp_ok(amp_texture_get_transfers(t, &s));
    return s;
}

static void reads_of_rank_1_2_and_3_int_textures(void **state)
{
    (void)state;
    int line[5] = {10, 11, 12, 13, 14};
    int grid[3 * 4], cube[2 * 3 * 4];
    for (int i = 0; i < 12; i++)
        grid[i] = 100 + i;
    for (int i = 0; i < 24; i++)
        cube[i] = 1000 + i;
    amp_texture *t1, *t2, *t3;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(5), line, NULL, &t1));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(3, 4), grid, NULL, &t2));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_3d(2, 3, 4), cube, NULL, &t3));

    /* Rank 1: t1(i) and t1(idx), one past the end (0), and its extent. */
    int out1[5 * 3] = {0};
    amp_array_view *o1;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(5, 3), out1, &o1));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(5), idx, AMP_CAPTURE(t1, o1), {
        o1(idx[0], 0) = t1(idx[0]);
        o1(idx[0], 1) = t1(idx) + t1(idx[0] + 1);
        o1(idx[0], 2) = t1_extent[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(o1));
    for (int i = 0; i < 5; i++) {
        assert_int_equal(out1[i * 3], line[i]);
        assert_int_equal(out1[i * 3 + 1], line[i] + (i + 1 < 5 ? line[i + 1] : 0));
        assert_int_equal(out1[i * 3 + 2], 5);
    }

    /* Rank 2: t2(i, j) is row i, column j, as for a view. */
    int out2[12] = {0};
    amp_array_view *o2;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), out2, &o2));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(t2, o2), {
        o2(idx) = t2(idx) * 10 + t2(idx[0], idx[1] + 1) - t2(idx[0] - 1, idx[1]) +
                  t2_extent[0] * 100000 + t2_extent[1] * 10000000;
    }));
    assert_amp_ok(amp_array_view_synchronize(o2));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            int right = j + 1 < 4 ? grid[i * 4 + j + 1] : 0;
            int up = i > 0 ? grid[(i - 1) * 4 + j] : 0;
            assert_int_equal(out2[i * 4 + j],
                             grid[i * 4 + j] * 10 + right - up + 3 * 100000 + 4 * 10000000);
        }

    /* Rank 3, in a tiled kernel: t3(i, j, k) and t3(t_idx.global). */
    int out3[24] = {0};
    amp_array_view *o3;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 3, 4), out3, &o3));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_3d(2, 3, 4), 1, 3, 2),
                                        t_idx, AMP_CAPTURE(t3, o3), {
        int i = t_idx.global[0], j = t_idx.global[1], k = t_idx.global[2];
        o3(t_idx.global) = t3(t_idx.global) + t3(i, j, k) * 2 + t3(i + 2, j, k) +
                           t3_extent[0] * 10000 + t3_extent[1] * 100000 + t3_extent[2] * 1000000;
    }));
    assert_amp_ok(amp_array_view_synchronize(o3));
    for (int i = 0; i < 24; i++)
        assert_int_equal(out3[i], cube[i] * 3 + 2 * 10000 + 3 * 100000 + 4 * 1000000);

    assert_amp_ok(amp_array_view_release(o1));
    assert_amp_ok(amp_array_view_release(o2));
    assert_amp_ok(amp_array_view_release(o3));
    assert_amp_ok(amp_texture_release(t1));
    assert_amp_ok(amp_texture_release(t2));
    assert_amp_ok(amp_texture_release(t3));
}

static void reads_of_uint_and_float_textures(void **state)
{
    (void)state;
    /* Values an int would misread: the top bit set. */
    unsigned u[2 * 3] = {0x80000000u, 0xFFFFFFFFu, 7u, 0x80000001u, 1u, 0u};
    float f[2 * 2 * 2] = {0.5f, -1.25f, 3.0f, 1e-3f, -0.0f, 1e30f, 2.5f, -7.75f};
    amp_texture *tu, *tf;
    assert_amp_ok(amp_texture_create(AMP_UINT, 1, amp_extent_2d(2, 3), u, NULL, &tu));
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_3d(2, 2, 2), f, NULL, &tf));
    assert_int_equal(amp_texture_get_type(tu), AMP_UINT);
    assert_int_equal(amp_texture_get_type(tf), AMP_FLOAT);

    unsigned ou[6] = {0};
    float of3[8] = {0};
    amp_array_view *vu, *vf;
    assert_amp_ok(amp_array_view_create(AMP_UINT, amp_extent_2d(2, 3), ou, &vu));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_3d(2, 2, 2), of3, &vf));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 3), idx, AMP_CAPTURE(tu, vu), {
        vu(idx) = tu(idx) ^ 1u;
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(2, 2, 2), idx, AMP_CAPTURE(tf, vf), {
        vf(idx) = tf(idx[0], idx[1], idx[2]) * 2.0f;
    }));
    assert_amp_ok(amp_array_view_synchronize(vu));
    assert_amp_ok(amp_array_view_synchronize(vf));
    for (int i = 0; i < 6; i++)
        assert_true(ou[i] == (u[i] ^ 1u));
    for (int i = 0; i < 8; i++)
        assert_true(of3[i] == f[i] * 2.0f);
    assert_amp_ok(amp_array_view_release(vu));
    assert_amp_ok(amp_array_view_release(vf));
    assert_amp_ok(amp_texture_release(tu));
    assert_amp_ok(amp_texture_release(tf));
}

static void two_and_four_channels_read_as_vectors(void **state)
{
    (void)state;
    /* int_2 pairs (i, -i) and float_4 quads. */
    int pairs[4 * 2];
    float quads[3 * 4];
    for (int i = 0; i < 4; i++) {
        pairs[2 * i] = i + 1;
        pairs[2 * i + 1] = -(i + 1) * 100;
    }
    for (int i = 0; i < 12; i++)
        quads[i] = (float)(i + 1);
    amp_texture *t2, *t4;
    assert_amp_ok(amp_texture_create(AMP_INT, 2, amp_extent_1d(4), pairs, NULL, &t2));
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 4, amp_extent_2d(1, 3), quads, NULL, &t4));
    assert_int_equal(amp_texture_get_channels(t2), 2);
    assert_int_equal(amp_texture_get_channels(t4), 4);
    assert_int_equal(amp_texture_get_bytes(t2), sizeof pairs);
    assert_int_equal(amp_texture_get_bytes(t4), sizeof quads);

    int o2[4] = {0};
    float o4[3] = {0};
    amp_array_view *v2, *v4;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), o2, &v2));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(3), o4, &v4));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(t2, v2), {
        int2 p = t2(idx);
        v2(idx) = p.x * 10 + p.y;
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(3), idx, AMP_CAPTURE(t4, v4), {
        float4 q = t4(0, idx[0]);
        v4(idx) = q.x + q.y * 10.0f + q.z * 100.0f + q.w * 1000.0f;
    }));
    assert_amp_ok(amp_array_view_synchronize(v2));
    assert_amp_ok(amp_array_view_synchronize(v4));
    for (int i = 0; i < 4; i++)
        assert_int_equal(o2[i], (i + 1) * 10 - (i + 1) * 100);
    for (int i = 0; i < 3; i++) {
        const float *q = &quads[4 * i];
        assert_true(o4[i] == q[0] + q[1] * 10.0f + q[2] * 100.0f + q[3] * 1000.0f);
    }
    assert_amp_ok(amp_array_view_release(v2));
    assert_amp_ok(amp_array_view_release(v4));
    assert_amp_ok(amp_texture_release(t2));
    assert_amp_ok(amp_texture_release(t4));
}

static void sampling_filters_linearly_and_clamps_to_the_edges(void **state)
{
    (void)state;
    /* Half-texel positions weigh two texels 1/2 each, exact in the 8-bit
     * filter weights of GPUs too. */
    float line[4] = {0.0f, 10.0f, 20.0f, 30.0f};
    float grid[2 * 2] = {0.0f, 4.0f, 8.0f, 16.0f};
    amp_texture *t1, *t2;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(4), line, NULL, &t1));
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(2, 2), grid, NULL, &t2));
    float out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t1, t2, v), {
        v(0) = amp_sample(t1, 0.25f);  /* between texels 0 and 1 */
        v(1) = amp_sample(t1, 0.5f);   /* between 1 and 2 */
        v(2) = amp_sample(t1, 0.125f); /* the centre of texel 0 */
        v(3) = amp_sample(t1, -3.0f);  /* clamped to texel 0 */
        v(4) = amp_sample(t1, 7.0f);   /* clamped to texel 3 */
        v(5) = amp_sample(t2, 0.5f, 0.5f);   /* the mean of all four */
        v(6) = amp_sample(t2, 0.75f, 0.5f);  /* x across a row: column 1, rows 0 and 1 */
        v(7) = amp_sample(t2, 0.25f, 0.75f); /* column 0, row 1 */
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_true(out[0] == 5.0f);
    assert_true(out[1] == 15.0f);
    assert_true(out[2] == 0.0f);
    assert_true(out[3] == 0.0f);
    assert_true(out[4] == 30.0f);
    assert_true(out[5] == 7.0f);
    assert_true(out[6] == 10.0f);
    assert_true(out[7] == 8.0f);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t1));
    assert_amp_ok(amp_texture_release(t2));
}

static void the_ledger_counts_a_texture_once_and_views_as_usual(void **state)
{
    (void)state;
    int a[16 * 16], b[16 * 16] = {0};
    for (int i = 0; i < 16 * 16; i++)
        a[i] = i * 3;
    amp_transfer_reset_stats();
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(16, 16), a, NULL, &t));
    amp_transfer_stats g = transfers_now();
    assert_int_equal(g.uploads, 1);
    assert_int_equal(g.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(g.bytes[AMP_TO_DEVICE][AMP_REASON_COPY], sizeof a);
    assert_int_equal(g.downloads, 0);

    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(16, 16), b, &v));
    for (int k = 0; k < 3; k++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(16, 16), idx, AMP_CAPTURE(t, v), {
            v(idx) += t(idx);
        }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 16 * 16; i++)
        assert_int_equal(b[i], 3 * a[i]);
    /* Three kernels: the texture never moves again; the view moves once
     * each way. */
    g = transfers_now();
    assert_int_equal(g.uploads, 2);
    assert_int_equal(g.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(g.count[AMP_TO_DEVICE][AMP_REASON_KERNEL], 1);
    assert_int_equal(g.bytes[AMP_TO_DEVICE][AMP_REASON_KERNEL], sizeof b);
    assert_int_equal(g.downloads, 1);
    assert_int_equal(g.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 1);
    amp_transfer_stats s = of(t);
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, sizeof a);
    assert_int_equal(s.downloads, 0);

    /* Copies each way: one transfer each, reason copy. */
    int back[16 * 16] = {0};
    assert_amp_ok(amp_texture_copy_to_host(t, back, sizeof back));
    assert_memory_equal(back, a, sizeof a);
    for (int i = 0; i < 16 * 16; i++)
        back[i] = -i;
    assert_amp_ok(amp_texture_copy_from_host(t, back, sizeof back));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(16, 16), idx, AMP_CAPTURE(t, v), {
        v(idx) = t(idx);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_memory_equal(b, back, sizeof back);
    s = of(t);
    assert_int_equal(s.uploads, 2);
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 2);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_COPY], 1);
    assert_int_equal(s.download_bytes, sizeof a);
    g = transfers_now();
    assert_int_equal(g.count[AMP_TO_DEVICE][AMP_REASON_COPY], 2);
    assert_int_equal(g.count[AMP_TO_HOST][AMP_REASON_COPY], 1);
    assert_int_equal(g.uploads, 3);
    assert_int_equal(g.downloads, 3);
    assert_int_equal(g.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 2);

    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t));
}

/* One call site, so that the cache's signature alone tells the kernels
 * apart. */
static amp_status first_texel(amp_texture *t, amp_array_view *out)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, out), {
        out(0) = (float)t(0);
    });
}

static void the_kernel_cache_tells_texture_types_and_channels_apart(void **state)
{
    (void)state;
    int i1[2] = {-5, 0};
    unsigned u1[2] = {6, 0};
    float f1[2] = {7.5f, 0};
    float result = 0;
    amp_texture *ti, *tu, *tf, *ti2;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(2), i1, NULL, &ti));
    assert_amp_ok(amp_texture_create(AMP_UINT, 1, amp_extent_1d(2), u1, NULL, &tu));
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(2), f1, NULL, &tf));
    assert_amp_ok(amp_texture_create(AMP_INT, 2, amp_extent_1d(1), i1, NULL, &ti2));
    amp_array_view *out;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(1), &result, &out));
    amp_kernel_stats before = kernels_now();
    assert_amp_ok(first_texel(ti, out));
    assert_amp_ok(amp_array_view_synchronize(out));
    assert_true(result == -5.0f);
    assert_amp_ok(first_texel(tu, out));
    assert_amp_ok(amp_array_view_synchronize(out));
    assert_true(result == 6.0f);
    assert_amp_ok(first_texel(tf, out));
    assert_amp_ok(amp_array_view_synchronize(out));
    assert_true(result == 7.5f);
    amp_kernel_stats after = kernels_now();
    assert_int_equal(after.builds - before.builds, 3);
    /* The int texture again: found in the cache. */
    assert_amp_ok(first_texel(ti, out));
    assert_int_equal(kernels_now().builds, after.builds);
    assert_int_equal(kernels_now().cache_hits, after.cache_hits + 1);
    /* Two channels: another kernel, in which (float)t(0) is a conversion
     * from a vector, which OpenCL C refuses. */
    amp_status st = first_texel(ti2, out);
    assert_int_equal(st, AMP_ERROR_KERNEL_BUILD);
    assert_amp_ok(amp_array_view_release(out));
    assert_amp_ok(amp_texture_release(ti));
    assert_amp_ok(amp_texture_release(tu));
    assert_amp_ok(amp_texture_release(tf));
    assert_amp_ok(amp_texture_release(ti2));
}

AMP_FUNCTION(int, texel_of, (texture<int, 1> t, int i), { return t(i); });

static void a_wide_1d_texture_is_folded_into_rows(void **state)
{
    (void)state;
    /* Two whole rows of the 2D image and 3 texels of a third. */
    size_t width = device_limit(CL_DEVICE_IMAGE2D_MAX_WIDTH);
    int n = (int)width * 2 + 3;
    int *data = malloc((size_t)n * sizeof *data);
    int *out = calloc((size_t)n, sizeof *out);
    int *back = calloc((size_t)n, sizeof *back);
    assert_non_null(data);
    assert_non_null(out);
    assert_non_null(back);
    for (int i = 0; i < n; i++)
        data[i] = i * 7 - 3;
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(n), data, NULL, &t));
    assert_true(amp__test_texture_image(t).folded);
    assert_int_equal(of(t).upload_bytes, (size_t)n * sizeof *data);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(n), out, &v));
    /* Each texel, the next (0 past the end, though the image's last row
     * goes on), and at 0 one before the start and the extent. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(t, v), {
        v(idx) = t(idx) + t(idx[0] + 1) * 2 + (idx[0] == 0 ? t(-1) + t_extent[0] : 0);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < n; i++) {
        int next = i + 1 < n ? data[i + 1] : 0;
        assert_int_equal(out[i], data[i] + next * 2 + (i == 0 ? n : 0));
    }
    /* A helper's texture<int, 1> is a 1D image: the folded one is refused,
     * with the reason. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, v, texel_of),
                                           { v(idx) = texel_of(t, 0); }),
                     AMP_ERROR_KERNEL_BUILD, "kept in the rows of a 2D image, which a helper cannot take");
    /* Copies take the two regions, and give back the texels in order. */
    assert_amp_ok(amp_texture_copy_to_host(t, back, (size_t)n * sizeof *back));
    assert_memory_equal(back, data, (size_t)n * sizeof *data);
    assert_int_equal(of(t).download_bytes, (size_t)n * sizeof *data);

    /* Sampling would filter across the fold: it does not compile, and
     * says why. A float texture of exactly the 1D width is a 1D image. */
    float *f = calloc((size_t)n, sizeof *f);
    assert_non_null(f);
    amp_texture *tf, *narrow;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(n), f, NULL, &tf));
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d((int)width), f, NULL, &narrow));
    assert_false(amp__test_texture_image(narrow).folded);
    amp_array_view *fv;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(n), f, &fv));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(tf, fv), {
                         fv(0) = amp_sample(tf, 0.5f);
                     }),
                     AMP_ERROR_KERNEL_BUILD,
                     "amp_sample_needs_a_texture_within_the_1d_image_width_limit");
    assert_amp_ok(amp_array_view_release(fv));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(amp_texture_release(tf));
    assert_amp_ok(amp_texture_release(narrow));
    free(data);
    free(out);
    free(back);
    free(f);
}

static void bad_input_gets_a_status_and_a_message(void **state)
{
    (void)state;
    int data[8] = {0};
    amp_texture *t = (amp_texture *)data; /* must be set to NULL on failure */
    amp_extent e = amp_extent_1d(8);
    assert_amp_fails(amp_texture_create(AMP_INT, 1, e, data, NULL, NULL),
                     AMP_ERROR_INVALID_ARGUMENT, "out is NULL");
    assert_amp_fails(amp_texture_create_bits(AMP_INT, 1, e, 12, data, sizeof data, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "12 bits per scalar element");
    assert_null(t);
    assert_amp_fails(amp_texture_create_bits(AMP_UNORM, 1, e, 32, NULL, 0, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "a texture of unorm takes 8 or 16");
    assert_amp_fails(amp_texture_create_bits(AMP_INT, 1, e, 8, data, sizeof data, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT,
                     "data_bytes is 32, and 8 texels of 1 channel of 8 bits take 8");
    assert_amp_fails(amp_texture_create_bits(AMP_INT, 1, e, 8, NULL, 8, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "without data it is 0");
    assert_amp_fails(amp_texture_create_bits(AMP_INT, 1, e, 200, NULL, 0, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "200 bits per scalar element");
    /* 0 bits: the type's default, 16 for unorm. */
    assert_amp_ok(amp_texture_create_bits(AMP_UNORM, 1, e, 0, NULL, 0, NULL, &t));
    assert_int_equal(amp_texture_get_bits(t), 16);
    assert_amp_ok(amp_texture_release(t));
    t = (amp_texture *)data;
    assert_amp_fails(amp_texture_create((amp_elem_type)0, 1, e, data, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "element type 0");
    assert_amp_fails(amp_texture_create((amp_elem_type)9, 1, e, data, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "element type 9");
    assert_amp_fails(amp_texture_create(AMP_DOUBLE, 1, e, data, NULL, &t),
                     AMP_ERROR_UNSUPPORTED_FEATURE, "no 64-bit");
    assert_amp_fails(amp_texture_create(AMP_INT, 3, e, data, NULL, &t), AMP_ERROR_INVALID_ARGUMENT,
                     "3 channels");
    assert_amp_fails(amp_texture_create(AMP_INT, 0, e, data, NULL, &t), AMP_ERROR_INVALID_ARGUMENT,
                     "0 channels");
    amp_extent rank0 = {0, {0, 0, 0}}, rank4 = {4, {1, 1, 1}};
    assert_amp_fails(amp_texture_create(AMP_INT, 1, rank0, data, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "rank 0");
    assert_amp_fails(amp_texture_create(AMP_INT, 1, rank4, data, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "rank 4");
    assert_amp_fails(amp_texture_create(AMP_INT, 1, amp_extent_2d(2, 0), data, NULL, &t),
                     AMP_ERROR_INVALID_ARGUMENT, "dimension 1 of the extent is 0");
    assert_null(t);

    /* Handles: NULL and released, in every call. The live texture and the
     * view are made first, so that no allocation after the release can
     * take the released texture's address and make the handle live again. */
    float out = 0;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(1), &out, &v));
    amp_texture *gone;
    assert_amp_ok(amp_texture_create(AMP_INT, 2, amp_extent_1d(4), data, NULL, &t));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, e, data, NULL, &gone));
    assert_amp_ok(amp_texture_release(gone));
    assert_amp_ok(amp_texture_release(NULL));
    assert_amp_fails(amp_texture_release(gone), AMP_ERROR_INVALID_ARGUMENT, "already released");
    assert_amp_fails(amp_texture_copy_to_host(gone, data, sizeof data), AMP_ERROR_INVALID_ARGUMENT,
                     "already released");
    assert_amp_fails(amp_texture_copy_from_host(NULL, data, sizeof data),
                     AMP_ERROR_INVALID_ARGUMENT, "NULL");
    amp_transfer_stats s;
    assert_amp_fails(amp_texture_get_transfers(gone, &s), AMP_ERROR_INVALID_ARGUMENT,
                     "already released");
    assert_int_equal(amp_texture_get_extent(gone).rank, 0);
    assert_int_equal(amp_texture_get_type(gone), 0);
    assert_int_equal(amp_texture_get_channels(NULL), 0);
    assert_int_equal(amp_texture_get_bytes(gone), 0);
    assert_null(amp_texture_get_accelerator_view(gone));
    amp_texture *none = NULL;
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(none, v),
                                           { v(0) = none(0).x; }),
                     AMP_ERROR_INVALID_ARGUMENT, "texture 'none' is NULL");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(gone, v),
                                           { v(0) = gone(0); }),
                     AMP_ERROR_INVALID_ARGUMENT, "texture 'gone' is released");

    /* Copies of the wrong size, or to NULL, move nothing. */
    assert_amp_fails(amp_texture_copy_to_host(t, data, sizeof data - 4),
                     AMP_ERROR_INVALID_ARGUMENT, "has 28 bytes and the texture 32");
    assert_amp_fails(amp_texture_copy_to_host(t, NULL, sizeof data), AMP_ERROR_INVALID_ARGUMENT,
                     "NULL");
    assert_amp_fails(amp_texture_get_transfers(t, NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "out is NULL");
    s = of(t);
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.downloads, 0);
    amp_extent got = amp_texture_get_extent(t);
    assert_int_equal(got.rank, 1);
    assert_int_equal(got.dims[0], 4);
    assert_non_null(amp_texture_get_accelerator_view(t));

    /* A texel is a value: assigning to one does not compile, and the
     * message points at this file. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, v), {
                         t(0).x = 1;
                         v(0) = 1.0f;
                     }),
                     AMP_ERROR_KERNEL_BUILD, "test_textures.c");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, v),
                                           { v(0) = t(0, 1).x; }),
                     AMP_ERROR_KERNEL_BUILD, "test_textures.c");
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t));
}

static void extents_over_the_device_limits_are_refused_by_name(void **state)
{
    (void)state;
    int one = 0;
    amp_texture *t = NULL;
    size_t w2 = device_limit(CL_DEVICE_IMAGE2D_MAX_WIDTH);
    size_t h2 = device_limit(CL_DEVICE_IMAGE2D_MAX_HEIGHT);
    size_t w3 = device_limit(CL_DEVICE_IMAGE3D_MAX_WIDTH);
    size_t h3 = device_limit(CL_DEVICE_IMAGE3D_MAX_HEIGHT);
    size_t d3 = device_limit(CL_DEVICE_IMAGE3D_MAX_DEPTH);
    char limit[64];
    /* The limits are checked before any memory is touched, so one int of
     * data is enough. */
    snprintf(limit, sizeof limit, "at most %zu (CL_DEVICE_IMAGE2D_MAX_WIDTH)", w2);
    assert_amp_fails(amp_texture_create(AMP_INT, 1, amp_extent_2d(1, (int)w2 + 1), &one, NULL, &t),
                     AMP_ERROR_DEVICE_LIMIT, limit);
    snprintf(limit, sizeof limit, "at most %zu (CL_DEVICE_IMAGE2D_MAX_HEIGHT)", h2);
    assert_amp_fails(amp_texture_create(AMP_INT, 1, amp_extent_2d((int)h2 + 1, 1), &one, NULL, &t),
                     AMP_ERROR_DEVICE_LIMIT, limit);
    snprintf(limit, sizeof limit, "at most %zu (CL_DEVICE_IMAGE3D_MAX_WIDTH)", w3);
    assert_amp_fails(
        amp_texture_create(AMP_FLOAT, 4, amp_extent_3d(1, 1, (int)w3 + 1), &one, NULL, &t),
        AMP_ERROR_DEVICE_LIMIT, limit);
    snprintf(limit, sizeof limit, "at most %zu (CL_DEVICE_IMAGE3D_MAX_HEIGHT)", h3);
    assert_amp_fails(
        amp_texture_create(AMP_FLOAT, 4, amp_extent_3d(1, (int)h3 + 1, 1), &one, NULL, &t),
        AMP_ERROR_DEVICE_LIMIT, limit);
    snprintf(limit, sizeof limit, "at most %zu (CL_DEVICE_IMAGE3D_MAX_DEPTH)", d3);
    assert_amp_fails(
        amp_texture_create(AMP_UINT, 1, amp_extent_3d((int)d3 + 1, 1, 1), &one, NULL, &t),
        AMP_ERROR_DEVICE_LIMIT, limit);
    if ((uint64_t)w2 * h2 < (uint64_t)INT32_MAX) {
        snprintf(limit, sizeof limit, "at most %zu x %zu = %llu", w2, h2,
                 (unsigned long long)w2 * h2);
        assert_amp_fails(
            amp_texture_create(AMP_INT, 1, amp_extent_1d((int)(w2 * h2) + 1), &one, NULL, &t),
            AMP_ERROR_DEVICE_LIMIT, limit);
    }
    assert_null(t);
    /* Nothing moved. */
    amp_transfer_reset_stats();
    assert_amp_fails(amp_texture_create(AMP_INT, 1, amp_extent_2d(1, (int)w2 + 1), &one, NULL, &t),
                     AMP_ERROR_DEVICE_LIMIT, "CL_DEVICE_IMAGE2D_MAX_WIDTH");
    assert_int_equal(transfers_now().uploads, 0);
}

/* ---- A device without images, and one without R/RG formats ---- */

static cl_int(CL_API_CALL *real_get_device_info)(cl_device_id, cl_device_info, size_t, void *,
                                                 size_t *);
static cl_int(CL_API_CALL *real_get_formats)(cl_context, cl_mem_flags, cl_mem_object_type, cl_uint,
                                             cl_image_format *, cl_uint *);

static cl_int CL_API_CALL no_image_support(cl_device_id d, cl_device_info what, size_t size,
                                           void *value, size_t *ret)
{
    if (what == CL_DEVICE_IMAGE_SUPPORT && value && size >= sizeof(cl_bool)) {
        *(cl_bool *)value = CL_FALSE;
        if (ret)
            *ret = sizeof(cl_bool);
        return CL_SUCCESS;
    }
    return real_get_device_info(d, what, size, value, ret);
}

/* Only the RGBA formats, the ones OpenCL requires of every device with
 * images; or none at all. */
static int formats_offered_rgba; /* 1: RGBA only; 0: none */
static cl_int CL_API_CALL fewer_formats(cl_context c, cl_mem_flags f, cl_mem_object_type type,
                                        cl_uint n, cl_image_format *formats, cl_uint *nret)
{
    cl_uint all = 0;
    cl_int rc = real_get_formats(c, f, type, 0, NULL, &all);
    if (rc != CL_SUCCESS)
        return rc;
    cl_image_format *list = calloc(all ? all : 1, sizeof *list);
    if (!list)
        return CL_OUT_OF_HOST_MEMORY;
    rc = real_get_formats(c, f, type, all, list, NULL);
    cl_uint kept = 0;
    for (cl_uint i = 0; rc == CL_SUCCESS && i < all; i++)
        if (formats_offered_rgba && list[i].image_channel_order == CL_RGBA) {
            if (formats && kept < n)
                formats[kept] = list[i];
            kept++;
        }
    free(list);
    if (nret)
        *nret = kept;
    return rc;
}

static void a_device_without_images_says_so(void **state)
{
    (void)state;
    int data[4] = {1, 2, 3, 4};
    amp_texture *t = NULL;
    amp_accelerator *acc;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    real_get_device_info = amp__clapi.GetDeviceInfo;
    amp__clapi.GetDeviceInfo = no_image_support;
    amp_status st = amp_texture_create(AMP_INT, 1, amp_extent_1d(4), data, NULL, &t);
    amp__clapi.GetDeviceInfo = real_get_device_info;
    assert_int_equal(st, AMP_ERROR_UNSUPPORTED_FEATURE);
    assert_non_null(strstr(amp_last_error(), "CL_DEVICE_IMAGE_SUPPORT is false"));
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    assert_non_null(strstr(amp_last_error(), info.description));
    assert_null(t);
    /* The same device with its images back. */
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(4), data, NULL, &t));
    assert_amp_ok(amp_texture_release(t));
}

static void a_format_the_device_lacks_is_stored_in_four_channels(void **state)
{
    (void)state;
    int data[8] = {1, -2, 3, -4, 5, -6, 7, -8};
    amp_texture *t = NULL, *none = NULL;
    real_get_formats = amp__clapi.GetSupportedImageFormats;
    amp__clapi.GetSupportedImageFormats = fewer_formats;
    formats_offered_rgba = 1;
    amp_status one = amp_texture_create(AMP_INT, 1, amp_extent_2d(2, 4), data, NULL, &t);
    formats_offered_rgba = 0;
    amp_status st = amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(8), data, NULL, &none);
    char message[512];
    snprintf(message, sizeof message, "%s", amp_last_error());
    amp__clapi.GetSupportedImageFormats = real_get_formats;

    /* No format at all: refused, by name. */
    assert_int_equal(st, AMP_ERROR_UNSUPPORTED_FEATURE);
    assert_non_null(strstr(message, "no image1d_t image of 32-bit float, with 1 channel or with 4"));
    assert_null(none);

    /* RGBA only: the one-channel texture is stored in four, and reads and
     * copies are the same; the ledger counts the bytes that moved. */
    assert_amp_ok(one);
    assert_int_equal(amp__test_texture_image(t).stored_channels, 4);
    assert_int_equal(amp_texture_get_bytes(t), sizeof data);
    assert_int_equal(of(t).upload_bytes, 4 * sizeof data);
    int out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(2, 4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 4), idx, AMP_CAPTURE(t, v), {
        v(idx) = t(idx) * 3;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], data[i] * 3);
    int back[8] = {0};
    assert_amp_ok(amp_texture_copy_to_host(t, back, sizeof back));
    assert_memory_equal(back, data, sizeof data);
    assert_int_equal(of(t).download_bytes, 4 * sizeof data);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t));
}

/* Every OpenCL call of a creation and a copy, made to fail in turn: each
 * gives a status, a NULL handle, and moves nothing into the ledger. */
static void every_failing_opencl_call_gives_a_status(void **state)
{
    (void)state;
    int data[6] = {1, 2, 3, 4, 5, 6};
    amp_texture *t = NULL;
    /* Make sure the device is listed and its queue made, so that the
     * calls counted are the texture's own. */
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(2, 3), data, NULL, &t));
    assert_amp_ok(amp_texture_release(t));
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(2, 3), data, NULL, &t));
    long calls = amp__test_calls_counted();
    assert_amp_ok(amp_texture_release(t));
    assert_true(calls >= 6); /* device queries, formats (2), image, write */
    for (long n = 1; n <= calls; n++) {
        amp_transfer_reset_stats();
        amp__test_inject_fault(n, CL_OUT_OF_RESOURCES);
        t = (amp_texture *)data;
        amp_status st = amp_texture_create(AMP_INT, 1, amp_extent_2d(2, 3), data, NULL, &t);
        amp__test_inject_fault(0, CL_SUCCESS);
        if (st == AMP_OK)
            fail_msg("call %ld of %ld failed and the texture was made", n, calls);
        assert_null(t);
        assert_true(strlen(amp_last_error()) > 0);
        assert_int_equal(transfers_now().uploads, 0);
    }
    /* The copy back's one call. */
    int back[6] = {0};
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(2, 3), data, NULL, &t));
    amp__test_inject_fault(1, CL_OUT_OF_RESOURCES);
    amp_status st = amp_texture_copy_to_host(t, back, sizeof back);
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_int_equal(st, AMP_ERROR_OUT_OF_MEMORY);
    assert_non_null(strstr(amp_last_error(), "clEnqueueReadImage"));
    assert_int_equal(of(t).downloads, 0);
    assert_amp_ok(amp_texture_copy_to_host(t, back, sizeof back));
    assert_memory_equal(back, data, sizeof data);
    assert_amp_ok(amp_texture_release(t));
}

static void a_texture_after_shutdown_reports_its_data_lost(void **state)
{
    (void)state;
    int data[4] = {1, 2, 3, 4};
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(4), data, NULL, &t));
    amp_shutdown();
    int back[4];
    assert_amp_fails(amp_texture_copy_to_host(t, back, sizeof back),
                     AMP_ERROR_ACCELERATOR_VIEW_REMOVED, "lost");
    assert_null(amp_texture_get_accelerator_view(t));
    int out = 0;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(1), &out, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, v),
                                           { v(0) = t(0); }),
                     AMP_ERROR_ACCELERATOR_VIEW_REMOVED, "texture 't' lost its data");
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_of_rank_1_2_and_3_int_textures),
        cmocka_unit_test(reads_of_uint_and_float_textures),
        cmocka_unit_test(two_and_four_channels_read_as_vectors),
        cmocka_unit_test(sampling_filters_linearly_and_clamps_to_the_edges),
        cmocka_unit_test(the_ledger_counts_a_texture_once_and_views_as_usual),
        cmocka_unit_test(the_kernel_cache_tells_texture_types_and_channels_apart),
        cmocka_unit_test(a_wide_1d_texture_is_folded_into_rows),
        cmocka_unit_test(bad_input_gets_a_status_and_a_message),
        cmocka_unit_test(extents_over_the_device_limits_are_refused_by_name),
        cmocka_unit_test(a_device_without_images_says_so),
        cmocka_unit_test(a_format_the_device_lacks_is_stored_in_four_channels),
        cmocka_unit_test(every_failing_opencl_call_gives_a_status),
        cmocka_unit_test(a_texture_after_shutdown_reports_its_data_lost),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    amp_shutdown();
    return failed;
}
