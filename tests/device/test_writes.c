/*
 * tests/device/test_writes.c - no write is ever lost: every form in which C writes
 * an element, through every kind of view, reaches the host; threads of a
 * padded domain never touch memory outside a view; a write the analysis
 * missed is built again, not lost.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

enum { N = 8 };

/* ---- The three kernels ---- */

static void a_write_through_a_parenthesised_accessor_reaches_the_host(void **state)
{
    (void)state;
    int hist[4] = {0};
    amp_array_view *h;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), hist, &h));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(64), idx, AMP_CAPTURE(h),
                                        { atomic_add(&(h(idx[0] % 4)), 1); }));
    assert_amp_ok(amp_array_view_synchronize(h));
    for (int i = 0; i < 4; i++)
        assert_int_equal(hist[i], 16);
    assert_amp_ok(amp_array_view_release(h));
}

static void an_inner_tile_static_shadows_the_private_array_only_in_its_block(void **state)
{
    (void)state;
    int o[16] = {0}, p[16] = {0};
    amp_array_view *ov, *pv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), o, &ov));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), p, &pv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(16), 16), t,
                                        AMP_CAPTURE(ov, pv), {
        int buf[16];
        buf[0] = -1;
        {
            tile_static int buf[16];
            buf[t.local[0]] = t.local[0];
            t.barrier.wait();
            ov(t.global[0]) = buf[15 - t.local[0]];
        }
        pv(t.global[0]) = buf[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(ov));
    assert_amp_ok(amp_array_view_synchronize(pv));
    for (int i = 0; i < 16; i++) {
        assert_int_equal(o[i], 15 - i);
        assert_int_equal(p[i], -1);
    }
    assert_amp_ok(amp_array_view_release(ov));
    assert_amp_ok(amp_array_view_release(pv));
}

static void a_padded_thread_never_writes_inside_real_data(void **state)
{
    (void)state;
    if (!device_has_double())
        skip();
    int h3[3] = {11, 22, 33};
    amp_array_view *iv, *pair, *dv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3), h3, &iv));
    assert_amp_ok(amp_array_view_section(iv, amp_index_1d(0), amp_extent_1d(2), &pair));
    assert_amp_ok(amp_array_view_reinterpret_as(pair, AMP_DOUBLE, &dv));
    amp_tiled_extent te = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(1), 4));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(te, t, AMP_CAPTURE(dv), { dv(t.global[0]) = 0.0; }));
    assert_amp_ok(amp_array_view_synchronize(iv));
    assert_int_equal(h3[0], 0);
    assert_int_equal(h3[1], 0);
    assert_int_equal(h3[2], 33);
    assert_amp_ok(amp_array_view_release(dv));
    assert_amp_ok(amp_array_view_release(pair));
    assert_amp_ok(amp_array_view_release(iv));
}

/* ---- Write forms x view kinds ---- */

AMP_FUNCTION(void, put, (__global int *p, int x), { *p = x; });

/* Each form sets element i of v to X(i) = 3 i + 7 (assigning), or adds
 * X(i) to it (adding). */
#define FORM(fn, ...)                                                                              \
    static amp_status fn(amp_array_view *v)                                                        \
    {                                                                                              \
        return AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v, put), {                 \
            int i = idx[0];                                                                        \
            __VA_ARGS__                                                                            \
        });                                                                                        \
    }

FORM(assign, { v(i) = 3 * i + 7; })
FORM(assign_parenthesised, { (v(i)) = 3 * i + 7; })
FORM(assign_twice_parenthesised, { ((v(i))) = 3 * i + 7; })
FORM(assign_by_index, { v(idx) = 3 * i + 7; })
FORM(assign_in_else, { if (i < 0) v(i) = 0; else (v(i)) = 3 * i + 7; })
FORM(assign_through_pointer, { __global int *p = &(v(i)); *p = 3 * i + 7; })
FORM(assign_through_cast, { *(__global int *)&(v(i)) = 3 * i + 7; })
FORM(assign_through_choice, { *(i >= 0 ? &(v(i)) : &v(0)) = 3 * i + 7; })
FORM(assign_with_vstore, { if (i % 2 == 0) vstore2((int2)(3 * i + 7, 3 * i + 10), 0, &(v(i))); })
FORM(assign_in_helper, { put(&(v(i)), 3 * i + 7); })
FORM(assign_in_macro, { AMP_DEFINE(SET(e, x) (e) = (x)) SET(v(i), 3 * i + 7); })
FORM(exchange, { atomic_exchange(&(v(i)), 3 * i + 7); })
FORM(compare_exchange, {
    int expected = v(i);
    atomic_compare_exchange(&(v(i)), &expected, 3 * i + 7);
})
FORM(add, { v(i) += 3 * i + 7; })
FORM(add_parenthesised, { (v(i)) += 3 * i + 7; })
FORM(add_by_increments, { for (int k = 0; k < 3 * i + 7; k++) ++(v(i)); })
FORM(add_by_postfix_increments, { for (int k = 0; k < 3 * i + 7; k++) (v(i))++; })
FORM(add_atomically, { atomic_fetch_add(&(v(i)), 3 * i + 7); })
FORM(add_with_builtin_atomic, { atomic_add(&v(i), 3 * i + 7); })
FORM(add_in_macro, { AMP_DEFINE(ADD(e, x) ((e) += (x))) ADD(v(i), 3 * i + 7); })

typedef struct form {
    const char *name;
    amp_status (*run)(amp_array_view *v);
    int adds;
} form;

static const form forms[] = {
    {"v(i) = x", assign, 0},
    {"(v(i)) = x", assign_parenthesised, 0},
    {"((v(i))) = x", assign_twice_parenthesised, 0},
    {"v(idx) = x", assign_by_index, 0},
    {"else (v(i)) = x", assign_in_else, 0},
    {"p = &(v(i)); *p = x", assign_through_pointer, 0},
    {"*(__global int *)&(v(i)) = x", assign_through_cast, 0},
    {"*(c ? &(v(i)) : &v(0)) = x", assign_through_choice, 0},
    {"vstore2(.., &(v(i)))", assign_with_vstore, 0},
    {"helper(&(v(i)), x)", assign_in_helper, 0},
    {"SET(v(i), x)", assign_in_macro, 0},
    {"atomic_exchange(&(v(i)), x)", exchange, 0},
    {"atomic_compare_exchange(&(v(i)), ...)", compare_exchange, 0},
    {"v(i) += x", add, 1},
    {"(v(i)) += x", add_parenthesised, 1},
    {"++(v(i))", add_by_increments, 1},
    {"(v(i))++", add_by_postfix_increments, 1},
    {"atomic_fetch_add(&(v(i)), x)", add_atomically, 1},
    {"atomic_add(&v(i), x)", add_with_builtin_atomic, 1},
    {"ADD(v(i), x)", add_in_macro, 1},
};

typedef enum kind {
    HOST_VIEW,
    SECTION,
    PROJECTION,
    VIEW_AS,
    REINTERPRET_AS,
    ARRAY,
    VIEW_OF_ARRAY,
    KINDS
} kind;

static const char *const kind_names[KINDS] = {"host view", "section",   "projection",
                                              "view_as",   "reinterpret_as", "array",
                                              "view of an array"};

/* A view of N ints of one kind, over host memory of 3 N ints whose element
 * k starts as 100 + k. */
typedef struct target {
    kind k;
    int host[3 * N];
    int first;                  /* host index of the view's element 0 */
    amp_array_view *base, *view; /* base: what is synchronized */
    amp_array *array;
} target;

static void make_target(target *t, kind k)
{
    memset(t, 0, sizeof *t);
    t->k = k;
    for (int i = 0; i < 3 * N; i++)
        t->host[i] = 100 + i;
    switch (k) {
    case HOST_VIEW:
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), t->host + N, &t->view));
        t->first = N;
        break;
    case SECTION:
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3 * N), t->host, &t->base));
        assert_amp_ok(amp_array_view_section(t->base, amp_index_1d(N), amp_extent_1d(N), &t->view));
        t->first = N;
        break;
    case PROJECTION:
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, N), t->host, &t->base));
        assert_amp_ok(amp_array_view_project(t->base, 1, &t->view));
        t->first = N;
        break;
    case VIEW_AS:
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(2, N / 2), t->host + N, &t->base));
        assert_amp_ok(amp_array_view_view_as(t->base, amp_extent_1d(N), &t->view));
        t->first = N;
        break;
    case REINTERPRET_AS:
        /* The same bits, first seen as floats (void *: meant). */
        assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), (void *)(t->host + N),
                                            &t->base));
        assert_amp_ok(amp_array_view_reinterpret_as(t->base, AMP_INT, &t->view));
        t->first = N;
        break;
    case ARRAY:
        assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(N), t->host + N, NULL,
                                                 &t->array));
        t->view = amp__array_view_of(t->array);
        t->first = N;
        break;
    case VIEW_OF_ARRAY:
        assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(N), t->host + N, NULL,
                                                 &t->array));
        assert_amp_ok(amp_array_view_create_from_array(t->array, &t->view));
        t->first = N;
        break;
    default: break;
    }
}

/* The view's elements as the host sees them now, into host[first ..]. */
static void read_back(target *t)
{
    if (t->k == ARRAY) {
        assert_amp_ok(AMP_COPY(t->array, t->host + t->first));
    } else if (t->k == VIEW_OF_ARRAY) {
        const void *data;
        assert_amp_ok(amp_array_view_data_const(t->view, &data));
        memcpy(t->host + t->first, data, N * sizeof(int));
    } else {
        assert_amp_ok(amp_array_view_synchronize(t->base ? t->base : t->view));
    }
}

static void release_target(target *t)
{
    if (t->k != ARRAY)
        assert_amp_ok(amp_array_view_release(t->view));
    assert_amp_ok(amp_array_view_release(t->base));
    assert_amp_ok(amp_array_release(t->array));
}

static void the_host_sees_every_write_of_every_form_through_every_kind_of_view(void **state)
{
    (void)state;
    for (int k = 0; k < KINDS; k++)
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
            target t;
            make_target(&t, (kind)k);
            amp_status st = forms[f].run(t.view);
            if (st != AMP_OK)
                fail_msg("%s through a %s: %s", forms[f].name, kind_names[k], amp_last_error());
            read_back(&t);
            for (int h = 0; h < 3 * N; h++) {
                int i = h - t.first;
                int inside = i >= 0 && i < N;
                int want = !inside ? 100 + h : forms[f].adds ? 100 + h + 3 * i + 7 : 3 * i + 7;
                if (t.host[h] != want)
                    fail_msg("%s through a %s: host element %d is %d, not %d", forms[f].name,
                             kind_names[k], h, t.host[h], want);
            }
            release_target(&t);
        }
}

/* ---- Padded domains ---- */

/* N - 2 threads of work padded to tiles of 4: the last two threads are
 * past the extent. Every thread writes its own element, inside the view,
 * and writes past the view's end. */
static amp_status padded_write(amp_array_view *v)
{
    amp_tiled_extent te = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(N - 2), 4));
    return AMP_PARALLEL_FOR_EACH(te, t, AMP_CAPTURE(v, AMP_CONST(N)), {
        int i = t.global[0];
        v(i) = 3 * i + 7;
        atomic_add(&v(i + N), 1);
        if (i >= N - 2)
            v(i + 2) = -1000; /* past the end, from the padding threads */
        v(-1 - i) = -2000;    /* before the start */
    });
}

static void threads_of_a_padded_domain_never_touch_memory_outside_a_view(void **state)
{
    (void)state;
    for (int k = 0; k < KINDS; k++) {
        target t;
        make_target(&t, (kind)k);
        assert_amp_ok(padded_write(t.view));
        read_back(&t);
        for (int h = 0; h < 3 * N; h++) {
            int i = h - t.first;
            int want = i < 0 || i >= N ? 100 + h : 3 * i + 7;
            if (t.host[h] != want)
                fail_msg("padded through a %s: host element %d is %d, not %d", kind_names[k], h,
                         t.host[h], want);
        }
        release_target(&t);
    }
}

/* ---- The safety net ---- */

/* With the analysis blind (it misses every write), the read-only kernel
 * does not compile, and the runtime builds it again with its views
 * written: the writes arrive, and the call says nothing about it. */
static void a_write_the_analysis_missed_builds_again_and_arrives(void **state)
{
    (void)state;
    int a[N] = {0}, b[N];
    for (int i = 0; i < N; i++)
        b[i] = i;
    amp_array_view *av, *bv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), a, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), b, &bv));
    amp__test_blind_analysis(1);
    amp_kernel_stats before = kernels_now();
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(av, bv), {
        av(idx) = bv(idx) * 2;
        atomic_add(&(bv(idx)), 1);
    });
    amp_kernel_stats after = kernels_now();
    amp__test_blind_analysis(0);
    assert_amp_ok(st);
    assert_int_equal(after.builds - before.builds, 1); /* the one that compiled */
    assert_amp_ok(amp_array_view_synchronize(av));
    assert_amp_ok(amp_array_view_synchronize(bv));
    for (int i = 0; i < N; i++) {
        assert_int_equal(a[i], 2 * i);
        assert_int_equal(b[i], i + 1);
    }
    assert_amp_ok(amp_array_view_release(av));
    assert_amp_ok(amp_array_view_release(bv));
}

/* A view the kernel only reads is passed read only and not copied back;
 * with a write it is copied back. */
static void a_view_only_read_is_not_copied_back(void **state)
{
    (void)state;
    int in[N], out[N] = {0};
    for (int i = 0; i < N; i++)
        in[i] = i;
    amp_array_view *iv, *ov;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), in, &iv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &ov));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(iv, ov), {
        ov(idx) = (iv(idx)) + (iv(idx[0] == 0 ? 0 : idx[0] - 1)) & 0xff;
    }));
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_view_synchronize(iv));
    assert_amp_ok(amp_array_view_synchronize(ov));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, N * sizeof(int));
    assert_amp_ok(amp_array_view_release(iv));
    assert_amp_ok(amp_array_view_release(ov));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_write_through_a_parenthesised_accessor_reaches_the_host),
        cmocka_unit_test(an_inner_tile_static_shadows_the_private_array_only_in_its_block),
        cmocka_unit_test(a_padded_thread_never_writes_inside_real_data),
        cmocka_unit_test(the_host_sees_every_write_of_every_form_through_every_kind_of_view),
        cmocka_unit_test(threads_of_a_padded_domain_never_touch_memory_outside_a_view),
        cmocka_unit_test(a_write_the_analysis_missed_builds_again_and_arrives),
        cmocka_unit_test(a_view_only_read_is_not_copied_back),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
