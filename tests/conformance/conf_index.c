/*
 * tests/conformance/conf_index.c - C++ AMP 1.2, section 4.1, index<N>
 * (and Microsoft's reference page for concurrency::index), on the host and
 * in restrict(amp) code.
 *
 * Each test, and the section it comes from:
 *
 * index_4_1_2_default_constructor_is_zero
 *     4.1.2 index() "each dimension is zero"
 * index_4_1_2_constructors_from_components
 *     4.1.2 index(int i0 [, i1 [, i2]])
 * index_4_1_2_constructor_in_declaration_form
 *     4.1.2 index<2> p(i0, i1);
 * index_4_1_2_copy_constructor_and_assignment
 *     4.1.2 index(const index&), 4.1.3 operator=
 * index_4_1_3_subscript_reads_and_writes_components
 *     4.1.3 operator[](unsigned) and its reference
 * index_4_1_4_sum_and_difference_of_indices
 *     4.1.4 operator+, operator- (index, index)
 * index_4_1_4_arithmetic_with_an_integer
 *     4.1.4 index op int, int op index (+ - * / %)
 * index_4_1_4_compound_assignment
 *     4.1.4 += -= (index and int), *= /= %= (int)
 * index_4_1_4_increment_and_decrement
 *     4.1.4 ++ and --, prefix and postfix
 * index_4_1_4_equality_and_inequality
 *     4.1.4 operator==, operator!=
 * index_4_1_4_rank_3_arithmetic_and_comparison
 *     4.1.4, for index<3>
 * index_4_1_in_a_restrict_amp_function
 *     4.1 values passed to and returned by a restrict(amp) function (chapter 2)
 * index_4_1_captured_by_value
 *     4.1 and 7.1: an index captured by [=]
 *
 * Written from the specification's text: each test checks every element
 * a kernel writes, against the value the section gives.
 * index_4_1_4_operators_on_the_host
 *     4.1.4 index + index, index - index, index op int, ==, on the host
 * index_4_1_4_comparison_of_temporaries_in_parentheses
 *     4.1.4 operator== of index values made in place, in parentheses:
 *     (index<2>(1, 2) == index<2>(1, 2))
 * index_4_1_4_compound_assignment_with_an_integer_on_the_host
 *     4.1.4 *= /= %= (int), on the host: i = amp_index_mul(i, k) ...
 */
#include "conf_util.h"

enum { ROWS = 4, COLS = 5 };

/* "index() restrict(amp,cpu): Default constructor. The value at each
 * dimension is initialized to zero." Private memory is reused across the
 * loop, so an index that is not zeroed shows what was there before. */
static void index_4_1_2_default_constructor_is_zero(void **state)
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
            index<2> pairs[4];
            index<3> p;
            v[(idx * ROUNDS + k) * 2] = pairs[k % 4][0] | pairs[k % 4][1];
            v[(idx * ROUNDS + k) * 2 + 1] = p[0] | p[1] | p[2];
            pairs[(k + 1) % 4] = index<2>(idx[0] + k + 100, 7);
            p += k + 1000;
            total += pairs[(k + 1) % 4][0] + p[2];
        }
        s[idx] = total;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < THREADS * ROUNDS * 2; k++)
        if (out[k] != 0)
            fail_msg("thread %d, round %d: a default-constructed index<%d> holds %d, not zeros",
                     k / (ROUNDS * 2), k / 2 % ROUNDS, k % 2 ? 3 : 2, out[k]);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(s));
}

/* "index(int i0) / index(int i0, int i1) / index(int i0, int i1, int i2):
 * constructs an index<N> with the coordinates given", on both sides. */
static void index_4_1_2_constructors_from_components(void **state)
{
    (void)state;
    amp_index a = amp_index_1d(7), b = amp_index_2d(3, -4), c = amp_index_3d(0, 5, 9);
    assert_int_equal(a.rank, 1);
    assert_int_equal(a.i[0], 7);
    assert_int_equal(b.rank, 2);
    assert_int_equal(b.i[0], 3);
    assert_int_equal(b.i[1], -4);
    assert_int_equal(c.rank, 3);
    assert_int_equal(c.i[0], 0);
    assert_int_equal(c.i[1], 5);
    assert_int_equal(c.i[2], 9);

    static int out[ROWS * COLS * 6];
    memset(out, 0, sizeof out);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        index<1> one = index<1>(idx[0] * 7);
        index<2> two = index<2>(idx[1], -idx[0]);
        index<3> three = index<3>(idx[0] + idx[1], 9, idx[1] - 1);
        v(idx[0], idx[1], 0) = one[0];
        v(idx[0], idx[1], 1) = two[0];
        v(idx[0], idx[1], 2) = two[1];
        v(idx[0], idx[1], 3) = three[0];
        v(idx[0], idx[1], 4) = three[1];
        v(idx[0], idx[1], 5) = three[2];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            const int *o = out + (i * COLS + j) * 6;
            int want[6] = {i * 7, j, -i, i + j, 9, j - 1};
            assert_ints(o, want, 6);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* The constructors as C++ AMP code declares with them: index<2> p(i, j).
 * C reads that as a function's declaration; the library either takes it
 * as the constructor or refuses it naming the spelling C takes. */
static void index_4_1_2_constructor_in_declaration_form(void **state)
{
    (void)state;
    static int out[2] = {0, 0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(2), out, &v));
    amp_clear_error();
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v), {
        index<2> p(3, 4);
        v[0] = p[0];
        v[1] = p[1];
    });
    if (st == AMP_OK) {
        assert_amp_ok(amp_array_view_synchronize(v));
        assert_int_equal(out[0], 3);
        assert_int_equal(out[1], 4);
    } else if (st != AMP_ERROR_KERNEL_BUILD || !strstr(amp_last_error(), "index<2>(")) {
        fail_msg("index<2> p(3, 4) gave %s without naming the C spelling index<2>(3, 4): %.400s",
                 amp_status_name(st), amp_last_error());
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* "index(const index& other): copy constructor", "operator=(const index&):
 * assigns the contents of other": each is a value of its own afterwards. */
static void index_4_1_2_copy_constructor_and_assignment(void **state)
{
    (void)state;
    static int out[ROWS * COLS * 6];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        index<2> p = idx;
        index<2> q = p;
        q[0] = 100;
        index<2> r = index<2>(0, 0);
        r = p;
        p[1] = -1;
        v(idx[0], idx[1], 0) = p[0];
        v(idx[0], idx[1], 1) = p[1];
        v(idx[0], idx[1], 2) = q[0];
        v(idx[0], idx[1], 3) = q[1];
        v(idx[0], idx[1], 4) = r[0];
        v(idx[0], idx[1], 5) = r[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int want[6] = {i, -1, 100, j, i, j};
            assert_ints(out + (i * COLS + j) * 6, want, 6);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "int operator[](unsigned int c) const / int& operator[](unsigned int c):
 * returns (a reference to) the element of this index at position c";
 * dimension 0 is the most significant. */
static void index_4_1_3_subscript_reads_and_writes_components(void **state)
{
    (void)state;
    static int out[ROWS * COLS * 4], flat[ROWS];
    amp_array_view *v, *f;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 4), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(ROWS), flat, &f));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        index<2> p = idx;
        p[1] = p[0] * 10;
        p[0] += 3;
        v(idx[0], idx[1], 0) = idx[0];
        v(idx[0], idx[1], 1) = idx[1];
        v(idx[0], idx[1], 2) = p[0];
        v(idx[0], idx[1], 3) = p[1];
    }));
    /* A rank-1 index has one component, [0]. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(ROWS), idx, AMP_CAPTURE(f), {
        index<1> i = idx;
        i[0] += 5;
        f[idx] = i[0] * 100 + idx[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_amp_ok(amp_array_view_synchronize(f));
    for (int i = 0; i < ROWS; i++) {
        for (int j = 0; j < COLS; j++) {
            int want[4] = {i, j, i + 3, i * 10};
            assert_ints(out + (i * COLS + j) * 4, want, 4);
        }
        assert_int_equal(flat[i], (i + 5) * 100 + i);
    }
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(f));
}

/* "index<N> operator+(const index<N>& lhs, const index<N>& rhs)" and
 * operator-: component by component. */
static void index_4_1_4_sum_and_difference_of_indices(void **state)
{
    (void)state;
    static int out[ROWS * COLS * 4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        index<2> d = index<2>(10, -20);
        index<2> sum = idx + d;
        index<2> diff = idx - d;
        v(idx[0], idx[1], 0) = sum[0];
        v(idx[0], idx[1], 1) = sum[1];
        v(idx[0], idx[1], 2) = diff[0];
        v(idx[0], idx[1], 3) = diff[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int want[4] = {i + 10, j - 20, i - 10, j + 20};
            assert_ints(out + (i * COLS + j) * 4, want, 4);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "index<N> operator@(const index<N>& lhs, int rhs)" and
 * "operator@(int lhs, const index<N>& rhs)" for @ in + - * / %: the
 * integer applies to every component. */
static void index_4_1_4_arithmetic_with_an_integer(void **state)
{
    (void)state;
    enum { K = 8 };
    static int out[ROWS * COLS * 2 * K];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 2 * K), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        index<2> p = idx + index<2>(7, 11);
        index<2> r[8];
        r[0] = p + 3;
        r[1] = p - 3;
        r[2] = p * 3;
        r[3] = p / 3;
        r[4] = p % 3;
        r[5] = 3 + p;
        r[6] = 3 - p;
        r[7] = 3 * p;
        for (int k = 0; k < 8; k++) {
            v(idx[0], idx[1], 2 * k) = r[k][0];
            v(idx[0], idx[1], 2 * k + 1) = r[k][1];
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int p[2] = {i + 7, j + 11}, want[2 * K];
            for (int c = 0; c < 2; c++) {
                want[0 * 2 + c] = p[c] + 3;
                want[1 * 2 + c] = p[c] - 3;
                want[2 * 2 + c] = p[c] * 3;
                want[3 * 2 + c] = p[c] / 3;
                want[4 * 2 + c] = p[c] % 3;
                want[5 * 2 + c] = 3 + p[c];
                want[6 * 2 + c] = 3 - p[c];
                want[7 * 2 + c] = 3 * p[c];
            }
            assert_ints(out + (i * COLS + j) * 2 * K, want, 2 * K);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "index& operator+=(const index& rhs)", -=, and "operator@=(int rhs)" for
 * += -= *= /= %=: each changes this index and returns it. */
static void index_4_1_4_compound_assignment(void **state)
{
    (void)state;
    static int out[ROWS * COLS * 4];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 4), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        index<2> p = idx;
        p += index<2>(2, 3); /* (i + 2, j + 3) */
        p *= 4;              /* (4i + 8, 4j + 12) */
        p -= index<2>(1, 1); /* (4i + 7, 4j + 11) */
        p += 5;              /* (4i + 12, 4j + 16) */
        p /= 2;              /* (2i + 6, 2j + 8) */
        p -= 1;              /* (2i + 5, 2j + 7) */
        index<2> q = p;
        q %= 4;
        v(idx[0], idx[1], 0) = p[0];
        v(idx[0], idx[1], 1) = p[1];
        v(idx[0], idx[1], 2) = q[0];
        v(idx[0], idx[1], 3) = q[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int want[4] = {2 * i + 5, 2 * j + 7, (2 * i + 5) % 4, (2 * j + 7) % 4};
            assert_ints(out + (i * COLS + j) * 4, want, 4);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "index& operator++() / index operator++(int)" and --: every component
 * changes by one; the postfix forms return the value before. */
static void index_4_1_4_increment_and_decrement(void **state)
{
    (void)state;
    static int out[ROWS * COLS * 8];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v), {
        index<2> p = idx;
        index<2> a = ++p; /* p, a: idx + 1 */
        index<2> b = p++; /* b: idx + 1, p: idx + 2 */
        index<2> c = --p; /* p, c: idx + 1 */
        index<2> d = p--; /* d: idx + 1, p: idx */
        v(idx[0], idx[1], 0) = a[0];
        v(idx[0], idx[1], 1) = a[1];
        v(idx[0], idx[1], 2) = b[0];
        v(idx[0], idx[1], 3) = b[1];
        v(idx[0], idx[1], 4) = c[0] * 1000 + c[1];
        v(idx[0], idx[1], 5) = d[0] * 1000 + d[1];
        v(idx[0], idx[1], 6) = p[0];
        v(idx[0], idx[1], 7) = p[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int one = (i + 1) * 1000 + (j + 1);
            int want[8] = {i + 1, j + 1, i + 1, j + 1, one, one, i, j};
            assert_ints(out + (i * COLS + j) * 8, want, 8);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* "bool operator==(const index<N>& lhs, const index<N>& rhs)": true when
 * every component is equal; operator!= is its negation. */
static void index_4_1_4_equality_and_inequality(void **state)
{
    (void)state;
    static int eq[ROWS * COLS], ne[ROWS * COLS], eq1[ROWS];
    amp_array_view *e, *n, *e1;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), eq, &e));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), ne, &n));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(ROWS), eq1, &e1));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(e, n), {
        index<2> target = index<2>(2, 3);
        e[idx] = idx == target;
        n[idx] = (idx != target) ? 1 : 0;
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(ROWS), idx, AMP_CAPTURE(e1), {
        e1[idx] = (idx == index<1>(1)) + 2 * (idx != index<1>(1));
    }));
    assert_amp_ok(amp_array_view_synchronize(e));
    assert_amp_ok(amp_array_view_synchronize(n));
    assert_amp_ok(amp_array_view_synchronize(e1));
    for (int i = 0; i < ROWS; i++) {
        for (int j = 0; j < COLS; j++) {
            int same = i == 2 && j == 3;
            assert_int_equal(eq[i * COLS + j], same);
            assert_int_equal(ne[i * COLS + j], !same);
        }
        assert_int_equal(eq1[i], i == 1 ? 1 : 2);
    }
    assert_amp_ok(amp_array_view_release(e));
    assert_amp_ok(amp_array_view_release(n));
    assert_amp_ok(amp_array_view_release(e1));
}

/* The operators of 4.1.4 for index<3>. */
static void index_4_1_4_rank_3_arithmetic_and_comparison(void **state)
{
    (void)state;
    enum { A = 2, B = 3, C = 4 };
    static int out[A * B * C * 5];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(A * B * C, 5), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(A, B, C), idx,
                                        AMP_CAPTURE(v, AMP_CONST(B), AMP_CONST(C)), {
        int row = (idx[0] * B + idx[1]) * C + idx[2];
        index<3> p = idx * 2 + index<3>(1, 2, 3);
        p -= idx;
        index<3> q = p--;
        v(row, 0) = p[0];
        v(row, 1) = p[1];
        v(row, 2) = p[2];
        v(row, 3) = q == idx + index<3>(1, 2, 3);
        v(row, 4) = (p != q) + 2 * (idx == index<3>(1, 2, 3));
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < A; i++)
        for (int j = 0; j < B; j++)
            for (int k = 0; k < C; k++) {
                int row = (i * B + j) * C + k;
                int want[5] = {i, j + 1, k + 2, 1, 1 + 2 * (i == 1 && j == 2 && k == 3)};
                assert_ints(out + row * 5, want, 5);
            }
    assert_amp_ok(amp_array_view_release(v));
}

/* index<N> is restrict(amp, cpu): a restrict(amp) function takes index and
 * extent values and returns an index. */
AMP_FUNCTION(index<2>, next_inside, (index<2> p, extent<2> e), {
    index<2> q = p + index<2>(1, 1);
    if (!e.contains(q))
        q = index<2>(0, 0);
    return q;
});

static void index_4_1_in_a_restrict_amp_function(void **state)
{
    (void)state;
    static int out[ROWS * COLS * 2];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 2), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(v, next_inside), {
        index<2> n = next_inside(idx, extent<2>(4, 5));
        v(idx[0], idx[1], 0) = n[0];
        v(idx[0], idx[1], 1) = n[1];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int inside = i + 1 < ROWS && j + 1 < COLS;
            int want[2] = {inside ? i + 1 : 0, inside ? j + 1 : 0};
            assert_ints(out + (i * COLS + j) * 2, want, 2);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* An index captured by the kernel's [=] is a value of its rank inside, with
 * the host's components; the host's index is not changed by the kernel. */
static void index_4_1_captured_by_value(void **state)
{
    (void)state;
    amp_index shift1 = amp_index_1d(-2);
    amp_index shift2 = amp_index_2d(10, -3);
    amp_index shift3 = amp_index_3d(1, 2, 3);
    static int out[ROWS * COLS * 6];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(ROWS, COLS, 6), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(v, shift1, shift2, shift3), {
        index<2> p = idx + shift2;
        index<3> q = shift3;
        q += 1;
        v(idx[0], idx[1], 0) = p[0];
        v(idx[0], idx[1], 1) = p[1];
        v(idx[0], idx[1], 2) = shift1[0] + idx[1];
        v(idx[0], idx[1], 3) = q[0];
        v(idx[0], idx[1], 4) = q[1];
        v(idx[0], idx[1], 5) = q[2];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++) {
            int want[6] = {i + 10, j - 3, j - 2, 2, 3, 4};
            assert_ints(out + (i * COLS + j) * 6, want, 6);
        }
    assert_int_equal(shift3.i[0], 1);
    assert_int_equal(shift3.i[2], 3);
    assert_amp_ok(amp_array_view_release(v));
}

static void index_4_1_4_operators_on_the_host(void **state)
{
    (void)state;
    amp_index a = amp_index_3d(1, 2, 3), b = amp_index_3d(4, 5, 6);
    amp_index sum = amp_index_add(a, b), diff = amp_index_sub(b, a);
    assert_true(amp_index_equal(sum, amp_index_3d(5, 7, 9)));
    assert_true(amp_index_equal(diff, amp_index_3d(3, 3, 3)));
    assert_true(amp_index_equal(amp_index_mul(a, 3), amp_index_3d(3, 6, 9)));
    assert_true(amp_index_equal(amp_index_div(b, 2), amp_index_3d(2, 2, 3)));
    assert_true(amp_index_equal(amp_index_mod(b, 4), amp_index_3d(0, 1, 2)));
    assert_false(amp_index_equal(a, b));
    /* different ranks are never equal, and have no sum */
    assert_false(amp_index_equal(a, amp_index_2d(1, 2)));
    assert_int_equal(amp_index_add(a, amp_index_2d(1, 2)).rank, 0);
}

/* "bool operator==(const index& lhs, const index& rhs)" of temporaries,
 * in parentheses, where C++ AMP takes them as values. */
static void index_4_1_4_comparison_of_temporaries_in_parentheses(void **state)
{
    (void)state;
    int out[8] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(v), {
        int same = (index<2>(1, 2) == index<2>(1, 2));
        int other = (index<2>(idx[0], 2) != index<2>(1, 2));
        v[idx] = same * 10 + other + (int)((index<1>(idx[0])) == idx) * 100;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 8; i++)
        assert_int_equal(out[i], 110 + (i != 1));
    assert_amp_ok(amp_array_view_release(v));
}

/* "index& operator*=(int rhs)", /=, %= on the host: the functions give the
 * new value, which C assigns. */
static void index_4_1_4_compound_assignment_with_an_integer_on_the_host(void **state)
{
    (void)state;
    amp_index i = amp_index_3d(3, -6, 9);
    i = amp_index_mul(i, 4);
    assert_true(amp_index_equal(i, amp_index_3d(12, -24, 36)));
    i = amp_index_div(i, 5);
    assert_true(amp_index_equal(i, amp_index_3d(2, -4, 7)));
    i = amp_index_mod(i, 3);
    assert_true(amp_index_equal(i, amp_index_3d(2, -1, 1)));
    assert_int_equal(amp_index_div(i, 0).rank, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(index_4_1_2_default_constructor_is_zero),
        cmocka_unit_test(index_4_1_2_constructors_from_components),
        cmocka_unit_test(index_4_1_2_constructor_in_declaration_form),
        cmocka_unit_test(index_4_1_2_copy_constructor_and_assignment),
        cmocka_unit_test(index_4_1_3_subscript_reads_and_writes_components),
        cmocka_unit_test(index_4_1_4_sum_and_difference_of_indices),
        cmocka_unit_test(index_4_1_4_arithmetic_with_an_integer),
        cmocka_unit_test(index_4_1_4_compound_assignment),
        cmocka_unit_test(index_4_1_4_increment_and_decrement),
        cmocka_unit_test(index_4_1_4_equality_and_inequality),
        cmocka_unit_test(index_4_1_4_rank_3_arithmetic_and_comparison),
        cmocka_unit_test(index_4_1_in_a_restrict_amp_function),
        cmocka_unit_test(index_4_1_captured_by_value),
        cmocka_unit_test(index_4_1_4_operators_on_the_host),
        cmocka_unit_test(index_4_1_4_comparison_of_temporaries_in_parentheses),
        cmocka_unit_test(index_4_1_4_compound_assignment_with_an_integer_on_the_host),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
