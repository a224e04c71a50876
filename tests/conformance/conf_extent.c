/*
 * tests/conformance/conf_extent.c - C++ AMP 1.2, section 4.2, extent<N>
 * (and Microsoft's reference page for concurrency::extent), on the host and
 * in restrict(amp) code.
 *
 * Each test, and the section it comes from:
 *
 * extent_4_2_2_constructors_from_components
 *     4.2.2 extent(int e0 [, e1 [, e2]])
 * extent_4_2_2_default_constructor_is_zero
 *     4.2.2 extent() "each dimension is zero"
 * extent_4_2_2_constructor_in_declaration_form
 *     4.2.2 extent<2> e(e0, e1);
 * extent_4_2_3_subscript_reads_and_writes_dimensions
 *     4.2.3 operator[](unsigned)
 * extent_4_2_3_size_on_the_host
 *     4.2.3 size(): the product of the dimensions
 * extent_4_2_3_size_in_a_kernel
 *     4.2.3 size(), restrict(amp)
 * extent_4_2_3_contains_in_a_kernel
 *     4.2.3 contains(idx), origin zero
 * extent_4_2_3_contains_rank_1_and_3
 *     4.2.3 contains(idx), ranks 1 and 3
 * extent_4_2_3_tile_on_the_host
 *     4.2.3 tile<D0 [, D1 [, D2]]>()
 * extent_4_2_4_equality_and_inequality
 *     4.2.4 operator==, operator!=
 * extent_4_2_4_arithmetic_with_an_index
 *     4.2.4 extent + index, extent - index, += -=
 * extent_4_2_4_arithmetic_with_an_integer
 *     4.2.4 extent op int (+ - * / %), ++, --
 * extent_4_2_captured_by_value
 *     4.2 and 7.1: an extent captured by [=]
 * extent_4_2_a_views_extent_in_a_kernel
 *     5.2.3 array_view::extent, get_extent(), read as 4.2's extent<N>
 * extent_4_2_1_any_rank_on_the_host
 *     4.2.1 template <int N> class extent (N up to 8 here), 4.2.2 extent(const int[]),
 *     4.2.3 size(), contains(), 4.2.4 extent + index on the host
 * extent_4_2_1_any_rank_in_a_kernel
 *     4.2.1 extent<N> of rank 4 to 8 as a compute domain and in restrict(amp) code
 * extent_4_2_3_size_of_a_temporary_in_parentheses
 *     4.2.3 size() of an extent made in place: (int)(extent<2>(3, 4).size())
 * extent_4_2_4_compound_assignment_with_an_integer_on_the_host
 *     4.2.4 extent *= /= %= (int), on the host: e = amp_extent_mul(e, k) ...
 */
#include "conf_util.h"

enum { ROWS = 4, COLS = 5 };

/* "extent(int e0) / extent(int e0, int e1) / extent(int e0, int e1, int e2)". */
static void extent_4_2_2_constructors_from_components(void **state)
{
    (void)state;
    amp_extent a = amp_extent_1d(7), b = amp_extent_2d(3, 4), c = amp_extent_3d(2, 5, 9);
    assert_int_equal(a.rank, 1);
    assert_int_equal(a.dims[0], 7);
    assert_int_equal(b.rank, 2);
    assert_int_equal(b.dims[0], 3);
    assert_int_equal(b.dims[1], 4);
    assert_int_equal(c.rank, 3);
    assert_int_equal(c.dims[0], 2);
    assert_int_equal(c.dims[1], 5);
    assert_int_equal(c.dims[2], 9);

    static int out[ROWS * 6];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(ROWS), idx, AMP_CAPTURE(v), {
        extent<1> one = extent<1>(idx[0] + 1);
        extent<2> two = extent<2>(idx[0] + 2, 3);
        extent<3> three = extent<3>(4, idx[0] * 2, 6);
        v(idx[0], 0) = one[0];
        v(idx[0], 1) = two[0];
        v(idx[0], 2) = two[1];
        v(idx[0], 3) = three[0];
        v(idx[0], 4) = three[1];
        v(idx[0], 5) = three[2];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++) {
        int want[6] = {i + 1, i + 2, 3, 4, i * 2, 6};
        assert_ints(out + i * 6, want, 6);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* "extent() restrict(amp,cpu): Default constructor. The value at each
 * dimension is initialized to zero." */
static void extent_4_2_2_default_constructor_is_zero(void **state)
{
    (void)state;
    enum { THREADS = 4, ROUNDS = 8 };
    static int out[THREADS * ROUNDS * 2], sink[THREADS];
    memset(out, 0x55, sizeof out);
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(THREADS * ROUNDS * 2), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(THREADS), sink, &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx,
                                        AMP_CAPTURE(v, s, AMP_CONST(ROUNDS)), {
        int total = 0;
        for (int k = 0; k < ROUNDS; k++) {
            extent<2> shapes[4];
            extent<3> e;
            v[(idx * ROUNDS + k) * 2] = shapes[k % 4][0] | shapes[k % 4][1];
            v[(idx * ROUNDS + k) * 2 + 1] = e[0] | e[1] | e[2];
            shapes[(k + 1) % 4] = extent<2>(idx[0] + k + 100, 7);
            e += k + 1000;
            total += shapes[(k + 1) % 4][0] + e[2];
        }
        s[idx] = total;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < THREADS * ROUNDS * 2; k++)
        if (out[k] != 0)
            fail_msg("thread %d, round %d: a default-constructed extent<%d> holds %d, not zeros",
                     k / (ROUNDS * 2), k / 2 % ROUNDS, k % 2 ? 3 : 2, out[k]);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(s));
}

/* The constructors as C++ AMP code declares with them, extent<2> e(3, 4):
 * taken as the constructor, or refused with the spelling C takes. */
static void extent_4_2_2_constructor_in_declaration_form(void **state)
{
    (void)state;
    static int out[2] = {0, 0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(2), out, &v));
    amp_clear_error();
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v), {
        extent<2> e(3, 4);
        v[0] = e[0];
        v[1] = e.size();
    });
    if (st == AMP_OK) {
        assert_amp_ok(amp_array_view_synchronize(v));
        assert_int_equal(out[0], 3);
        assert_int_equal(out[1], 12);
    } else if (st != AMP_ERROR_KERNEL_BUILD || !strstr(amp_last_error(), "extent<2>(")) {
        fail_msg("extent<2> e(3, 4) gave %s without naming the C spelling extent<2>(3, 4): %.400s",
                 amp_status_name(st), amp_last_error());
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* "int operator[](unsigned int c) const / int& operator[](unsigned int c)". */
static void extent_4_2_3_subscript_reads_and_writes_dimensions(void **state)
{
    (void)state;
    static int out[ROWS * 4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, 4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(ROWS), idx, AMP_CAPTURE(v), {
        extent<2> e = extent<2>(idx[0] + 1, 10);
        v(idx[0], 0) = e[0];
        v(idx[0], 1) = e[1];
        e[1] = e[0] * 3;
        e[0] = 2;
        v(idx[0], 2) = e[1];
        v(idx[0], 3) = e.size();
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++) {
        int want[4] = {i + 1, 10, 3 * (i + 1), 2 * 3 * (i + 1)};
        assert_ints(out + i * 4, want, 4);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* "unsigned int size() const: returns the total linear size of this extent
 * (in units of elements)". On the host it is 64-bit. */
static void extent_4_2_3_size_on_the_host(void **state)
{
    (void)state;
    assert_int_equal(amp_extent_size(amp_extent_1d(7)), 7);
    assert_int_equal(amp_extent_size(amp_extent_2d(3, 4)), 12);
    assert_int_equal(amp_extent_size(amp_extent_3d(2, 3, 4)), 24);
    assert_true(amp_extent_size(amp_extent_2d(65536, 65536)) == (int64_t)1 << 32);
    assert_true(amp_extent_size(amp_extent_3d(2048, 2048, 2048)) == (int64_t)1 << 33);
    /* An extent with a dimension of 0 has no elements. */
    assert_int_equal(amp_extent_size(amp_extent_2d(0, 5)), 0);
}

/* size() in restrict(amp) code, of extents made there, captured, and of a
 * view's extent. */
static void extent_4_2_3_size_in_a_kernel(void **state)
{
    (void)state;
    amp_extent e1 = amp_extent_1d(9), e2 = amp_extent_2d(6, 7), e3 = amp_extent_3d(2, 3, 11);
    static int out[6], m[3 * 8];
    amp_array_view *v, *mv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(6), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 8), m, &mv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v, mv, e1, e2, e3), {
        v[0] = e1.size();
        v[1] = e2.size();
        v[2] = e3.size();
        v[3] = extent<3>(4, 5, 6).size();
        v[4] = mv.extent.size();
        v[5] = mv.get_extent().size();
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    int want[6] = {9, 42, 66, 120, 24, 24};
    assert_ints(out, want, 6);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(mv));
}

/* "bool contains(const index<N>& idx) const: Tests whether the index idx
 * is properly contained within this extent (with an assumed origin of
 * zero)": 0 <= idx[d] < extent[d] in every dimension. Each thread asks
 * about its index shifted by (-1, -1), so negative indices are asked too. */
static void extent_4_2_3_contains_in_a_kernel(void **state)
{
    (void)state;
    enum { R = ROWS + 3, C = COLS + 3 };
    static int out[R * C];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(R, C), idx, AMP_CAPTURE(v), {
        extent<2> e = extent<2>(4, 5);
        v[idx] = e.contains(idx - index<2>(1, 1));
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int p = i - 1, q = j - 1;
            int inside = p >= 0 && p < ROWS && q >= 0 && q < COLS;
            if (out[i * C + j] != inside)
                fail_msg("extent<2>(4, 5).contains(index<2>(%d, %d)) gave %d", p, q,
                         out[i * C + j]);
        }
    assert_amp_ok(amp_array_view_release(v));
}

static void extent_4_2_3_contains_rank_1_and_3(void **state)
{
    (void)state;
    enum { N = 8, A = 3, B = 4, C = 5 };
    static int one[N], three[A * B * C];
    amp_array_view *v1, *v3;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), one, &v1));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(A, B, C), three, &v3));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v1), {
        v1[idx] = extent<1>(5).contains(idx - 2);
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(A, B, C), idx, AMP_CAPTURE(v3), {
        v3[idx] = extent<3>(2, 3, 4).contains(idx - index<3>(0, 1, 0));
    }));
    assert_amp_ok(amp_array_view_synchronize(v1));
    assert_amp_ok(amp_array_view_synchronize(v3));
    for (int i = 0; i < N; i++)
        assert_int_equal(one[i], i - 2 >= 0 && i - 2 < 5);
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                int inside = i < 2 && j - 1 >= 0 && j - 1 < 3 && k < 4;
                if (three[(i * B + j) * C + k] != inside)
                    fail_msg("extent<3>(2, 3, 4).contains(index<3>(%d, %d, %d)) gave %d", i,
                             j - 1, k, three[(i * B + j) * C + k]);
            }
    assert_amp_ok(amp_array_view_release(v1));
    assert_amp_ok(amp_array_view_release(v3));
}

/* "template <int D0, int D1> tiled_extent<D0, D1> tile() const": the same
 * extent, cut into tiles of D0 x D1 (4.3 says what a tiled extent is). */
static void extent_4_2_3_tile_on_the_host(void **state)
{
    (void)state;
    amp_tiled_extent t1 = amp_extent_tile_1d(amp_extent_1d(64), 16);
    amp_tiled_extent t2 = amp_extent_tile_2d(amp_extent_2d(8, 12), 4, 3);
    amp_tiled_extent t3 = amp_extent_tile_3d(amp_extent_3d(2, 4, 6), 1, 2, 3);
    assert_true(amp_extent_equal(t1.extent, amp_extent_1d(64)));
    assert_int_equal(t1.tile_rank, 1);
    assert_int_equal(t1.tile[0], 16);
    assert_true(amp_extent_equal(t2.extent, amp_extent_2d(8, 12)));
    assert_int_equal(t2.tile_rank, 2);
    assert_int_equal(t2.tile[0], 4);
    assert_int_equal(t2.tile[1], 3);
    assert_true(amp_extent_equal(t3.extent, amp_extent_3d(2, 4, 6)));
    assert_int_equal(t3.tile_rank, 3);
    assert_int_equal(t3.tile[0], 1);
    assert_int_equal(t3.tile[1], 2);
    assert_int_equal(t3.tile[2], 3);
    assert_false(t2.padded);
}

/* "bool operator==(const extent<N>& lhs, const extent<N>& rhs)": every
 * dimension equal; operator!= is its negation. */
static void extent_4_2_4_equality_and_inequality(void **state)
{
    (void)state;
    assert_true(amp_extent_equal(amp_extent_2d(3, 4), amp_extent_2d(3, 4)));
    assert_false(amp_extent_equal(amp_extent_2d(3, 4), amp_extent_2d(4, 3)));
    assert_false(amp_extent_equal(amp_extent_1d(3), amp_extent_2d(3, 1)));
    assert_true(amp_extent_equal(amp_extent_3d(1, 2, 3), amp_extent_3d(1, 2, 3)));
    assert_false(amp_extent_equal(amp_extent_3d(1, 2, 3), amp_extent_3d(1, 2, 4)));

    static int eq[ROWS * COLS];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), eq, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        extent<2> e = extent<2>(idx[0] + 1, idx[1] + 1);
        v[idx] = (e == extent<2>(3, 4)) + 2 * (e != extent<2>(2, 2));
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int want = (i + 1 == 3 && j + 1 == 4) + 2 * !(i + 1 == 2 && j + 1 == 2);
            assert_int_equal(eq[i * COLS + j], want);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "extent<N> operator+(const index<N>& idx) / operator-(const index<N>&)":
 * result[i] = this[i] @ idx[i]; and the compound forms += and -=. */
static void extent_4_2_4_arithmetic_with_an_index(void **state)
{
    (void)state;
    static int out[ROWS * COLS * 6];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        extent<2> e = extent<2>(10, 20);
        extent<2> sum = e + idx;
        extent<2> diff = e - idx;
        extent<2> f = e;
        f += idx;
        f -= index<2>(1, 2);
        v(idx[0], idx[1], 0) = sum[0];
        v(idx[0], idx[1], 1) = sum[1];
        v(idx[0], idx[1], 2) = diff[0];
        v(idx[0], idx[1], 3) = diff[1];
        v(idx[0], idx[1], 4) = f[0];
        v(idx[0], idx[1], 5) = f[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int want[6] = {10 + i, 20 + j, 10 - i, 20 - j, 9 + i, 18 + j};
            assert_ints(out + (i * COLS + j) * 6, want, 6);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "extent<N> operator@(const extent<N>& ext, int value)" for + - * / %,
 * the compound forms, and ++ / -- in both positions. */
static void extent_4_2_4_arithmetic_with_an_integer(void **state)
{
    (void)state;
    enum { K = 9 };
    static int out[ROWS * K * 2];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, K, 2), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(ROWS), idx, AMP_CAPTURE(v), {
        extent<2> e = extent<2>(idx[0] + 6, 9);
        extent<2> r[9];
        r[0] = e + 2;
        r[1] = e - 2;
        r[2] = e * 3;
        r[3] = e / 2;
        r[4] = e % 4;
        extent<2> f = e;
        r[5] = ++f;    /* e + 1 */
        r[6] = f--;    /* e + 1; f is e */
        f *= 2;
        r[7] = f;      /* 2e */
        f %= 5;
        r[8] = f;      /* 2e % 5 */
        for (int k = 0; k < 9; k++) {
            v(idx[0], k, 0) = r[k][0];
            v(idx[0], k, 1) = r[k][1];
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++) {
        int e[2] = {i + 6, 9}, want[K * 2];
        for (int c = 0; c < 2; c++) {
            want[0 * 2 + c] = e[c] + 2;
            want[1 * 2 + c] = e[c] - 2;
            want[2 * 2 + c] = e[c] * 3;
            want[3 * 2 + c] = e[c] / 2;
            want[4 * 2 + c] = e[c] % 4;
            want[5 * 2 + c] = e[c] + 1;
            want[6 * 2 + c] = e[c] + 1;
            want[7 * 2 + c] = 2 * e[c];
            want[8 * 2 + c] = 2 * e[c] % 5;
        }
        assert_ints(out + i * K * 2, want, K * 2);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* An extent captured by [=] is an extent<N> value inside the kernel. */
static void extent_4_2_captured_by_value(void **state)
{
    (void)state;
    amp_extent bound1 = amp_extent_1d(3);
    amp_extent bound2 = amp_extent_2d(2, 4);
    amp_extent bound3 = amp_extent_3d(5, 6, 7);
    static int out[ROWS * COLS * 4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(v, bound1, bound2, bound3), {
        v(idx[0], idx[1], 0) = bound2.contains(idx);
        v(idx[0], idx[1], 1) = bound1.contains(idx[1]);
        v(idx[0], idx[1], 2) = bound3[0] * 100 + bound3[1] * 10 + bound3[2];
        v(idx[0], idx[1], 3) = bound2[1] + bound1[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int want[4] = {i < 2 && j < 4, j < 3, 567, 7};
            assert_ints(out + (i * COLS + j) * 4, want, 4);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "const extent<N> extent" and "extent<N> get_extent() const" of an
 * array_view (5.2.3) are extent<N> values inside a kernel: a view's own,
 * a section's own. */
static void extent_4_2_a_views_extent_in_a_kernel(void **state)
{
    (void)state;
    static int d1[6], d2[12], d3[24], out[16];
    amp_array_view *v1, *v2, *v3, *s2, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(6), d1, &v1));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), d2, &v2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 3, 4), d3, &v3));
    assert_amp_ok(amp_array_view_section(v2, amp_index_2d(1, 1), amp_extent_2d(2, 3), &s2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(o, v1, v2, v3, s2), {
        o[0] = v1.extent[0];
        o[1] = v1.get_extent().size();
        o[2] = v2.extent[0];
        o[3] = v2.extent[1];
        o[4] = v3.get_extent()[0] * 100 + v3.get_extent()[1] * 10 + v3.get_extent()[2];
        o[5] = s2.extent[0] * 10 + s2.extent[1];
        o[6] = s2.get_extent().size();
        o[7] = s2.extent.contains(index<2>(1, 2));
        o[8] = s2.extent.contains(index<2>(2, 0));
        o[9] = v2.extent == extent<2>(3, 4);
        o[10] = s2.extent != v2.extent;
        extent<3> e = v3.extent;
        o[11] = e.size();
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    int want[12] = {6, 6, 3, 4, 234, 23, 6, 1, 0, 1, 1, 24};
    assert_ints(out, want, 12);
    /* and on the host, get_extent(). */
    assert_true(amp_extent_equal(amp_array_view_get_extent(s2), amp_extent_2d(2, 3)));
    assert_true(amp_extent_equal(amp_array_view_get_extent(v3), amp_extent_3d(2, 3, 4)));
    amp_array_view *views[] = {o, s2, v1, v2, v3};
    for (size_t k = 0; k < sizeof views / sizeof views[0]; k++)
        assert_amp_ok(amp_array_view_release(views[k]));
}

static void extent_4_2_1_any_rank_on_the_host(void **state)
{
    (void)state;
    int d[6] = {2, 3, 4, 1, 2, 3}, in[6] = {1, 2, 3, 0, 1, 2};
    amp_extent e = amp_extent_nd(6, d);
    assert_int_equal(e.rank, 6);
    assert_int_equal(amp_extent_size(e), 2 * 3 * 4 * 2 * 3);
    assert_true(amp_extent_contains(e, amp_index_nd(6, in)));
    in[3] = 1;
    assert_false(amp_extent_contains(e, amp_index_nd(6, in)));
    amp_extent bigger = amp_extent_add(e, amp_index_nd(6, in));
    for (int k = 0; k < 6; k++)
        assert_int_equal(bigger.dims[k], d[k] + in[k]);
    assert_true(amp_extent_equal(amp_extent_sub(bigger, amp_index_nd(6, in)), e));
}

static void extent_4_2_1_any_rank_in_a_kernel(void **state)
{
    (void)state;
    int d[7] = {2, 1, 3, 2, 2, 1, 3};
    amp_extent e = amp_extent_nd(7, d);
    int n = (int)amp_extent_size(e), count[2] = {0};
    amp_array_view *c;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(2), count, &c));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(c, e), {
        extent<7> same = e;
        if (same.contains(idx) && same.size() == (unsigned)(2 * 1 * 3 * 2 * 2 * 1 * 3))
            atomic_fetch_add(&c[0], 1);
        if (idx == index<7>(1, 0, 2, 1, 1, 0, 2))
            atomic_fetch_add(&c[1], 1);
    }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_int_equal(count[0], n);
    assert_int_equal(count[1], 1);
    assert_amp_ok(amp_array_view_release(c));
}

/* "unsigned int size() const" of a temporary, in parentheses and cast. */
static void extent_4_2_3_size_of_a_temporary_in_parentheses(void **state)
{
    (void)state;
    int out[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v), {
        int n = (int)(extent<2>(3, 4).size());
        int m = (int)((extent<3>(idx[0] + 1, 2, 2)).size());
        v[idx] = n * 100 + m + (extent<1>(5).contains(index<1>(idx[0])));
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], 1200 + 4 * (i + 1) + 1);
    assert_amp_ok(amp_array_view_release(v));
}

/* "extent& operator*=(int rhs)", /=, %= on the host. */
static void extent_4_2_4_compound_assignment_with_an_integer_on_the_host(void **state)
{
    (void)state;
    amp_extent e = amp_extent_2d(6, 9);
    e = amp_extent_mul(e, 2);
    assert_true(amp_extent_equal(e, amp_extent_2d(12, 18)));
    e = amp_extent_div(e, 5);
    assert_true(amp_extent_equal(e, amp_extent_2d(2, 3)));
    e = amp_extent_mod(amp_extent_3d(7, 8, 9), 4);
    assert_true(amp_extent_equal(e, amp_extent_3d(3, 0, 1)));
    assert_int_equal(amp_extent_mod(e, 0).rank, 0);
    int dims[5] = {1, 2, 3, 4, 5};
    assert_int_equal(amp_extent_size(amp_extent_mul(amp_extent_nd(5, dims), 2)), 32 * 120);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extent_4_2_2_constructors_from_components),
        cmocka_unit_test(extent_4_2_2_default_constructor_is_zero),
        cmocka_unit_test(extent_4_2_2_constructor_in_declaration_form),
        cmocka_unit_test(extent_4_2_3_subscript_reads_and_writes_dimensions),
        cmocka_unit_test(extent_4_2_3_size_on_the_host),
        cmocka_unit_test(extent_4_2_3_size_in_a_kernel),
        cmocka_unit_test(extent_4_2_3_contains_in_a_kernel),
        cmocka_unit_test(extent_4_2_3_contains_rank_1_and_3),
        cmocka_unit_test(extent_4_2_3_tile_on_the_host),
        cmocka_unit_test(extent_4_2_4_equality_and_inequality),
        cmocka_unit_test(extent_4_2_4_arithmetic_with_an_index),
        cmocka_unit_test(extent_4_2_4_arithmetic_with_an_integer),
        cmocka_unit_test(extent_4_2_captured_by_value),
        cmocka_unit_test(extent_4_2_a_views_extent_in_a_kernel),
        cmocka_unit_test(extent_4_2_1_any_rank_on_the_host),
        cmocka_unit_test(extent_4_2_1_any_rank_in_a_kernel),
        cmocka_unit_test(extent_4_2_3_size_of_a_temporary_in_parentheses),
        cmocka_unit_test(extent_4_2_4_compound_assignment_with_an_integer_on_the_host),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
