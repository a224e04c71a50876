/*
 * tests/unit/test_owner.c - where a kernel body uses its views: only at the
 * thread's own index, only at its tile's, or elsewhere (and why), as the
 * grammar records each element's index and writes.c sums them up. A launch
 * over a set of accelerators is split only on these facts.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/strbuf.h"
#include "translate/text.h"
#include "translate/writes.h"

#define STRINGIFY(...) #__VA_ARGS__

/* Views c (rank 2), a (rank 2), r (rank 1), a scalar n. */
static const char *const names[] = {"c", "a", "r", "n"};
static const body_name_kind kinds[] = {BODY_NAME_VIEW, BODY_NAME_VIEW, BODY_NAME_VIEW,
                                       BODY_NAME_SCALAR};
static const body_type types[] = {{.kind = TYPE_VIEW, .rank = 2, .elem = AMP_FLOAT},
                                  {.kind = TYPE_VIEW, .rank = 2, .elem = AMP_FLOAT},
                                  {.kind = TYPE_VIEW, .rank = 1, .elem = AMP_FLOAT},
                                  {.kind = TYPE_OTHER}};

/* An untiled kernel of rank 2 with the index idx. */
static const body_context plain = {.file = "test.c",
                                   .line = 1,
                                   .index_name = "idx",
                                   .ncaptures = 4,
                                   .capture_names = names,
                                   .capture_kinds = kinds,
                                   .index_type = {.kind = TYPE_INDEX, .rank = 2},
                                   .capture_types = types};

/* A tiled kernel of rank 2, tiles of 4 x 4, with the index t_idx. */
static const body_context tiled = {.file = "test.c",
                                   .line = 1,
                                   .index_name = "t_idx",
                                   .ncaptures = 4,
                                   .capture_names = names,
                                   .capture_kinds = kinds,
                                   .index_type = {.kind = TYPE_TILED_INDEX, .rank = 2},
                                   .tile = {4, 4, 0},
                                   .capture_types = types};

enum { C = 1, A = 2, R = 4 };

static char why[512];

/* Read text: bit i of *own, view names[i] used only at the thread's index;
 * of *tile, only at its tile's; why c is not, in why. */
static void read_as(const body_context *ctx, const char *text, uint32_t *own, uint32_t *tile)
{
    kbody b;
    amp_status st = amp__text_read(text, strlen(text), ctx, &b);
    if (st != AMP_OK)
        fail_msg("the reader refused %s: %s", text, amp_last_error());
    *own = b.at_own;
    *tile = b.at_tile;
    strbuf sb = STRBUF_INIT;
    amp__writes_unowned_text(&b, 0, names[0], &sb);
    snprintf(why, sizeof why, "%s", sb.data ? sb.data : "");
    amp__sb_free(&sb);
    amp__body_free(&b);
}

static uint32_t own_in(const body_context *ctx, const char *text)
{
    uint32_t own, tile;
    read_as(ctx, text, &own, &tile);
    return own;
}

static uint32_t tile_in(const body_context *ctx, const char *text)
{
    uint32_t own, tile;
    read_as(ctx, text, &own, &tile);
    return tile;
}

static void every_spelling_of_the_threads_index_is_its_own(void **state)
{
    (void)state;
    assert_int_equal(own_in(&plain, STRINGIFY({ c(idx) = a(idx) * 2.0f; })), C | A);
    assert_int_equal(own_in(&plain, STRINGIFY({ c[idx] += a[idx]; })), C | A);
    assert_int_equal(own_in(&plain, STRINGIFY({ c(idx[0], idx[1]) = n; })), C);
    assert_int_equal(own_in(&plain, STRINGIFY({ c[idx[0]][idx[1]] = n; })), C);
    /* Its extent is not an element: no index at all. */
    assert_int_equal(own_in(&plain, STRINGIFY({ if (idx[1] < c.extent[1]) c(idx) = 1; })), C);
    assert_int_equal(own_in(&tiled, STRINGIFY({ c(t_idx) = 1; a[t_idx] = 2; })), C | A);
    assert_int_equal(own_in(&tiled, STRINGIFY({ c(t_idx.global) = a(t_idx.global[0], t_idx.global[1]); })),
                     C | A);
}

static void the_tiles_index_is_its_own_form(void **state)
{
    (void)state;
    assert_int_equal(tile_in(&tiled, STRINGIFY({ if (t_idx.local[0] == 0) c(t_idx.tile) += 1; })), C);
    assert_int_equal(tile_in(&tiled, STRINGIFY({ c(t_idx.tile[0], t_idx.tile[1]) = a(t_idx); })), C);
    assert_int_equal(own_in(&tiled, STRINGIFY({ c(t_idx.tile[0], t_idx.tile[1]) = a(t_idx); })), A);
    /* Both forms on one view: neither. */
    uint32_t own, tile;
    read_as(&tiled, STRINGIFY({ c(t_idx.tile) = c(t_idx); }), &own, &tile);
    assert_int_equal(own & C, 0);
    assert_int_equal(tile & C, 0);
    assert_non_null(strstr(why, "both at the thread's own index and at its tile's"));
}

/* Each form the proof does not take, with the reason it gives. */
static void other_indices_are_not_the_threads(void **state)
{
    (void)state;
    static const struct {
        const body_context *ctx;
        const char *body, *why;
    } cases[] = {
        {&plain, STRINGIFY({ int row = idx[0]; int col = idx[1]; c(row, col) = 1; }),
         "view 'c' is used at an index other than the thread's own: 'c(row, col)'"},
        {&plain, STRINGIFY({ c(idx[0] + 1, idx[1]) = 1; }), "other than the thread's own"},
        {&plain, STRINGIFY({ c(idx[1], idx[0]) = 1; }), "other than the thread's own"},
        {&plain, STRINGIFY({ c(idx[0], 0) = 1; }), "other than the thread's own"},
        {&plain, STRINGIFY({ c(idx) = c(idx[0], 0); }), "'c(idx[0], 0)'"},
        {&plain, STRINGIFY({ c(idx + index<2>(1, 0)) = 1; }), "other than the thread's own"},
        {&plain, STRINGIFY({ atomic_fetch_add(&c(idx), 1); }), "has an element's address taken"},
        {&plain, STRINGIFY({ vstore4((float4)(1.0f), 0, &c(idx)); }), "address taken"},
        {&plain, STRINGIFY({ helper(c); }), "is used as a view value"},
        {&plain, STRINGIFY({ c[idx[0]][idx[1]] = 0; c[0][1] = 2; }), "'c[0][1]'"},
        {&plain, STRINGIFY({ AMP_DEFINE(SET(i) c(i) = 1) SET(idx); }),
         "named in a preprocessor line or in a macro's arguments"},
        {&plain, STRINGIFY({ idx[0] += 1; c(idx) = 1; }), "the body may change the index"},
        {&plain, STRINGIFY({ idx = idx + 1; c(idx) = 1; }), "may change the index"},
        {&plain, STRINGIFY({ int *p = &idx[0]; *p = 3; c(idx) = 1; }), "may change the index"},
        {&plain, STRINGIFY({ AMP_DEFINE(BUMP(x) x++) BUMP(idx[0]); c(idx) = 1; }),
         "may change the index"},
        {&tiled, STRINGIFY({ t_idx.global[0] = 0; c(t_idx) = 1; }), "may change the index"},
        {&tiled, STRINGIFY({ c(t_idx.local) = 1; }), "other than the thread's own"},
        {&tiled, STRINGIFY({ c(t_idx.tile_origin) = 1; }), "other than the thread's own"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t own, tile;
        read_as(cases[i].ctx, cases[i].body, &own, &tile);
        if ((own | tile) & C)
            fail_msg("took %s as the thread's own", cases[i].body);
        if (!strstr(why, cases[i].why))
            fail_msg("%s: the reason is \"%s\", without \"%s\"", cases[i].body, why, cases[i].why);
    }
}

/* A name of the body's own that hides the index is not the index. */
static void a_local_named_like_the_index_is_not_it(void **state)
{
    (void)state;
    assert_int_equal(own_in(&plain, STRINGIFY({ { index<2> idx(0, 0); c(idx) = 1; } })), 0);
    /* A rank-1 view given the rank-2 index's component is another index. */
    assert_int_equal(own_in(&plain, STRINGIFY({ r(idx[0]) = 1; })), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_spelling_of_the_threads_index_is_its_own),
        cmocka_unit_test(the_tiles_index_is_its_own_form),
        cmocka_unit_test(other_indices_are_not_the_threads),
        cmocka_unit_test(a_local_named_like_the_index_is_not_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
