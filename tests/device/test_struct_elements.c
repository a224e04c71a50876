/*
 * tests/device/test_struct_elements.c - plain structs as element types: views and
 * arrays of them in kernels (v(i).member), sections, tile_static arrays of
 * them, the ledger's byte counts, the kernel cache's signature, and every
 * layout or registration that must be refused.
 */
#include <stdlib.h>

#include "test_util.h"

AMP_STRUCT(particle, (float, x), (float, y), (float, vx), (float, vy), (int, id));
AMP_STRUCT(tally, (unsigned, hits), (int, sum));
AMP_STRUCT(weighted, (int, id), (double, mass));

static amp_elem_type registered(const amp_struct_desc *desc)
{
    amp_elem_type type = (amp_elem_type)0;
    assert_amp_ok(amp_struct_register(desc, &type));
    return type;
}

static void a_view_of_structs_moves_its_members_in_a_kernel(void **state)
{
    (void)state;
    amp_elem_type type = registered(AMP_STRUCT_DESC(particle));
    assert_true((int)type >= 64);
    assert_int_equal(amp_elem_type_size(type), sizeof(particle));
    assert_string_equal(amp_elem_type_name(type), "particle");
    assert_ptr_equal(amp_struct_of(type), AMP_STRUCT_DESC(particle));
    assert_null(amp_struct_of(AMP_INT));

    enum { N = 100 };
    particle p[N];
    for (int i = 0; i < N; i++)
        p[i] = (particle){(float)i, (float)(2 * i), 0.5f, -1.0f, i};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(type, amp_extent_1d(N), p, &v));
    assert_int_equal(amp_array_view_get_type(v), type);
    float dt = 2.0f;
    for (int step = 0; step < 3; step++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v, dt), {
            particle q = v(idx);
            q.x += q.vx * dt;
            q.y += q.vy * dt;
            v(idx) = q;
            v(idx).id = q.id * 2 + 1;
        }));
    assert_amp_ok(amp_array_view_synchronize(v));
    int id = 0;
    for (int i = 0; i < N; i++) {
        assert_true(p[i].x == (float)i + 3.0f);
        assert_true(p[i].y == (float)(2 * i) - 6.0f);
        assert_true(p[i].vx == 0.5f && p[i].vy == -1.0f);
        id = ((i * 2 + 1) * 2 + 1) * 2 + 1;
        assert_int_equal(p[i].id, id);
    }
    /* The whole array of structs moved once each way. */
    amp_transfer_stats s;
    assert_amp_ok(amp_array_view_get_transfers(v, &s));
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.upload_bytes, sizeof p);
    assert_int_equal(s.downloads, 1);
    assert_int_equal(s.download_bytes, sizeof p);
    assert_amp_ok(amp_array_view_release(v));
}

static void sections_and_tile_static_arrays_of_structs(void **state)
{
    (void)state;
    amp_elem_type type = registered(AMP_STRUCT_DESC(tally));
    enum { R = 4, C = 32 };
    tally grid[R * C];
    for (int i = 0; i < R * C; i++)
        grid[i] = (tally){0u, i};
    amp_array_view *all, *rows;
    assert_amp_ok(amp_array_view_create(type, amp_extent_2d(R, C), grid, &all));
    /* Rows 1 and 2, columns 8 to 23: offsets and strides count structs. */
    assert_amp_ok(amp_array_view_section(all, amp_index_2d(1, 8), amp_extent_2d(2, 16), &rows));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(2, 16), 1, 16),
                                        t_idx, AMP_CAPTURE(rows), {
        tile_static tally line[16];
        int j = t_idx.local[1];
        line[j] = rows(t_idx.global);
        t_idx.barrier.wait();
        /* Each element takes its right-hand neighbour's sum, round the tile. */
        rows(t_idx.global).hits = 1u;
        rows(t_idx.global).sum = line[(j + 1) % 16].sum;
    }));
    assert_amp_ok(amp_array_view_synchronize(all));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            const tally *t = &grid[i * C + j];
            int inside = i >= 1 && i <= 2 && j >= 8 && j < 24;
            assert_int_equal(t->hits, inside ? 1u : 0u);
            int right = 8 + (j - 8 + 1) % 16;
            assert_int_equal(t->sum, inside ? i * C + right : i * C + j);
        }
    assert_amp_ok(amp_array_view_release(rows));
    assert_amp_ok(amp_array_view_release(all));
}

static void arrays_of_structs_and_double_members(void **state)
{
    (void)state;
    amp_elem_type type = registered(AMP_STRUCT_DESC(weighted));
    enum { N = 10 };
    weighted w[N], back[N];
    for (int i = 0; i < N; i++)
        w[i] = (weighted){i, 0.25 * i};
    amp_array *a;
    amp_status st = amp_array_create_from_host(type, amp_extent_1d(N), w, NULL, &a);
    if (!device_has_double()) {
        /* The array is made; a kernel that would compile its double member
         * is refused before it is built. */
        assert_amp_ok(st);
        assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(a),
                                               { a(idx).id += 1; }),
                         AMP_ERROR_UNSUPPORTED_FEATURE, "'a' holds double");
        assert_amp_ok(amp_array_release(a));
        return;
    }
    assert_amp_ok(st);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(a), {
        a(idx).mass = a(idx).mass * 4.0 + a(idx).id;
        a(idx).id = -a(idx).id;
    }));
    assert_amp_ok(AMP_COPY(a, (void *)back));
    for (int i = 0; i < N; i++) {
        assert_int_equal(back[i].id, -i);
        assert_true(back[i].mass == 2.0 * i);
    }
    assert_amp_ok(amp_array_release(a));
}

/* One call site for two struct types: the signature tells them apart. */
static amp_status first_member_to_int(amp_array_view *v, amp_array_view *out)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v, out), {
        out(0) = (int)v(0).first;
    });
}

static void the_kernel_cache_tells_struct_types_apart(void **state)
{
    (void)state;
    /* Two structs whose first members are both called first. Their
     * descriptions live as long as the process, as registration asks: the
     * kernels of later tests know every registered type. */
    static amp_struct_member a_members[] = {{"int", "first", 0, 4, 0}, {"int", "second", 4, 4, 0}};
    static amp_struct_member b_members[] = {{"float", "first", 0, 4, 0}};
    static amp_struct_desc a_desc = {"pair_a", 8, 2, a_members};
    static amp_struct_desc b_desc = {"pair_b", 4, 1, b_members};
    amp_elem_type ta = registered(&a_desc), tb = registered(&b_desc);
    assert_int_not_equal(ta, tb);
    int a_data[2] = {-7, 3};
    float b_data[1] = {9.75f};
    int out = 0;
    amp_array_view *va, *vb, *vo;
    assert_amp_ok(amp_array_view_create(ta, amp_extent_1d(1), a_data, &va));
    assert_amp_ok(amp_array_view_create(tb, amp_extent_1d(1), b_data, &vb));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(1), &out, &vo));
    amp_kernel_stats before = kernels_now();
    assert_amp_ok(first_member_to_int(va, vo));
    assert_amp_ok(amp_array_view_synchronize(vo));
    assert_int_equal(out, -7);
    assert_amp_ok(first_member_to_int(vb, vo));
    assert_amp_ok(amp_array_view_synchronize(vo));
    assert_int_equal(out, 9);
    assert_int_equal(kernels_now().builds - before.builds, 2);
    assert_amp_ok(first_member_to_int(va, vo));
    assert_int_equal(kernels_now().builds - before.builds, 2);
    assert_amp_ok(amp_array_view_release(va));
    assert_amp_ok(amp_array_view_release(vb));
    assert_amp_ok(amp_array_view_release(vo));
}

static void registration_is_idempotent_and_refuses_what_could_differ(void **state)
{
    (void)state;
    amp_elem_type t1 = registered(AMP_STRUCT_DESC(particle));
    amp_elem_type t2 = registered(AMP_STRUCT_DESC(particle));
    assert_int_equal(t1, t2);
    /* The same struct described by another object (another file's
     * AMP_STRUCT): the same type. */
    amp_struct_desc copy = *AMP_STRUCT_DESC(particle);
    assert_int_equal(registered(&copy), t1);

    amp_elem_type out = (amp_elem_type)0;
    assert_amp_fails(amp_struct_register(NULL, &out), AMP_ERROR_INVALID_ARGUMENT, "desc is NULL");
    assert_amp_fails(amp_struct_register(AMP_STRUCT_DESC(particle), NULL),
                     AMP_ERROR_INVALID_ARGUMENT, "out is NULL");

    /* Another struct under a registered name. */
    amp_struct_member other[] = {{"int", "x", 0, 4, 0}};
    amp_struct_desc clash = {"particle", 4, 1, other};
    assert_amp_fails(amp_struct_register(&clash, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "another struct named particle");

    /* Member types whose layout is not fixed, names, counts. */
    amp_struct_member chars[] = {{"char", "c", 0, 1, 0}};
    amp_struct_desc bad_type = {"has_char", 1, 1, chars};
    assert_amp_fails(amp_struct_register(&bad_type, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "member 'c' of struct has_char is of type 'char'");
    amp_struct_desc bad_name = {"two words", 4, 1, other};
    assert_amp_fails(amp_struct_register(&bad_name, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "'two words' is not an identifier");
    amp_struct_desc none = {"empty", 0, 0, other};
    assert_amp_fails(amp_struct_register(&none, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "has 0 members");
    amp_struct_member many[17];
    for (int i = 0; i < 17; i++)
        many[i] = (amp_struct_member){"int", "m", (size_t)i * 4, 4, 0};
    amp_struct_desc too_many = {"big", 68, 17, many};
    assert_amp_fails(amp_struct_register(&too_many, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "has 17 members");

    /* A host that aligns double to 4 in structs (32-bit x86) puts mass at
     * byte 4; OpenCL C puts it at 8. */
    amp_struct_member packed[] = {{"int", "id", 0, 4, 0}, {"double", "mass", 4, 8, 0}};
    amp_struct_desc i386 = {"weighted32", 12, 2, packed};
    assert_amp_fails(amp_struct_register(&i386, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "member 'mass' of struct weighted32 is 8 bytes at byte 4 on the host, and 8"
                     " bytes at byte 8 in OpenCL C");
    /* The right offsets, but a size without the tail padding. */
    amp_struct_member tail[] = {{"double", "mass", 0, 8, 0}, {"int", "id", 8, 4, 0}};
    amp_struct_desc short_size = {"tailless", 12, 2, tail};
    assert_amp_fails(amp_struct_register(&short_size, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "struct tailless is 12 bytes on the host and 16 in OpenCL C");
    /* A double_4 aligns to 32 in OpenCL C, to 16 on this host: the members
     * match, the ends do not, and the message says what fills the end. */
    amp_struct_member wide[] = {{"double_4", "a", 0, 32, 0}, {"int", "k", 32, 4, 0}};
    amp_struct_desc wide_tail = {"wide", 48, 2, wide};
    assert_amp_fails(amp_struct_register(&wide_tail, &out), AMP_ERROR_INVALID_ARGUMENT,
                     "struct wide is 48 bytes on the host and 64 in OpenCL C, which rounds a"
                     " struct up to its largest alignment (32 bytes). Fill the last 16 bytes on"
                     " the host with a member of its own, (int, pad, 4)");
    assert_int_equal(out, 0);

    /* A type number no struct has is still refused by views. */
    amp_array_view *v;
    int data[4];
    assert_amp_fails(amp_array_view_create((amp_elem_type)200, amp_extent_1d(4), data, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "element type 200");
}

/* Runs last: the types it registers stay for the rest of the process. */
static void a_process_registers_at_most_amp_max_struct_types(void **state)
{
    (void)state;
    static char names[AMP_MAX_STRUCT_TYPES + 1][16];
    static amp_struct_member members[AMP_MAX_STRUCT_TYPES + 1][1];
    static amp_struct_desc descs[AMP_MAX_STRUCT_TYPES + 1];
    amp_elem_type last = (amp_elem_type)0;
    amp_status st = AMP_OK;
    for (int i = 0; i <= AMP_MAX_STRUCT_TYPES && st == AMP_OK; i++) {
        snprintf(names[i], sizeof names[i], "filler%d", i);
        members[i][0] = (amp_struct_member){"int", "x", 0, 4, 0};
        descs[i] = (amp_struct_desc){names[i], 4, 1, members[i]};
        amp_elem_type type;
        amp_clear_error();
        st = amp_struct_register(&descs[i], &type);
        if (st == AMP_OK)
            last = type;
    }
    assert_int_equal(st, AMP_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(amp_last_error(), "64 struct types are registered"));
    assert_non_null(strstr(amp_last_error(), "AMP_MAX_STRUCT_TYPES"));
    /* The last one registered is a type a kernel knows. */
    int data[4] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(last, amp_extent_1d(4), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(v),
                                        { v(idx).x = idx[0] * 2; }));
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(data[3], 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_view_of_structs_moves_its_members_in_a_kernel),
        cmocka_unit_test(sections_and_tile_static_arrays_of_structs),
        cmocka_unit_test(arrays_of_structs_and_double_members),
        cmocka_unit_test(the_kernel_cache_tells_struct_types_apart),
        cmocka_unit_test(registration_is_idempotent_and_refuses_what_could_differ),
        cmocka_unit_test(a_process_registers_at_most_amp_max_struct_types),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    amp_shutdown();
    return failed;
}
