/*
 * tests/device/test_data_model.c - C++ AMP's data model: sections, projections,
 * view_as, reinterpret_as, extent-only views, arrays, copies in every
 * direction and their asynchronous forms, with exact ledger counts: only
 * the bytes that are stale and needed move (bytes moved / bytes necessary
 * = 1.00).
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

#define R 8
#define C 8

static amp_transfer_stats of(const amp_array_view *v)
{
    amp_transfer_stats s;
    assert_amp_ok(amp_array_view_get_transfers(v, &s));
    return s;
}

/* Fill m with value + element number, on the device. */
static void fill_on_device(amp_array_view *m, int value)
{
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(m), idx, AMP_CAPTURE(m, value), {
        m(idx) = value + idx[0] * 8 + idx[1];
    }));
}

static void a_three_kernel_pipeline_moves_data_once_each_way(void **state)
{
    (void)state;
    int data[R * C];
    for (int i = 0; i < R * C; i++)
        data[i] = i;
    amp_array_view *m;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));
    for (int k = 0; k < 3; k++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(m),
                                            { m(idx) += 1; }));
    assert_amp_ok(amp_array_view_synchronize(m));
    amp_transfer_stats s = of(m);
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, sizeof data);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, sizeof data);
    assert_int_equal(data[R * C - 1], R * C - 1 + 3);
    assert_amp_ok(amp_array_view_release(m));
}

static void a_section_synchronizes_only_its_bytes(void **state)
{
    (void)state;
    int data[R * C] = {0};
    amp_array_view *m, *sec;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));
    assert_amp_ok(amp_array_view_discard_data(m));
    fill_on_device(m, 100);
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(1, 2), amp_extent_2d(3, 4), &sec));
    assert_amp_ok(amp_array_view_synchronize(sec));
    amp_transfer_stats s = of(m);
    assert_int_equal(s.uploads, 0); /* discarded */
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, 3 * 4 * sizeof(int));
    /* The section's elements are there; the rest is not yet. */
    assert_int_equal(data[1 * C + 2], 100 + 1 * 8 + 2);
    assert_int_equal(data[3 * C + 5], 100 + 3 * 8 + 5);
    assert_int_equal(data[0], 0);
    /* The parent then moves the rest, and only the rest. */
    assert_amp_ok(amp_array_view_synchronize(m));
    s = of(m);
    assert_int_equal(s.download_bytes, sizeof data);
    assert_int_equal(data[0], 100);
    assert_amp_ok(amp_array_view_release(sec));
    assert_amp_ok(amp_array_view_release(m));
}

static void a_section_uploads_only_its_bytes_and_kernels_see_its_indices(void **state)
{
    (void)state;
    int data[R * C];
    for (int i = 0; i < R * C; i++)
        data[i] = i;
    amp_array_view *m, *sec;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(2, 1), amp_extent_2d(2, 3), &sec));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 3), idx, AMP_CAPTURE(sec), {
        sec(idx) = -sec(idx);
    }));
    amp_transfer_stats s = of(m);
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, 2 * 3 * sizeof(int));
    assert_amp_ok(amp_array_view_synchronize(m));
    s = of(m);
    assert_int_equal(s.download_bytes, 2 * 3 * sizeof(int)); /* only what the kernel wrote */
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int inside = r >= 2 && r < 4 && c >= 1 && c < 4;
            assert_int_equal(data[r * C + c], inside ? -(r * C + c) : r * C + c);
        }
    assert_amp_ok(amp_array_view_release(sec));
    assert_amp_ok(amp_array_view_release(m));
}

static void overlapping_sections_see_each_others_writes(void **state)
{
    (void)state;
    int data[R * C] = {0};
    amp_array_view *m, *a, *b;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(0, 0), amp_extent_2d(4, 4), &a));
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(2, 2), amp_extent_2d(4, 4), &b));
    /* A kernel writes a; the host then reads b, whose corner overlaps a. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), idx, AMP_CAPTURE(a),
                                        { a(idx) = 1; }));
    const int *pb;
    assert_amp_ok(amp_array_view_data_const(b, (const void **)&pb));
    assert_int_equal(data[2 * C + 2], 1); /* in both */
    assert_int_equal(data[3 * C + 3], 1);
    assert_int_equal(data[4 * C + 4], 0); /* only in b */
    /* The host writes through b; a kernel reading a sees it. */
    int *wb;
    assert_amp_ok(amp_array_view_data(b, (void **)&wb));
    wb[3 * C + 3 - (2 * C + 2)] = 7; /* element (3, 3) of the parent */
    int out[16] = {0};
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 4), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), idx, AMP_CAPTURE(a, o),
                                        { o(idx) = a(idx); }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_int_equal(out[3 * 4 + 3], 7);
    assert_int_equal(out[0], 1);
    /* A second kernel through b then a host read of a. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), idx, AMP_CAPTURE(b),
                                        { b(idx) += 10; }));
    assert_amp_ok(amp_array_view_synchronize(a));
    assert_int_equal(data[2 * C + 2], 11);
    assert_int_equal(data[3 * C + 3], 17);
    assert_int_equal(data[1 * C + 1], 1);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_array_view_release(a));
    assert_amp_ok(amp_array_view_release(b));
    assert_amp_ok(amp_array_view_release(m));
    assert_int_equal(data[5 * C + 5], 10); /* b's other corner, back with the last release */
}

static void a_projection_is_a_row(void **state)
{
    (void)state;
    float data[3 * 4 * 5];
    for (int i = 0; i < 60; i++)
        data[i] = (float)i;
    amp_array_view *cube, *slice, *row;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_3d(3, 4, 5), data, &cube));
    assert_amp_ok(amp_array_view_project(cube, 1, &slice));
    assert_int_equal(amp_array_view_get_extent(slice).rank, 2);
    assert_amp_ok(amp_array_view_project(slice, 2, &row));
    assert_int_equal(amp_array_view_get_extent(row).dims[0], 5);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(5), idx, AMP_CAPTURE(row),
                                        { row(idx) *= 2; }));
    assert_amp_ok(amp_array_view_synchronize(cube));
    amp_transfer_stats s = of(cube);
    assert_int_equal(s.upload_bytes, 5 * sizeof(float));
    assert_int_equal(s.download_bytes, 5 * sizeof(float));
    for (int i = 0; i < 60; i++) {
        int in_row = i >= 1 * 20 + 2 * 5 && i < 1 * 20 + 3 * 5;
        assert_true(data[i] == (float)(in_row ? 2 * i : i));
    }
    /* A failed call clears its out: a handle of its own, not slice's. */
    amp_array_view *none = row;
    assert_amp_fails(amp_array_view_project(row, 0, &none), AMP_ERROR_INVALID_ARGUMENT,
                     "rank 1");
    assert_null(none);
    assert_amp_ok(amp_array_view_release(row));
    assert_amp_ok(amp_array_view_release(slice));
    assert_amp_ok(amp_array_view_release(cube));
}

static void view_as_and_reinterpret_as_share_the_bytes(void **state)
{
    (void)state;
    float data[12];
    for (int i = 0; i < 12; i++)
        data[i] = (float)i;
    amp_array_view *flat, *grid, *bits;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(12), data, &flat));
    assert_amp_ok(amp_array_view_view_as(flat, amp_extent_2d(3, 4), &grid));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(grid),
                                        { grid(idx) = idx[0] * 10 + idx[1]; }));
    assert_amp_ok(amp_array_view_reinterpret_as(flat, AMP_UINT, &bits));
    unsigned out[12];
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_UINT, amp_extent_1d(12), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(12), idx, AMP_CAPTURE(bits, o),
                                        { o(idx) = bits(idx) >> 23; })); /* the exponent */
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_int_equal(out[4 * 1 + 1], 127 + 3); /* 11.0f = 1.375 * 2^3 */
    assert_int_equal(out[0], 0);                /* 0.0f */
    /* Nothing went to the host on the way: it moved down once, when the
     * host asked, only through o. */
    assert_int_equal(of(flat).downloads, 0);
    amp_array_view *three, *refused;
    assert_amp_fails(amp_array_view_view_as(flat, amp_extent_2d(5, 5), &refused),
                     AMP_ERROR_INVALID_ARGUMENT, "as many");
    assert_amp_ok(amp_array_view_section(flat, amp_index_1d(1), amp_extent_1d(3), &three));
    assert_amp_fails(amp_array_view_reinterpret_as(three, AMP_DOUBLE, &refused),
                     AMP_ERROR_INVALID_ARGUMENT, "whole number");
    assert_null(refused);
    assert_amp_ok(amp_array_view_release(three));
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_array_view_release(bits));
    assert_amp_ok(amp_array_view_release(grid));
    assert_amp_ok(amp_array_view_release(flat));
    assert_true(data[5] == 11.0f);
}

static void discard_applies_to_a_section_and_lasts_until_a_write(void **state)
{
    (void)state;
    int data[R * C];
    for (int i = 0; i < R * C; i++)
        data[i] = i;
    amp_array_view *m, *top;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(0, 0), amp_extent_2d(2, C), &top));
    assert_amp_ok(amp_array_view_discard_data(top));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(m),
                                        { m(idx) += 1; }));
    /* The discarded rows were not uploaded. */
    assert_int_equal(of(m).upload_bytes, (R - 2) * C * sizeof(int));
    /* The write ended the discard: the host gets every row back. */
    assert_amp_ok(amp_array_view_synchronize(m));
    assert_int_equal(of(m).download_bytes, sizeof data);
    assert_int_equal(data[R * C - 1], R * C);
    assert_amp_ok(amp_array_view_release(top));
    assert_amp_ok(amp_array_view_release(m));
}

static void a_const_view_is_never_copied_back(void **state)
{
    (void)state;
    const int in[16] = {1, 2, 3};
    int out[16] = {0};
    amp_array_view *vin, *vout;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(16), in, &vin));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), out, &vout));
    assert_amp_ok(amp_array_view_discard_data(vout));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(vin, vout),
                                        { vout(idx) = vin(idx) * 2; }));
    assert_amp_ok(amp_array_view_release(vin));
    assert_int_equal(of(vout).uploads, 0);
    assert_amp_ok(amp_array_view_release(vout));
    assert_int_equal(out[2], 6);
}

static void an_extent_only_view_lives_where_it_is_used(void **state)
{
    (void)state;
    amp_array_view *tmp;
    assert_amp_ok(amp_array_view_create_extent(AMP_INT, amp_extent_1d(32), &tmp));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(32), idx, AMP_CAPTURE(tmp),
                                        { tmp(idx) = idx[0] * idx[0]; }));
    assert_int_equal(of(tmp).uploads, 0); /* nothing defined to upload */
    const int *p;
    assert_amp_ok(amp_array_view_data_const(tmp, (const void **)&p));
    assert_int_equal(p[31], 961);
    assert_int_equal(of(tmp).downloads, 1);
    assert_amp_ok(amp_array_view_release(tmp));
}

static void arrays_live_on_the_device_and_copy_every_way(void **state)
{
    (void)state;
    int host[64], back[64] = {0};
    for (int i = 0; i < 64; i++)
        host[i] = i;
    amp_transfer_reset_stats();
    amp_array *a, *b;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(8, 8), host, NULL, &a));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(8, 8), NULL, &b));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(8, 8), idx, AMP_CAPTURE(a),
                                        { a(idx) *= 3; }));
    assert_amp_ok(AMP_COPY(a, b)); /* on the device */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(8, 8), idx, AMP_CAPTURE(a, b),
                                        { b(idx) += a(idx); }));
    assert_amp_ok(AMP_COPY(b, back));
    for (int i = 0; i < 64; i++)
        assert_int_equal(back[i], 6 * i);
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads, 1); /* create_from_host */
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.device_copies, 1);
    assert_int_equal(s.downloads, 1); /* the copy to back */
    assert_int_equal(s.download_bytes, sizeof back);

    /* Views of arrays, and copies from and to views. */
    int other[64] = {0};
    amp_array_view *va, *vo, *sec;
    assert_amp_ok(amp_array_view_create_from_array(a, &va));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(8, 8), other, &vo));
    assert_amp_ok(AMP_COPY(va, vo));
    assert_int_equal(other[10], 30);
    assert_amp_ok(amp_array_view_section(vo, amp_index_2d(4, 0), amp_extent_2d(4, 8), &sec));
    int rows[32];
    for (int i = 0; i < 32; i++)
        rows[i] = -i;
    assert_amp_ok(AMP_COPY(rows, sec));
    assert_int_equal(other[4 * 8 + 1], -1);
    amp_array *c;
    assert_amp_ok(amp_array_create_from_view(vo, NULL, &c));
    const int *pc;
    amp_array_view *vc;
    assert_amp_ok(amp_array_view_create_from_array(c, &vc));
    assert_amp_ok(amp_array_view_data_const(vc, (const void **)&pc));
    assert_int_equal(pc[4 * 8 + 2], -2);
    assert_int_equal(pc[3], 9);

    /* Mismatches are refused with a reason. */
    amp_array *small;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(4), NULL, &small));
    assert_amp_fails(AMP_COPY(a, small), AMP_ERROR_INVALID_ARGUMENT, "must be equal");
    assert_amp_fails(amp_copy(amp_data_of(host), amp_data_of(back)),
                     AMP_ERROR_INVALID_ARGUMENT, "both ends");
    assert_amp_fails(amp_array_view_release(NULL) == AMP_OK ? amp_array_release(small)
                                                            : AMP_OK,
                     AMP_OK, "");
    assert_amp_fails(amp_array_release(small), AMP_ERROR_INVALID_ARGUMENT, "already released");
    assert_amp_ok(amp_array_view_release(vc));
    assert_amp_ok(amp_array_view_release(sec));
    assert_amp_ok(amp_array_view_release(vo));
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_release(c));
    assert_amp_ok(amp_array_release(b));
    assert_amp_ok(amp_array_release(a));
}

/* A copy from one section of an array to another of the same array: apart
 * (OpenCL refused some as overlapping: elements 48..54 to 40..46 of 60, one
 * row at an offset past the rectangle's row pitch), apart in 2-D (columns),
 * and overlapping, which copies the source as it was (as through a buffer
 * of its own). */
static void a_copy_between_sections_of_one_array(void **state)
{
    (void)state;
    int host[60], back[60];
    for (int i = 0; i < 60; i++)
        host[i] = i;
    amp_array *a;
    amp_array_view *v, *from, *to;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(60), host, NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &v));
    /* Apart: every pair of 7-element sections that do not overlap. */
    for (int s = 0; s + 7 <= 60; s += 4)
        for (int d = 0; d + 7 <= 60; d += 3) {
            if (d < s + 7 && s < d + 7)
                continue;
            assert_amp_ok(AMP_COPY(host, a));
            assert_amp_ok(amp_array_view_section(v, amp_index_1d(s), amp_extent_1d(7), &from));
            assert_amp_ok(amp_array_view_section(v, amp_index_1d(d), amp_extent_1d(7), &to));
            assert_amp_ok(AMP_COPY(from, to));
            assert_amp_ok(amp_array_view_release(from));
            assert_amp_ok(amp_array_view_release(to));
            assert_amp_ok(AMP_COPY(a, back));
            for (int i = 0; i < 60; i++)
                assert_int_equal(back[i], i >= d && i < d + 7 ? i - d + s : i);
        }
    /* Overlapping: 0..29 to 10..39, the source as it was before the copy. */
    assert_amp_ok(AMP_COPY(host, a));
    assert_amp_ok(amp_array_view_section(v, amp_index_1d(0), amp_extent_1d(30), &from));
    assert_amp_ok(amp_array_view_section(v, amp_index_1d(10), amp_extent_1d(30), &to));
    assert_amp_ok(AMP_COPY(from, to));
    assert_amp_ok(amp_array_view_release(from));
    assert_amp_ok(amp_array_view_release(to));
    assert_amp_ok(AMP_COPY(a, back));
    for (int i = 0; i < 60; i++)
        assert_int_equal(back[i], i >= 10 && i < 40 ? i - 10 : i);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));

    /* 2-D: columns 0..2 to columns 4..6 of a 6 x 8 array, rows 1..4. */
    amp_array *m;
    amp_array_view *mv;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(6, 8), host, NULL, &m));
    assert_amp_ok(amp_array_view_create_from_array(m, &mv));
    assert_amp_ok(amp_array_view_section(mv, amp_index_2d(1, 0), amp_extent_2d(4, 3), &from));
    assert_amp_ok(amp_array_view_section(mv, amp_index_2d(1, 4), amp_extent_2d(4, 3), &to));
    assert_amp_ok(AMP_COPY(from, to));
    assert_amp_ok(amp_array_view_release(from));
    assert_amp_ok(amp_array_view_release(to));
    assert_amp_ok(AMP_COPY(m, back));
    for (int r = 0; r < 6; r++)
        for (int c = 0; c < 8; c++)
            assert_int_equal(back[r * 8 + c],
                             r >= 1 && r < 5 && c >= 4 && c < 7 ? r * 8 + c - 4 : r * 8 + c);
    assert_amp_ok(amp_array_view_release(mv));
    assert_amp_ok(amp_array_release(m));
}

/* Overlapping sections of one data get the source as it was: a 3 x 3
 * block of a view over host memory moved down and right by one (copied row
 * by row in place, its first row was repeated), and 4-D sections of an
 * array that take several boxes (copied box by box, later boxes read what
 * earlier ones wrote). */
static void a_copy_between_overlapping_sections_copies_the_source_as_it_was(void **state)
{
    (void)state;
    int data[5 * 4];
    for (int i = 0; i < 20; i++)
        data[i] = i;
    amp_array_view *v, *from, *to;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(5, 4), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(0, 0), amp_extent_2d(3, 3), &from));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(1, 1), amp_extent_2d(3, 3), &to));
    assert_amp_ok(AMP_COPY(from, to));
    assert_amp_ok(amp_array_view_release(from));
    assert_amp_ok(amp_array_view_release(to));
    assert_amp_ok(amp_array_view_release(v));
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 4; c++)
            assert_int_equal(data[r * 4 + c],
                             r >= 1 && r < 4 && c >= 1 ? (r - 1) * 4 + c - 1 : r * 4 + c);

    const int dims[4] = {4, 3, 4, 4}, at0[4] = {0, 0, 0, 0}, at1[4] = {1, 0, 0, 1};
    const int cut[4] = {3, 2, 3, 3};
    int host[192], back[192];
    for (int i = 0; i < 192; i++)
        host[i] = i;
    amp_array *a;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_nd(4, dims), host, NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_nd(4, at0), amp_extent_nd(4, cut), &from));
    assert_amp_ok(amp_array_view_section(v, amp_index_nd(4, at1), amp_extent_nd(4, cut), &to));
    assert_amp_ok(AMP_COPY(from, to));
    assert_amp_ok(AMP_COPY(a, back));
    int want[192];
    memcpy(want, host, sizeof want);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++)
                for (int l = 0; l < 3; l++)
                    want[(((i + 1) * 3 + j) * 4 + k) * 4 + l + 1] = host[((i * 3 + j) * 4 + k) * 4 + l];
    for (int i = 0; i < 192; i++)
        assert_int_equal(back[i], want[i]);
    assert_amp_ok(amp_array_view_release(from));
    assert_amp_ok(amp_array_view_release(to));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

static void async_copies_and_synchronize_complete(void **state)
{
    (void)state;
    int host[1024], back[1024] = {0};
    for (int i = 0; i < 1024; i++)
        host[i] = i;
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(1024), NULL, &a));
    amp_completion *done;
    assert_amp_ok(AMP_COPY_ASYNC(host, a, &done));
    assert_amp_ok(amp_completion_wait(done));
    int finished = 0;
    assert_amp_ok(amp_completion_is_done(done, &finished));
    assert_true(finished);
    assert_amp_ok(amp_completion_release(done));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1024), idx, AMP_CAPTURE(a),
                                        { a(idx) += 1; }));
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(1024), back, &v));
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1024), idx, AMP_CAPTURE(a, v),
                                        { v(idx) = a(idx) * 2; }));
    assert_amp_ok(amp_array_view_synchronize_async(v, &done));
    assert_amp_ok(amp_completion_release(done));
    assert_int_equal(back[1023], 2 * 1024);
    /* A copy whose ends are wrong is refused at the call, with no handle. */
    done = NULL;
    assert_amp_fails(amp_copy_async(amp_data_of(NULL), amp_data_of(a), &done),
                     AMP_ERROR_INVALID_ARGUMENT, "amp_copy_async: the source host pointer is NULL");
    assert_null(done);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

/* An asynchronous operation runs where the program put it: a kernel
 * launched after it, which writes its source or reads its destination,
 * runs after it (C++ AMP's copy_async queued its device side at the call).
 * Its thread once took the lock after such kernels: the host got the
 * kernel's 2s, and the kernel read the view before the copy filled it. */
static void a_kernel_after_an_async_copy_runs_after_it(void **state)
{
    (void)state;
    enum { N = 1 << 20, SIDE = 1024 };
    int *host = calloc(N, sizeof *host), *src = malloc(N * sizeof *src),
        *out = calloc(N, sizeof *out);
    assert_non_null(host);
    assert_non_null(src);
    assert_non_null(out);
    amp_completion *done;
    /* An array copied to the host, then overwritten by a kernel. */
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(N), NULL, &a));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(a), { a(i) = 1; }));
    assert_amp_ok(AMP_COPY_ASYNC(a, host, &done));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(a), { a(i) = 2; }));
    assert_amp_ok(amp_completion_release(done));
    assert_int_equal(host[0], 1);
    assert_int_equal(host[N - 1], 1);
    assert_amp_ok(amp_array_release(a));
    /* A texture copied to the host, then written by a kernel. */
    amp_texture *t;
    amp_texture_view *w;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(SIDE, SIDE), NULL, NULL, &t));
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_WRITE, &w));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(SIDE, SIDE), idx, AMP_CAPTURE(w),
                                        { w.set(idx, 3); }));
    assert_amp_ok(amp_texture_copy_to_async(t, amp_data_of(host), &done));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(SIDE, SIDE), idx, AMP_CAPTURE(w),
                                        { w.set(idx, 4); }));
    assert_amp_ok(amp_completion_release(done));
    assert_int_equal(host[0], 3);
    assert_int_equal(host[N - 1], 3);
    assert_amp_ok(amp_texture_view_release(w));
    assert_amp_ok(amp_texture_release(t));
    /* Host memory copied into a view, which a kernel then reads. */
    for (int i = 0; i < N; i++)
        src[i] = 5;
    amp_array_view *v, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), host, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &o));
    assert_amp_ok(AMP_COPY_ASYNC(src, v, &done));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), i, AMP_CAPTURE(v, o), { o(i) = v(i); }));
    assert_amp_ok(amp_completion_release(done));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_int_equal(out[0], 5);
    assert_int_equal(out[N - 1], 5);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(o));
    free(host);
    free(src);
    free(out);
}

/* C++ AMP's copy_async keeps its ends alive: a view or array released
 * right after the call still gives its data, which reaches the host. */
static void an_async_copy_outlives_the_release_of_its_ends(void **state)
{
    (void)state;
    enum { N = 65536, TRIALS = 20 };
    static int data[N], out[N];
    for (int t = 0; t < TRIALS; t++) {
        amp_array_view *v;
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
        int k = t;
        /* Current on the device only, so the copy must download. */
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v, k),
                                            { v(idx) = idx * 3 + k; }));
        memset(out, 0, sizeof out);
        amp_completion *c;
        assert_amp_ok(AMP_COPY_ASYNC(v, out, &c));
        assert_amp_ok(amp_array_view_release(v));
        assert_amp_ok(amp_completion_release(c));
        for (int i = 0; i < N; i++)
            if (out[i] != i * 3 + t || data[i] != i * 3 + t)
                fail_msg("trial %d, element %d: the copy gave %d and the view's memory holds %d,"
                         " not %d",
                         t, i, out[i], data[i], i * 3 + t);
    }
    /* An array's data, the array released at once. */
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(N), NULL, &a));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(a), { a(idx) = -idx; }));
    amp_completion *c;
    assert_amp_ok(AMP_COPY_ASYNC(a, out, &c));
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_completion_wait(c));
    assert_amp_ok(amp_completion_release(c));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], -i);
    /* And a view's synchronization. */
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v), { v(idx) = 5; }));
    assert_amp_ok(amp_array_view_synchronize_async(v, &c));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_completion_release(c));
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], 5);
}

/* Page-locked memory a pending copy reads is never freed under it: the
 * free is refused until the copy has run, and the copy's data is whole. */
static void page_locked_memory_a_pending_copy_uses_is_not_freed(void **state)
{
    (void)state;
    enum { N = 65536, TRIALS = 20 };
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(N), NULL, &a));
    static int back[N];
    int refused = 0;
    for (int t = 0; t < TRIALS; t++) {
        int *p;
        assert_amp_ok(amp_host_alloc(N * sizeof *p, NULL, (void **)&p));
        for (int i = 0; i < N; i++)
            p[i] = i + t;
        amp_completion *c;
        assert_amp_ok(AMP_COPY_ASYNC(p, a, &c));
        amp_status st = amp_host_free(p);
        if (st != AMP_OK) {
            /* Refused: the copy had not run yet. */
            assert_int_equal(st, AMP_ERROR_INVALID_OPERATION);
            assert_non_null(strstr(amp_last_error(), "an asynchronous copy"));
            refused++;
        }
        assert_amp_ok(amp_completion_release(c));
        if (st != AMP_OK)
            assert_amp_ok(amp_host_free(p));
        assert_amp_ok(AMP_COPY(a, back));
        for (int i = 0; i < N; i++)
            if (back[i] != i + t)
                fail_msg("trial %d, element %d: %d, not %d", t, i, back[i], i + t);
    }
    print_message("the free was refused in %d of %d trials (the copy had not run)\n", refused,
                  TRIALS);
    assert_amp_ok(amp_array_release(a));
}

/* synchronize_to_async uploads on its own thread, with the view and the
 * accelerator view released before it runs; the kernel after it finds the
 * data there. */
static void synchronize_to_async_uploads_past_the_release_of_its_ends(void **state)
{
    (void)state;
    int data[64];
    for (int i = 0; i < 64; i++)
        data[i] = i;
    amp_accelerator *acc;
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_IMMEDIATE, &av));
    amp_array_view *v, *w;
    amp_completion *done;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_1d(0), amp_extent_1d(64), &w));
    assert_amp_ok(amp_array_view_synchronize_to_async(v, av, &done));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_view_release(av));
    assert_amp_ok(amp_completion_wait(done));
    assert_amp_ok(amp_completion_release(done));
    assert_int_equal(of(w).uploads, 1);
    assert_int_equal(of(w).upload_bytes, 256);
    /* Bad input: checked at the call, and no handle made. */
    done = (amp_completion *)&data;
    assert_int_equal(amp_array_view_synchronize_to_async(v, NULL, &done),
                     AMP_ERROR_INVALID_ARGUMENT);
    assert_null(done);
    assert_int_equal(amp_array_view_synchronize_to_async(w, av, &done),
                     AMP_ERROR_INVALID_ARGUMENT);
    assert_int_equal(amp_array_view_synchronize_to_async(w, NULL, NULL),
                     AMP_ERROR_INVALID_ARGUMENT);
    /* On the default view, where the next kernel runs: it uploads nothing. */
    data[5] = 500;
    assert_amp_ok(amp_array_view_refresh(w));
    assert_amp_ok(amp_array_view_synchronize_to_async(w, NULL, &done));
    assert_amp_ok(amp_completion_wait(done));
    assert_amp_ok(amp_completion_release(done));
    uint64_t uploads = of(w).uploads;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(64), idx, AMP_CAPTURE(w), { w(idx) += 1; }));
    assert_int_equal(of(w).uploads, uploads);
    assert_amp_ok(amp_array_view_synchronize(w));
    assert_int_equal(data[5], 501);
    assert_int_equal(data[63], 64);
    assert_amp_ok(amp_array_view_release(w));
}

/* A const view of a view (C++ AMP's array_view<const T, N> of an
 * array_view<T, N>) and of an array: kernels read through it and see what
 * kernels wrote through the writable one; it is never written. */
static void a_const_view_of_a_view_or_an_array_reads_what_the_view_holds(void **state)
{
    (void)state;
    float data[16];
    for (int i = 0; i < 16; i++)
        data[i] = (float)i;
    amp_array_view *v, *ro, *out;
    float sums[16] = {0};
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(16), data, &v));
    assert_amp_ok(amp_array_view_as_const(v, &ro));
    assert_true(amp_array_view_is_const(ro));
    assert_false(amp_array_view_is_const(v));
    assert_int_equal(amp_array_view_get_extent(ro).dims[0], 16);
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(16), sums, &out));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v), { v(idx) *= 2; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(ro, out), {
        out(idx) = ro(idx) + 1;
    }));
    assert_amp_ok(amp_array_view_synchronize(out));
    for (int i = 0; i < 16; i++)
        assert_true(sums[i] == 2.0f * (float)i + 1.0f);
    float one = 1.0f;
    assert_int_equal(amp_array_view_set(ro, amp_index_1d(0), &one), AMP_ERROR_INVALID_OPERATION);
    /* A discard through the const view would drop what v's kernels wrote. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v), { v(idx) *= 1; }));
    assert_int_equal(amp_array_view_discard_data(ro), AMP_ERROR_INVALID_OPERATION);
    assert_non_null(strstr(amp_last_error(), "discard through a writable view"));
    assert_int_equal(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(ro),
                                           { ro(idx) = 0; }),
                     AMP_ERROR_KERNEL_BUILD);
    /* The writable view released first: the kernel's writes still reach the
     * host when the last view, the const one, goes. */
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(ro));
    assert_true(data[15] == 30.0f);
    /* Of an array, through the array's view. */
    amp_array *a;
    amp_array_view *av_of_a, *ro_a;
    assert_amp_ok(amp_array_create_from_host(AMP_FLOAT, amp_extent_1d(16), data, NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &av_of_a));
    assert_amp_ok(amp_array_view_as_const(av_of_a, &ro_a));
    assert_amp_ok(amp_array_view_release(av_of_a));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(ro_a, out), {
        out(idx) = ro_a(idx) - 1;
    }));
    assert_amp_ok(amp_array_view_synchronize(out));
    for (int i = 0; i < 16; i++)
        assert_true(sums[i] == 2.0f * (float)i - 1.0f);
    assert_amp_ok(amp_array_view_release(ro_a));
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_view_release(out));
    amp_array_view *none = (amp_array_view *)&one;
    assert_int_equal(amp_array_view_as_const(NULL, &none), AMP_ERROR_INVALID_ARGUMENT);
    assert_null(none);
}

static void synchronize_to_uploads_now_and_arrays_say_what_they_are(void **state)
{
    (void)state;
    int data[64];
    for (int i = 0; i < 64; i++)
        data[i] = i;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(8, 8), data, &v));
    assert_amp_ok(amp_array_view_synchronize_to(v, NULL));
    assert_int_equal(of(v).uploads, 1);
    /* The kernel finds the data there already. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(8, 8), idx, AMP_CAPTURE(v),
                                        { v(idx) += 1; }));
    assert_int_equal(of(v).uploads, 1);

    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    amp_array *a, *b;
    assert_amp_ok(amp_array_create_from_view(v, av, &a));
    assert_amp_ok(amp_array_create_from_array(a, NULL, &b));
    assert_int_equal(amp_array_get_extent(b).dims[1], 8);
    assert_int_equal(amp_array_get_type(b), AMP_INT);
    assert_ptr_equal(amp_array_get_accelerator_view(b), av);
    int back[64];
    assert_amp_ok(AMP_COPY(b, back));
    assert_int_equal(back[63], 64);
    assert_amp_ok(amp_array_release(b));
    assert_amp_ok(amp_array_release(a));
    /* Released arrays answer "none". */
    assert_int_equal(amp_array_get_extent(a).rank, 0);
    assert_null(amp_array_get_accelerator_view(a));
    assert_amp_ok(amp_array_view_release(v));
}

/* A copy into a view that fails on the way must not make the view's host
 * memory count as current: the kernel's newer data on the device is still
 * what a later synchronize brings back. */
static void a_failed_copy_keeps_newer_device_data(void **state)
{
    (void)state;
    enum { N = 16 };
    int host[N] = {0}, src_data[N];
    for (int i = 0; i < N; i++)
        src_data[i] = 1000 + i;
    amp_array *src;
    amp_array_view *v;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(N), src_data, NULL, &src));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), host, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v),
                                        { v(idx) = idx[0] * 7; }));
    /* The copy's first OpenCL call, the read into the host memory, fails. */
    amp__test_inject_fault(1, CL_OUT_OF_RESOURCES);
    amp_status st = amp_copy(amp_data_of(src), amp_data_of(v));
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_int_not_equal(st, AMP_OK);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++)
        assert_int_equal(host[i], i * 7);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(src));
}

/* C++ AMP's m[i].discard_data(): the kernel writes the row without reading
 * it, so none of the row goes up, and the parent gets back only the row. */
static void a_discarded_projection_is_not_uploaded(void **state)
{
    (void)state;
    int data[R * C];
    for (int i = 0; i < R * C; i++)
        data[i] = i;
    amp_array_view *m, *row;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));
    assert_amp_ok(amp_array_view_project(m, 3, &row));
    assert_amp_ok(amp_array_view_discard_data(row));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(C), idx, AMP_CAPTURE(row),
                                        { row(idx) = 500 + idx[0]; }));
    amp_transfer_stats s = of(m);
    assert_int_equal(s.uploads, 0); /* not the row, and not the rows the kernel did not use */
    assert_int_equal(s.upload_bytes, 0);
    assert_amp_ok(amp_array_view_synchronize(m));
    s = of(m);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 1);
    assert_int_equal(s.download_bytes, C * sizeof(int));
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            assert_int_equal(data[r * C + c], r == 3 ? 500 + c : r * C + c);

    /* A kernel that reads the whole matrix needs the other rows: they go up
     * as two runs, before and after the row (the device has the row). */
    int out[R * C] = {0};
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), out, &o));
    assert_amp_ok(amp_array_view_discard_data(o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(m, o),
                                        { o(idx) = m(idx) + 1; }));
    s = of(m);
    assert_int_equal(s.uploads, 2);
    assert_int_equal(s.upload_bytes, (R - 1) * C * sizeof(int));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++)
            assert_int_equal(out[r * C + c], (r == 3 ? 500 + c : r * C + c) + 1);
    assert_int_equal(of(m).downloads, 1); /* m was only read */
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_array_view_release(row));
    assert_amp_ok(amp_array_view_release(m));
}

static void a_view_copied_into_an_array_moves_only_its_bytes(void **state)
{
    (void)state;
    int data[R * C], back[R * C];
    for (int i = 0; i < R * C; i++)
        data[i] = i;
    amp_array_view *m, *sec, *va;
    amp_array *a, *part;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(R, C), NULL, &a));
    assert_amp_ok(amp_array_view_create_from_array(a, &va)); /* for the array's ledger */

    /* Current on the host: one upload of its bytes, into the array. */
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(m, a));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.upload_bytes, sizeof data);
    assert_int_equal(s.downloads, 0);
    assert_int_equal(s.device_copies, 0);
    assert_int_equal(of(va).upload_bytes, sizeof data);
    assert_int_equal(of(m).uploads, 0); /* m itself has no device copy */
    assert_amp_ok(AMP_COPY(a, back));
    for (int i = 0; i < R * C; i++)
        assert_int_equal(back[i], i);

    /* A section: its 3 x 4 elements and no others. */
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(2, 1), amp_extent_2d(3, 4), &sec));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(3, 4), NULL, &part));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(sec, part));
    s = transfers_now();
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, 3 * 4 * sizeof(int));
    assert_int_equal(s.downloads + s.device_copies, 0);
    int small[3 * 4];
    assert_amp_ok(AMP_COPY(part, small));
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            assert_int_equal(small[r * 4 + c], (2 + r) * C + 1 + c);

    /* Current on the array's device after a kernel: copied there, buffer
     * to buffer; nothing crosses to the host. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(m),
                                        { m(idx) = -m(idx); }));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(m, a));
    s = transfers_now();
    assert_int_equal(s.device_copies, 1);
    assert_int_equal(s.device_copy_bytes, sizeof data);
    assert_int_equal(s.uploads + s.downloads, 0);
    assert_int_equal(of(m).uploads, 1); /* the kernel's */
    assert_int_equal(of(m).downloads, 0);
    assert_amp_ok(AMP_COPY(a, back));
    for (int i = 0; i < R * C; i++)
        assert_int_equal(back[i], -i);

    /* Newer on the host in element 0 and on the device in the section:
     * neither holds all of it, so the section's rows come down first, one
     * run each, then the whole view goes up from the host. */
    int *host;
    assert_amp_ok(amp_array_view_data(m, (void **)&host));
    host[0] = 99;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(sec),
                                        { sec(idx) = 8; }));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(m, a));
    s = transfers_now();
    assert_int_equal(s.downloads, 3);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_COPY], 3);
    assert_int_equal(s.download_bytes, 3 * 4 * sizeof(int));
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, sizeof data);
    assert_int_equal(s.device_copies, 0);
    assert_amp_ok(AMP_COPY(a, back));
    assert_int_equal(back[0], 99);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int inside = r >= 2 && r < 5 && c >= 1 && c < 5;
            if (r * C + c > 0)
                assert_int_equal(back[r * C + c], inside ? 8 : -(r * C + c));
        }

    assert_amp_ok(amp_array_release(part));
    assert_amp_ok(amp_array_view_release(sec));
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_array_view_release(m));
}

/* The header: data moves to where the destination lives. A view of host
 * memory lives in host memory, so after the copy its host copy is current
 * and any device copy of it is stale. */
static void an_array_copied_into_a_view_makes_its_host_memory_current(void **state)
{
    (void)state;
    int src_data[R * C], data[R * C] = {0};
    for (int i = 0; i < R * C; i++)
        src_data[i] = 1000 + i;
    amp_array *a;
    amp_array_view *v;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(R, C), src_data, NULL, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &v));
    /* A kernel first, so that v has a device copy, and newer data there. */
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(v),
                                        { v(idx) = -1; }));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(a, v));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_COPY], 1);
    assert_int_equal(s.download_bytes, sizeof data);
    assert_int_equal(s.uploads + s.device_copies, 0);
    /* The host copy is current: synchronizing moves nothing, and the
     * kernel's -1s are not brought back over the copy. */
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(of(v).downloads, 0);
    for (int i = 0; i < R * C; i++)
        assert_int_equal(data[i], 1000 + i);
    /* The device copy is stale: the next kernel uploads the copied data. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(v),
                                        { v(idx) += 1; }));
    s = of(v);
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, sizeof data);
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(of(v).downloads, 1);
    for (int i = 0; i < R * C; i++)
        assert_int_equal(data[i], 1001 + i);

    /* Into a section: only its bytes come down, into its rows. */
    int two_rows[2 * 4];
    for (int i = 0; i < 2 * 4; i++)
        two_rows[i] = -i;
    amp_array *b;
    amp_array_view *sec;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(2, 4), two_rows, NULL, &b));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(5, 2), amp_extent_2d(2, 4), &sec));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(b, sec));
    s = transfers_now();
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, 2 * 4 * sizeof(int));
    assert_int_equal(s.uploads + s.device_copies, 0);
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(of(v).downloads, 1); /* as before the copy */
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int inside = r >= 5 && r < 7 && c >= 2 && c < 6;
            assert_int_equal(data[r * C + c],
                             inside ? -((r - 5) * 4 + c - 2) : 1001 + r * C + c);
        }

    /* Into a section of a view of an array on the same device: buffer to
     * buffer. */
    amp_array *whole;
    amp_array_view *vw, *top;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_2d(R, C), src_data, NULL,
                                             &whole));
    assert_amp_ok(amp_array_view_create_from_array(whole, &vw));
    assert_amp_ok(amp_array_view_section(vw, amp_index_2d(1, 4), amp_extent_2d(2, 4), &top));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(b, top));
    s = transfers_now();
    assert_int_equal(s.device_copies, 1);
    assert_int_equal(s.device_copy_bytes, 2 * 4 * sizeof(int));
    assert_int_equal(s.uploads + s.downloads, 0);
    int back[R * C];
    assert_amp_ok(AMP_COPY(whole, back));
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int inside = r >= 1 && r < 3 && c >= 4;
            assert_int_equal(back[r * C + c],
                             inside ? -((r - 1) * 4 + c - 4) : 1000 + r * C + c);
        }

    assert_amp_ok(amp_array_view_release(top));
    assert_amp_ok(amp_array_view_release(vw));
    assert_amp_ok(amp_array_release(whole));
    assert_amp_ok(amp_array_view_release(sec));
    assert_amp_ok(amp_array_release(b));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_release(a));
}

static void a_view_copied_to_host_memory_moves_only_stale_bytes(void **state)
{
    (void)state;
    int data[R * C], back[R * C];
    for (int i = 0; i < R * C; i++)
        data[i] = i;
    amp_array_view *m, *sec;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), data, &m));

    /* Current on the host: a copy in memory, no transfer. */
    assert_amp_ok(AMP_COPY(m, back));
    for (int i = 0; i < R * C; i++)
        assert_int_equal(back[i], i);
    amp_transfer_stats s = of(m);
    assert_int_equal(s.uploads + s.downloads + s.device_copies, 0);

    /* Newer on the device: one download, into back. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(m),
                                        { m(idx) *= 2; }));
    assert_amp_ok(AMP_COPY(m, back));
    s = of(m);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_COPY], 1);
    assert_int_equal(s.download_bytes, sizeof data);
    for (int i = 0; i < R * C; i++)
        assert_int_equal(back[i], 2 * i);
    /* The copy went to back, not to m's memory, which is still stale. */
    assert_amp_ok(amp_array_view_synchronize(m));
    s = of(m);
    assert_int_equal(s.downloads, 2);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 1);
    assert_int_equal(data[R * C - 1], 2 * (R * C - 1));

    /* A section: only its bytes. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(m),
                                        { m(idx) += 1; }));
    assert_amp_ok(amp_array_view_section(m, amp_index_2d(1, 2), amp_extent_2d(3, 4), &sec));
    int part[3 * 4];
    assert_amp_ok(AMP_COPY(sec, part));
    s = of(m);
    assert_int_equal(s.downloads, 3);
    assert_int_equal(s.download_bytes, 2 * sizeof data + sizeof part);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 4; c++)
            assert_int_equal(part[r * 4 + c], 2 * ((1 + r) * C + 2 + c) + 1);

    /* Host memory into the section, whose data is newer on the device:
     * written in m's host memory, nothing downloaded first. */
    int rows[3 * 4];
    for (int i = 0; i < 3 * 4; i++)
        rows[i] = -i;
    assert_amp_ok(AMP_COPY(rows, sec));
    s = of(m);
    assert_int_equal(s.downloads, 3);
    assert_int_equal(s.uploads, 1);
    /* The rest of m then comes down around the section: the four runs
     * before, between and after its rows. */
    assert_amp_ok(amp_array_view_synchronize(m));
    s = of(m);
    assert_int_equal(s.downloads, 3 + 4);
    assert_int_equal(s.download_bytes, 2 * sizeof data + sizeof part + sizeof data - sizeof rows);
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            int inside = r >= 1 && r < 4 && c >= 2 && c < 6;
            assert_int_equal(data[r * C + c],
                             inside ? -((r - 1) * 4 + c - 2) : 2 * (r * C + c) + 1);
        }
    /* And a kernel sees the copied elements: the device copy of the
     * section was made stale, and goes up again. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(sec),
                                        { sec(idx) *= 10; }));
    assert_int_equal(of(m).upload_bytes, sizeof data + sizeof rows);
    assert_amp_ok(amp_array_view_synchronize(sec));
    assert_int_equal(data[3 * C + 5], -110);
    assert_amp_ok(amp_array_view_release(sec));
    assert_amp_ok(amp_array_view_release(m));
}

static void synchronize_async_downloads_once_then_nothing(void **state)
{
    (void)state;
    enum { N = 256 };
    int data[N] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v),
                                        { v(idx) = idx[0] * 3; }));
    amp_completion *done;
    assert_amp_ok(amp_array_view_synchronize_async(v, &done));
    assert_amp_ok(amp_completion_wait(done));
    int finished = 0;
    assert_amp_ok(amp_completion_is_done(done, &finished));
    assert_true(finished);
    assert_amp_ok(amp_completion_release(done));
    amp_transfer_stats s = of(v);
    assert_int_equal(s.uploads, 0);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 1);
    assert_int_equal(s.download_bytes, sizeof data);
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], i * 3);

    /* Nothing stale: nothing moves. */
    assert_amp_ok(amp_array_view_synchronize_async(v, &done));
    assert_amp_ok(amp_completion_wait(done));
    assert_amp_ok(amp_completion_release(done));
    s = of(v);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, sizeof data);
    assert_int_equal(s.uploads, 0);

    /* A bad view is refused at the call, with no handle. */
    done = NULL;
    assert_amp_fails(amp_array_view_synchronize_async(NULL, &done), AMP_ERROR_INVALID_ARGUMENT,
                     "amp_array_view_synchronize_async: the view is NULL");
    assert_null(done);
    assert_amp_ok(amp_array_view_release(v));
}

/* The type of the host data a view is made over, as the caller's pointer
 * has it: a view of its scalar, or of short vectors of it, and int and
 * unsigned over each other are made; another scalar is refused (a double
 * view of floats would read past them) unless the pointer is cast to
 * void *, which says the bytes are meant to be read as another type. */
static void a_view_takes_the_type_of_its_host_data(void **state)
{
    (void)state;
    float floats[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int ints[8] = {0};
    const float *read_only = floats;
    amp_array_view *v = NULL;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), floats, &v));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT_4, amp_extent_1d(2), floats, &v));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT_2, (amp_extent){1, {4}}, read_only, &v));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_create(AMP_UINT, amp_extent_1d(8), ints, &v));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), (void *)floats, &v));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_fails(amp_array_view_create(AMP_DOUBLE, amp_extent_1d(8), floats, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "data points to float");
    assert_null(v);
    assert_amp_fails(amp_array_view_create(AMP_FLOAT, amp_extent_2d(2, 4), ints, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "data points to int");
    /* Compound literals, whose commas make more macro arguments: not
     * checked, made as before. */
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(3), (float[]){1, 2, 3}, &v));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_create(AMP_INT, (amp_extent){2, {2, 4}}, (void *)floats, &v));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_fails(amp_array_view_create_const(AMP_DOUBLE_2, amp_extent_1d(2), read_only, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "data points to float");
    for (int i = 0; i < 8; i++)
        assert_true(floats[i] == (float)(i + 1));
}

/* amp_shutdown keeps every view's data: an extent-only view's, which only
 * the device held, too (it was left undefined, and read as garbage with
 * AMP_OK). An array's goes with the device, and says so. */
static void an_extent_view_keeps_its_data_through_shutdown(void **state)
{
    (void)state;
    amp_array_view *e;
    amp_array *arr;
    assert_amp_ok(amp_array_view_create_extent(AMP_INT, amp_extent_1d(8), &e));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(8), NULL, &arr));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(e, arr), {
        e[idx] = idx[0] + 100;
        arr[idx] = idx[0];
    }));
    assert_amp_ok(amp_shutdown());
    int value = -1;
    assert_amp_ok(amp_array_view_get(e, amp_index_1d(5), &value));
    assert_int_equal(value, 105);
    /* Usable with the library started anew. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(e), { e[idx] += 1; }));
    assert_amp_ok(amp_array_view_get(e, amp_index_1d(7), &value));
    assert_int_equal(value, 108);
    int host[8];
    assert_amp_fails(AMP_COPY(arr, host), AMP_ERROR_ACCELERATOR_VIEW_REMOVED, "");
    assert_amp_ok(amp_array_view_release(e));
    assert_amp_ok(amp_array_release(arr));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_view_takes_the_type_of_its_host_data),
        cmocka_unit_test(a_three_kernel_pipeline_moves_data_once_each_way),
        cmocka_unit_test(a_section_synchronizes_only_its_bytes),
        cmocka_unit_test(a_section_uploads_only_its_bytes_and_kernels_see_its_indices),
        cmocka_unit_test(overlapping_sections_see_each_others_writes),
        cmocka_unit_test(a_projection_is_a_row),
        cmocka_unit_test(view_as_and_reinterpret_as_share_the_bytes),
        cmocka_unit_test(discard_applies_to_a_section_and_lasts_until_a_write),
        cmocka_unit_test(a_const_view_is_never_copied_back),
        cmocka_unit_test(an_extent_only_view_lives_where_it_is_used),
        cmocka_unit_test(arrays_live_on_the_device_and_copy_every_way),
        cmocka_unit_test(async_copies_and_synchronize_complete),
        cmocka_unit_test(a_kernel_after_an_async_copy_runs_after_it),
        cmocka_unit_test(an_async_copy_outlives_the_release_of_its_ends),
        cmocka_unit_test(page_locked_memory_a_pending_copy_uses_is_not_freed),
        cmocka_unit_test(synchronize_to_uploads_now_and_arrays_say_what_they_are),
        cmocka_unit_test(synchronize_to_async_uploads_past_the_release_of_its_ends),
        cmocka_unit_test(a_const_view_of_a_view_or_an_array_reads_what_the_view_holds),
        cmocka_unit_test(a_failed_copy_keeps_newer_device_data),
        cmocka_unit_test(a_discarded_projection_is_not_uploaded),
        cmocka_unit_test(a_view_copied_into_an_array_moves_only_its_bytes),
        cmocka_unit_test(an_array_copied_into_a_view_makes_its_host_memory_current),
        cmocka_unit_test(a_view_copied_to_host_memory_moves_only_stale_bytes),
        cmocka_unit_test(synchronize_async_downloads_once_then_nothing),
        cmocka_unit_test(a_copy_between_sections_of_one_array),
        cmocka_unit_test(a_copy_between_overlapping_sections_copies_the_source_as_it_was),
        cmocka_unit_test(an_extent_view_keeps_its_data_through_shutdown),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    amp_shutdown();
    return failed;
}
