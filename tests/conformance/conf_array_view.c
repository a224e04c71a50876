/*
 * tests/conformance/conf_array_view.c - C++ AMP 1.2, section 5.2,
 * array_view<T, N> (and Microsoft's reference page for
 * concurrency::array_view): construction, the members that move data
 * (synchronize, refresh, discard_data, data), indexing in kernels, and the
 * view operations (section, projection, view_as, reinterpret_as), with the
 * transfer ledger wherever the section says what moves.
 *
 * Each test, and the section it comes from:
 *
 * array_view_5_2_2_made_over_host_data_moves_nothing_yet
 *     5.2.2 array_view(extent, container)
 * array_view_5_2_2_made_from_an_extent_alone
 *     5.2.2 array_view(const extent<N>&)
 * array_view_5_2_2_const_view_is_never_copied_back
 *     5.2.2 array_view<const T, N>
 * array_view_5_2_2_bad_extents_are_refused
 *     5.2.2 constructors' requirements
 * array_view_5_2_2_views_of_one_container_share_its_data
 *     5.2.2 array_view(const array_view&)
 * array_view_5_2_3_extent_rank_and_element_type
 *     5.2.3 extent, get_extent(), rank
 * array_view_5_2_3_synchronize_copies_back_once
 *     5.2.3 synchronize()
 * array_view_5_2_3_synchronize_async_completes_with_data
 *     5.2.3 synchronize_async()
 * array_view_5_2_3_synchronize_to_uploads_ahead
 *     5.2.3 synchronize_to(accelerator_view)
 * array_view_5_2_3_refresh_makes_device_copies_stale
 *     5.2.3 refresh()
 * array_view_5_2_3_discard_data_means_no_upload
 *     5.2.3 discard_data()
 * array_view_5_2_3_discard_data_covers_sections
 *     5.2.3 discard_data(), of a section's parent
 * array_view_5_2_3_discard_data_lasts_until_a_write
 *     5.2.3 discard_data()
 * array_view_5_2_3_data_gives_synchronized_host_memory
 *     5.2.3 data()
 * array_view_5_2_3_data_for_reading_keeps_the_device_copy
 *     5.2.3 data() of array_view<const T, N>
 * array_view_5_2_3_data_of_a_const_view_is_read_only
 *     5.2.3 data() const: const T*
 * array_view_5_2_3_destructor_copies_back
 *     5.2.3 ~array_view() synchronizes
 * array_view_5_2_3_destructor_of_a_view_only_read_moves_nothing
 *     5.2.3 ~array_view()
 * array_view_5_2_4_subscript_with_an_index_of_each_rank
 *     5.2.4 operator[](const index<N>&)
 * array_view_5_2_4_subscript_with_an_index_made_in_place
 *     5.2.4 v[index<2>(i, j)], v(index<3>(...))
 * array_view_5_2_4_call_with_integers_of_each_rank
 *     5.2.4 operator()(int i0 [, i1 [, i2]])
 * array_view_5_2_4_chained_subscripts_are_an_element
 *     5.2.4 operator[](int) then [], (v[i][j])
 * array_view_5_2_5_section_shares_data
 *     5.2.5 section(origin, extent)
 * array_view_5_2_5_section_of_a_section
 *     5.2.5 section() of a section
 * array_view_5_2_5_sections_that_overlap_see_each_other
 *     5.2.5 section(), 8 (coherence)
 * array_view_5_2_5_section_outside_the_view_is_refused
 *     5.2.5 section()'s requirements
 * array_view_5_2_5_section_in_a_kernel
 *     5.2.5 section(idx, ext), section(idx), section(ext), section(i0, i1, e0, e1)
 * array_view_5_2_5_section_in_a_kernel_used_alone
 *     5.2.5 section() of rank 2 and 3, restrict(amp)
 * array_view_5_2_5_section_of_a_const_view_is_const
 *     5.2.5 section() of array_view<const T>
 * array_view_5_2_5_projection_is_a_row
 *     5.2.5 operator[](int): array_view<T, N-1>
 * array_view_5_2_5_projection_in_a_kernel
 *     5.2.5 operator[](int), restrict(amp)
 * array_view_5_2_5_view_as_reshapes
 *     5.2.5 view_as(extent<K>)
 * array_view_5_2_5_view_as_keeps_the_element_count
 *     5.2.5 view_as()'s requirements
 * array_view_5_2_5_reinterpret_as_shares_the_bits
 *     5.2.5 reinterpret_as<ElementType>()
 * array_view_5_2_5_reinterpret_as_needs_whole_elements
 *     5.2.5 reinterpret_as()'s requirements
 * array_view_5_2_views_given_to_restrict_amp_functions
 *     5.2 array_view as a restrict(amp) function's parameter (chapter 2, 5.2.4)
 * array_view_5_2_elements_of_a_struct_type
 *     5.2 array_view<T, N> of a struct T, and structs through restrict(amp) functions
 * array_view_5_2_4_host_subscript_reads_and_writes_one_element
 *     5.2.4 operator()(index), operator[] on the host: a read synchronizes,
 *     a write makes the accelerator's copy stale
 * array_view_5_2_3_data_of_a_section_keeps_its_parents_rows
 *     5.2.3 data(): the section's first element, its rows its parent's
 * array_view_5_2_1_rank_5_view_and_section
 *     5.2.1 template <typename T, int N> class array_view (N up to 8 here)
 */
#include <math.h>

#include "conf_util.h"

/* "array_view<T, N>(const extent<N>& extent, Container& src)": a view of
 * the container's data, which moves only when it is used somewhere else. */
static void array_view_5_2_2_made_over_host_data_moves_nothing_yet(void **state)
{
    (void)state;
    static int d1[8], d2[12], d3[24], out[8 + 12 + 24];
    iota(d1, 8, 100);
    iota(d2, 12, 200);
    iota(d3, 24, 300);
    amp_array_view *v1, *v2, *v3, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), d1, &v1));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), d2, &v2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 3, 4), d3, &v3));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(44), out, &o));
    assert_int_equal(ledger_of(v1).uploads + ledger_of(v2).uploads + ledger_of(v3).uploads, 0);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(24), idx, AMP_CAPTURE(v1, v2, v3, o), {
        int k = idx[0];
        if (k < 8)
            o[k] = v1[k];
        if (k < 12)
            o[8 + k] = v2(k / 4, k % 4);
        o[20 + k] = v3(k / 12, k / 4 % 3, k % 4);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 44; k++)
        assert_int_equal(out[k], k < 8 ? 100 + k : k < 20 ? 200 + k - 8 : 300 + k - 20);
    /* each moved once, whole, because a kernel used it */
    amp_transfer_stats s1 = ledger_of(v1), s2 = ledger_of(v2), s3 = ledger_of(v3);
    assert_int_equal(s1.count[AMP_TO_DEVICE][AMP_REASON_KERNEL], 1);
    assert_int_equal(s1.upload_bytes, sizeof d1);
    assert_int_equal(s2.upload_bytes, sizeof d2);
    assert_int_equal(s3.upload_bytes, sizeof d3);
    assert_int_equal(s1.downloads + s2.downloads + s3.downloads, 0);
    amp_array_view *views[] = {v1, v2, v3, o};
    for (size_t k = 0; k < 4; k++)
        assert_amp_ok(amp_array_view_release(views[k]));
}

/* "array_view<T, N>(const extent<N>& extent): constructs an array_view
 * which is not bound to a data source": nothing to upload; what a kernel
 * writes is read back on the host. */
static void array_view_5_2_2_made_from_an_extent_alone(void **state)
{
    (void)state;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create_extent(AMP_INT, amp_extent_2d(4, 6), &v));
    assert_true(amp_extent_equal(amp_array_view_get_extent(v), amp_extent_2d(4, 6)));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v), idx, AMP_CAPTURE(v), {
        v[idx] = idx[0] * 10 + idx[1];
    }));
    assert_int_equal(ledger_of(v).uploads, 0);
    const void *p;
    assert_amp_ok(amp_array_view_data_const(v, &p));
    const int *e = p;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
            assert_int_equal(e[i * 6 + j], i * 10 + j);
    assert_amp_ok(amp_array_view_release(v));
}

/* array_view<const T, N>: read only, so it is never copied back, and a
 * kernel cannot write it. */
static void array_view_5_2_2_const_view_is_never_copied_back(void **state)
{
    (void)state;
    static int in[16], out[16] = {0};
    iota(in, 16, 1);
    amp_array_view *c, *o;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(16), in, &c));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), out, &o));
    assert_true(amp_array_view_is_const(c));
    assert_false(amp_array_view_is_const(o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(c, o),
                                        { o[idx] = c[idx] * c[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(c));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 16; k++) {
        assert_int_equal(in[k], k + 1);
        assert_int_equal(out[k], (k + 1) * (k + 1));
    }
    assert_int_equal(ledger_of(c).uploads, 1);
    assert_int_equal(ledger_of(c).downloads, 0);
    /* writing it does not compile */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(c), { c[idx] = 0; }),
                     AMP_ERROR_KERNEL_BUILD, "");
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_view_release(c));
    assert_int_equal(transfers_now().downloads, 0);
    assert_amp_ok(amp_array_view_release(o));
}

/* An extent<N> whose dimensions are not all positive describes no view. */
static void array_view_5_2_2_bad_extents_are_refused(void **state)
{
    (void)state;
    static int data[8] = {0};
    amp_array_view *v = NULL;
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_2d(0, 4), data, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_1d(-8), data, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_3d(2, 2, 0), data, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_create_extent(AMP_INT, amp_extent_2d(2, -1), &v),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_create(AMP_INT, amp_extent_1d(8), NULL, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_null(v);
}

/* "array_view(const array_view& other): copy constructor. Shallow copy":
 * two views of one container are one data source; a kernel's write
 * through one is seen through the other. */
static void array_view_5_2_2_views_of_one_container_share_its_data(void **state)
{
    (void)state;
    static int data[12], seen[12];
    iota(data, 12, 0);
    amp_array_view *a, *b, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(12), data, &a));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), data, &b));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(12), seen, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(12), idx, AMP_CAPTURE(a),
                                        { a[idx] = a[idx] * 3 + 1; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(b, o),
                                        { o[idx[0] * 4 + idx[1]] = b[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_amp_ok(amp_array_view_synchronize(b));
    for (int k = 0; k < 12; k++) {
        assert_int_equal(seen[k], 3 * k + 1);
        assert_int_equal(data[k], 3 * k + 1);
    }
    /* one source: uploaded once, for the first kernel */
    assert_int_equal(ledger_of(a).uploads, 1);
    assert_amp_ok(amp_array_view_release(a));
    assert_amp_ok(amp_array_view_release(b));
    assert_amp_ok(amp_array_view_release(o));
}

/* "extent<N> get_extent() const", "static const int rank = N". */
static void array_view_5_2_3_extent_rank_and_element_type(void **state)
{
    (void)state;
    static float data[24] = {0};
    amp_array_view *v, *s, *row, *flat;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_3d(2, 3, 4), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_3d(1, 1, 0), amp_extent_3d(1, 2, 4), &s));
    assert_amp_ok(amp_array_view_project(v, 1, &row));
    assert_amp_ok(amp_array_view_view_as(v, amp_extent_1d(24), &flat));
    assert_true(amp_extent_equal(amp_array_view_get_extent(v), amp_extent_3d(2, 3, 4)));
    assert_int_equal(amp_array_view_get_extent(v).rank, 3);
    assert_true(amp_extent_equal(amp_array_view_get_extent(s), amp_extent_3d(1, 2, 4)));
    assert_true(amp_extent_equal(amp_array_view_get_extent(row), amp_extent_2d(3, 4)));
    assert_int_equal(amp_array_view_get_extent(row).rank, 2);
    assert_true(amp_extent_equal(amp_array_view_get_extent(flat), amp_extent_1d(24)));
    assert_int_equal(amp_array_view_get_type(v), AMP_FLOAT);
    assert_int_equal(amp_array_view_get_type(s), AMP_FLOAT);
    assert_int_equal(amp_elem_type_size(amp_array_view_get_type(row)), sizeof(float));
    amp_array_view *views[] = {flat, row, s, v};
    for (size_t k = 0; k < 4; k++)
        assert_amp_ok(amp_array_view_release(views[k]));
}

/* "void synchronize() const: synchronizes any modifications made to the
 * data underlying this array_view to its source data container": one copy
 * back, and none when nothing changed since. */
static void array_view_5_2_3_synchronize_copies_back_once(void **state)
{
    (void)state;
    static int data[6 * 7];
    iota(data, 6 * 7, 0);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(6, 7), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v), idx, AMP_CAPTURE(v),
                                        { v[idx] = -v[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < 6 * 7; k++)
        assert_int_equal(data[k], -k);
    amp_transfer_stats s = ledger_of(v);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_SYNCHRONIZE], 1);
    assert_int_equal(s.download_bytes, sizeof data);
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(ledger_of(v).downloads, 1);
    assert_amp_ok(amp_array_view_release(v));
}

/* "completion_future synchronize_async() const": the same, with a handle
 * that completes once the container holds the data. */
static void array_view_5_2_3_synchronize_async_completes_with_data(void **state)
{
    (void)state;
    enum { N = 1000 };
    static float data[N];
    for (int k = 0; k < N; k++)
        data[k] = (float)k;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v),
                                        { v[idx] = v[idx] * 0.5f; }));
    amp_completion *done;
    assert_amp_ok(amp_array_view_synchronize_async(v, &done));
    assert_amp_ok(amp_completion_wait(done));
    int ready = 0;
    assert_amp_ok(amp_completion_is_done(done, &ready));
    assert_true(ready);
    assert_amp_ok(amp_completion_release(done));
    for (int k = 0; k < N; k++)
        assert_true(data[k] == 0.5f * (float)k);
    assert_int_equal(ledger_of(v).downloads, 1);
    assert_amp_ok(amp_array_view_release(v));
}

/* "void synchronize_to(const accelerator_view& av) const": the data is
 * made current on av now; the kernel that follows uploads nothing. */
static void array_view_5_2_3_synchronize_to_uploads_ahead(void **state)
{
    (void)state;
    static int data[64], out[64];
    iota(data, 64, 5);
    amp_array_view *v, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), data, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(64), out, &o));
    assert_amp_ok(amp_array_view_synchronize_to(v, NULL));
    assert_int_equal(ledger_of(v).uploads, 1);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(64), idx, AMP_CAPTURE(v, o),
                                        { o[idx] = v[idx] + 1; }));
    assert_int_equal(ledger_of(v).uploads, 1);
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 64; k++)
        assert_int_equal(out[k], k + 6);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(o));
}

/* "void refresh() const: informs the array_view that its bound memory has
 * been modified outside the array_view interface. This will render all
 * cached information stale." */
static void array_view_5_2_3_refresh_makes_device_copies_stale(void **state)
{
    (void)state;
    static int data[32], out[32];
    iota(data, 32, 0);
    amp_array_view *v, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(32), data, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(32), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(32), idx, AMP_CAPTURE(v, o),
                                        { o[idx] = v[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 32; k++)
        data[k] = 1000 + k; /* behind the view's back */
    assert_amp_ok(amp_array_view_refresh(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(32), idx, AMP_CAPTURE(v, o),
                                        { o[idx] = v[idx] * 2; }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 32; k++)
        assert_int_equal(out[k], 2 * (1000 + k));
    assert_int_equal(ledger_of(v).uploads, 2);
    assert_int_equal(ledger_of(v).downloads, 0);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(o));
}

/* "void discard_data() const: indicates to the runtime that the data
 * underlying this view can be discarded ... avoids copying the current
 * contents of the view to a target accelerator_view". */
static void array_view_5_2_3_discard_data_means_no_upload(void **state)
{
    (void)state;
    static int data[40];
    iota(data, 40, 0);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(5, 8), data, &v));
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(v), idx, AMP_CAPTURE(v),
                                        { v[idx] = idx[0] - idx[1]; }));
    assert_int_equal(ledger_of(v).uploads, 0);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 8; j++)
            assert_int_equal(data[i * 8 + j], i - j);
    assert_amp_ok(amp_array_view_release(v));
}

/* discard_data() "applies to the array_view and all other array_views
 * that are its sections or projections": a kernel on a section of a
 * discarded view uploads nothing either. */
static void array_view_5_2_3_discard_data_covers_sections(void **state)
{
    (void)state;
    static int data[8 * 8];
    iota(data, 64, 0);
    amp_array_view *v, *s, *row;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(8, 8), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(2, 2), amp_extent_2d(4, 4), &s));
    assert_amp_ok(amp_array_view_project(v, 7, &row));
    assert_amp_ok(amp_array_view_discard_data(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), idx, AMP_CAPTURE(s),
                                        { s[idx] = 7; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(row),
                                        { row[idx] = 9; }));
    assert_int_equal(ledger_of(v).uploads, 0);
    assert_amp_ok(amp_array_view_synchronize(s));
    assert_amp_ok(amp_array_view_synchronize(row));
    for (int i = 2; i < 6; i++)
        for (int j = 2; j < 6; j++)
            assert_int_equal(data[i * 8 + j], 7);
    for (int j = 0; j < 8; j++)
        assert_int_equal(data[7 * 8 + j], 9);
    assert_amp_ok(amp_array_view_release(row));
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

/* "as soon as a discarded array_view is written to ... the contents become
 * valid and are no longer considered discarded": written on the host after
 * the discard, the data is uploaded for the next kernel. */
static void array_view_5_2_3_discard_data_lasts_until_a_write(void **state)
{
    (void)state;
    static int data[16], out[16];
    iota(data, 16, 0);
    amp_array_view *v, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), out, &o));
    assert_amp_ok(amp_array_view_discard_data(v));
    void *p;
    assert_amp_ok(amp_array_view_data(v, &p));
    assert_int_equal(ledger_of(v).downloads, 0);
    for (int k = 0; k < 16; k++)
        ((int *)p)[k] = 50 + k;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v, o),
                                        { o[idx] = v[idx]; }));
    assert_int_equal(ledger_of(v).uploads, 1);
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 16; k++)
        assert_int_equal(out[k], 50 + k);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(o));
}

/* "T* data() const: returns a pointer to the raw data underlying this
 * array_view", synchronized for the host; what the host writes through it
 * reaches the next kernel. */
static void array_view_5_2_3_data_gives_synchronized_host_memory(void **state)
{
    (void)state;
    static int data[20], out[20];
    iota(data, 20, 0);
    amp_array_view *v, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 5), data, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 5), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 5), idx, AMP_CAPTURE(v),
                                        { v[idx] += 100; }));
    void *p;
    assert_amp_ok(amp_array_view_data(v, &p));
    assert_int_equal(ledger_of(v).count[AMP_TO_HOST][AMP_REASON_HOST_ACCESS], 1);
    int *e = p;
    for (int k = 0; k < 20; k++)
        assert_int_equal(e[k], 100 + k);
    e[7] = -7;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 5), idx, AMP_CAPTURE(v, o),
                                        { o[idx] = v[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 20; k++)
        assert_int_equal(out[k], k == 7 ? -7 : 100 + k);
    assert_int_equal(ledger_of(v).uploads, 2);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(o));
}

/* data() of an array_view<const T, N> reads the data without writing it:
 * the device copy stays current, and the next kernel uploads nothing. */
static void array_view_5_2_3_data_for_reading_keeps_the_device_copy(void **state)
{
    (void)state;
    static int data[20];
    iota(data, 20, 0);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(20), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(20), idx, AMP_CAPTURE(v),
                                        { v[idx] *= 3; }));
    const void *p;
    assert_amp_ok(amp_array_view_data_const(v, &p));
    for (int k = 0; k < 20; k++)
        assert_int_equal(((const int *)p)[k], 3 * k);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(20), idx, AMP_CAPTURE(v),
                                        { v[idx] += 1; }));
    assert_int_equal(ledger_of(v).uploads, 1);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int k = 0; k < 20; k++)
        assert_int_equal(data[k], 3 * k + 1);
    assert_amp_ok(amp_array_view_release(v));
}

/* An array_view<const T, N>'s data() is const T*: the library refuses
 * write access and gives read access. */
static void array_view_5_2_3_data_of_a_const_view_is_read_only(void **state)
{
    (void)state;
    static int data[4] = {1, 2, 3, 4};
    amp_array_view *c;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(4), data, &c));
    void *p = NULL;
    assert_amp_fails(amp_array_view_data(c, &p), AMP_ERROR_INVALID_OPERATION, "");
    assert_null(p);
    const void *q;
    assert_amp_ok(amp_array_view_data_const(c, &q));
    assert_int_equal(((const int *)q)[3], 4);
    assert_amp_ok(amp_array_view_release(c));
}

/* "~array_view(): ... if this is the last array_view of the data source,
 * the data is synchronized back to it" (C: amp_array_view_release). */
static void array_view_5_2_3_destructor_copies_back(void **state)
{
    (void)state;
    static int data[3 * 3];
    iota(data, 9, 1);
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 3), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(1, 1), amp_extent_2d(2, 2), &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 3), idx, AMP_CAPTURE(v),
                                        { v[idx] *= 10; }));
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_view_release(v)); /* s still views the data */
    assert_int_equal(transfers_now().downloads, 0);
    assert_amp_ok(amp_array_view_release(s));
    amp_transfer_stats t = transfers_now();
    assert_int_equal(t.count[AMP_TO_HOST][AMP_REASON_RELEASE], 1);
    for (int k = 0; k < 9; k++)
        assert_int_equal(data[k], 10 * (k + 1));
}

/* A view that kernels only read holds nothing newer than its container:
 * its destructor copies nothing. */
static void array_view_5_2_3_destructor_of_a_view_only_read_moves_nothing(void **state)
{
    (void)state;
    static int in[16], out[16];
    iota(in, 16, 0);
    amp_array_view *v, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), in, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v, o),
                                        { o[idx] = v[idx] + v[(idx + 1) % 16]; }));
    amp_transfer_reset_stats();
    assert_amp_ok(amp_array_view_release(v));
    assert_int_equal(transfers_now().downloads, 0);
    assert_amp_ok(amp_array_view_release(o));
    assert_int_equal(transfers_now().downloads, 1);
    for (int k = 0; k < 16; k++)
        assert_int_equal(out[k], k + (k + 1) % 16);
}

/* "T& operator[](const index<N>& idx) const restrict(amp,cpu)": the element
 * at idx, for reading and writing, at each rank. */
static void array_view_5_2_4_subscript_with_an_index_of_each_rank(void **state)
{
    (void)state;
    static int d1[10], d2[4 * 6], d3[2 * 3 * 4], o2[4 * 6];
    iota(d1, 10, 0);
    iota(d2, 24, 0);
    iota(d3, 24, 0);
    amp_array_view *v1, *v2, *v3, *w2;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(10), d1, &v1));
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(4, 6), d2, &v2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 3, 4), d3, &v3));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 6), o2, &w2));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(10), idx, AMP_CAPTURE(v1),
                                        { v1[idx] = v1[idx] * 2 + 1; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 6), idx, AMP_CAPTURE(v2, w2), {
        index<2> mirror = index<2>(3, 5) - idx;
        w2[idx] = v2[idx] * 100 + v2[mirror];
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(2, 3, 4), idx, AMP_CAPTURE(v3),
                                        { v3[idx] = -v3[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(v1));
    assert_amp_ok(amp_array_view_synchronize(w2));
    assert_amp_ok(amp_array_view_synchronize(v3));
    for (int k = 0; k < 10; k++)
        assert_int_equal(d1[k], 2 * k + 1);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 6; j++)
            assert_int_equal(o2[i * 6 + j], (i * 6 + j) * 100 + (3 - i) * 6 + (5 - j));
    for (int k = 0; k < 24; k++)
        assert_int_equal(d3[k], -k);
    amp_array_view *views[] = {v1, v2, v3, w2};
    for (size_t k = 0; k < 4; k++)
        assert_amp_ok(amp_array_view_release(views[k]));
}

/* The same operators with the index made where it is used, from variables:
 * v[index<2>(i, j)], v(index<3>(i, j, k)). */
static void array_view_5_2_4_subscript_with_an_index_made_in_place(void **state)
{
    (void)state;
    static int d2[3 * 4], d3[2 * 2 * 3];
    amp_array_view *v2, *v3;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), d2, &v2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 2, 3), d3, &v3));
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v2, v3), {
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++)
                v2[index<2>(i, j)] = 10 * i + j;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int k = 0; k < 3; k++)
                    v3(index<3>(i, j, k)) = 100 * i + 10 * j + k;
    });
    if (st == AMP_OK) {
        st = amp_array_view_synchronize(v2);
        if (st == AMP_OK)
            st = amp_array_view_synchronize(v3);
    }
    assert_amp_ok(amp_array_view_release(v2));
    assert_amp_ok(amp_array_view_release(v3));
    if (st != AMP_OK)
        fail_msg("v[index<2>(i, j)] and v(index<3>(i, j, k)): %s: %.600s", amp_status_name(st),
                 amp_last_error());
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(d2[i * 4 + j], 10 * i + j);
    for (int k = 0; k < 12; k++)
        assert_int_equal(d3[k], 100 * (k / 6) + 10 * (k / 3 % 2) + k % 3);
}

/* "T& operator()(int i0 [, int i1 [, int i2]]) const restrict(amp,cpu)". */
static void array_view_5_2_4_call_with_integers_of_each_rank(void **state)
{
    (void)state;
    static int d1[6], d2[3 * 4], d3[2 * 2 * 3];
    amp_array_view *v1, *v2, *v3;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(6), d1, &v1));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), d2, &v2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 2, 3), d3, &v3));
    assert_amp_ok(amp_array_view_discard_data(v1));
    assert_amp_ok(amp_array_view_discard_data(v2));
    assert_amp_ok(amp_array_view_discard_data(v3));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(v1, v2, v3), {
        for (int i = 0; i < 6; i++)
            v1(i) = i + 1;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 4; j++)
                v2(i, j) = 10 * i + j;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int k = 0; k < 3; k++)
                    v3(i, j, k) = 100 * i + 10 * j + k;
    }));
    assert_amp_ok(amp_array_view_synchronize(v1));
    assert_amp_ok(amp_array_view_synchronize(v2));
    assert_amp_ok(amp_array_view_synchronize(v3));
    for (int i = 0; i < 6; i++)
        assert_int_equal(d1[i], i + 1);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(d2[i * 4 + j], 10 * i + j);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++)
                assert_int_equal(d3[(i * 2 + j) * 3 + k], 100 * i + 10 * j + k);
    assert_amp_ok(amp_array_view_release(v1));
    assert_amp_ok(amp_array_view_release(v2));
    assert_amp_ok(amp_array_view_release(v3));
}

/* v[i] is array_view<T, N-1> (5.2.5), so v[i][j] (and v[i][j][k]) is the
 * element at (i, j), as operator() gives it. */
static void array_view_5_2_4_chained_subscripts_are_an_element(void **state)
{
    (void)state;
    static int d2[3 * 5], o2[3 * 5], d3[2 * 3 * 4];
    iota(d2, 15, 0);
    iota(d3, 24, 0);
    amp_array_view *v2, *w2, *v3;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(3, 5), d2, &v2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 5), o2, &w2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 3, 4), d3, &v3));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 5), idx, AMP_CAPTURE(v2, w2), {
        w2[idx[0]][idx[1]] = v2[idx[0]][idx[1]] + v2[2 - idx[0]][4 - idx[1]] * 1000;
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(2, 3, 4), idx, AMP_CAPTURE(v3), {
        v3[idx[0]][idx[1]][idx[2]] += 1000;
    }));
    assert_amp_ok(amp_array_view_synchronize(w2));
    assert_amp_ok(amp_array_view_synchronize(v3));
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            assert_int_equal(o2[i * 5 + j], i * 5 + j + ((2 - i) * 5 + 4 - j) * 1000);
    for (int k = 0; k < 24; k++)
        assert_int_equal(d3[k], k + 1000);
    assert_amp_ok(amp_array_view_release(v2));
    assert_amp_ok(amp_array_view_release(w2));
    assert_amp_ok(amp_array_view_release(v3));
}

/* "array_view<T, N> section(const index<N>& origin, const extent<N>& ext)":
 * the elements from origin, of extent ext, of the same data: what is
 * written through the section is in the parent, and nothing else is. */
static void array_view_5_2_5_section_shares_data(void **state)
{
    (void)state;
    static int data[6 * 8];
    iota(data, 48, 0);
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(6, 8), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(1, 2), amp_extent_2d(3, 4), &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(s), idx, AMP_CAPTURE(s),
                                        { s[idx] = -(idx[0] * 10 + idx[1]); }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++) {
            int inside = i >= 1 && i < 4 && j >= 2 && j < 6;
            int want = inside ? -((i - 1) * 10 + (j - 2)) : i * 8 + j;
            assert_int_equal(data[i * 8 + j], want);
        }
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

/* A section of a section starts at the sum of the two origins. */
static void array_view_5_2_5_section_of_a_section(void **state)
{
    (void)state;
    static int data[10 * 10];
    memset(data, 0, sizeof data);
    amp_array_view *v, *s, *ss;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(10, 10), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(2, 3), amp_extent_2d(6, 6), &s));
    assert_amp_ok(amp_array_view_section(s, amp_index_2d(1, 2), amp_extent_2d(2, 3), &ss));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 3), idx, AMP_CAPTURE(ss),
                                        { ss[idx] = 1 + idx[0] * 3 + idx[1]; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++) {
            int inside = i >= 3 && i < 5 && j >= 5 && j < 8;
            assert_int_equal(data[i * 10 + j], inside ? 1 + (i - 3) * 3 + (j - 5) : 0);
        }
    assert_amp_ok(amp_array_view_release(ss));
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

/* Sections of one view that overlap are views of the same data (chapter 8:
 * a later kernel sees an earlier one's writes through any of them). */
static void array_view_5_2_5_sections_that_overlap_see_each_other(void **state)
{
    (void)state;
    static int data[16], out[8];
    iota(data, 16, 0);
    amp_array_view *v, *a, *b, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_1d(0), amp_extent_1d(10), &a));
    assert_amp_ok(amp_array_view_section(v, amp_index_1d(6), amp_extent_1d(8), &b));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(10), idx, AMP_CAPTURE(a),
                                        { a[idx] += 100; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(b, o),
                                        { o[idx] = b[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < 8; k++)
        assert_int_equal(out[k], 6 + k < 10 ? 6 + k + 100 : 6 + k);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_array_view_release(b));
    assert_amp_ok(amp_array_view_release(a));
    assert_amp_ok(amp_array_view_release(v));
}

/* section()'s origin and extent must describe elements of the view. */
static void array_view_5_2_5_section_outside_the_view_is_refused(void **state)
{
    (void)state;
    static int data[4 * 4] = {0};
    amp_array_view *v, *s = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 4), data, &v));
    assert_amp_fails(amp_array_view_section(v, amp_index_2d(2, 2), amp_extent_2d(3, 1), &s),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_section(v, amp_index_2d(-1, 0), amp_extent_2d(2, 2), &s),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_section(v, amp_index_1d(0), amp_extent_1d(2), &s),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_section(v, amp_index_2d(0, 0), amp_extent_2d(0, 2), &s),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_null(s);
    assert_amp_ok(amp_array_view_release(v));
}

/* section() is restrict(amp, cpu): in a kernel, each of its forms, kept in
 * array_view variables: (origin, extent); (origin), to the end; (extent),
 * from the origin; and with ints, section(i0, i1, e0, e1). */
static void array_view_5_2_5_section_in_a_kernel(void **state)
{
    (void)state;
    static int m[6 * 6], line[10], out[8];
    iota(m, 36, 0);
    iota(line, 10, 0);
    amp_array_view *mv, *lv, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(6, 6), m, &mv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(10), line, &lv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(mv, lv, o), {
        array_view<int, 2> box = mv.section(index<2>(1, 2), extent<2>(2, 3));
        array_view<int, 2> tail = mv.section(index<2>(4, 3));
        array_view<int, 2> head = mv.section(extent<2>(2, 2));
        array_view<int, 2> ints = mv.section(3, 1, 2, 4);
        array_view<int, 1> mid = lv.section(2, 5);
        o[0] = box[index<2>(1, 2)];      /* m(2, 4) */
        o[1] = tail.extent[0] * 10 + tail.extent[1];
        o[2] = tail(1, 2);               /* m(5, 5) */
        o[3] = head[1][1];               /* m(1, 1) */
        o[4] = ints(1, 3);               /* m(4, 4) */
        o[5] = mid[4];                   /* line[6] */
        o[6] = mid.extent.size();
        box[0][0] = -1;                  /* m(1, 2) */
        mid[0] = -2;                     /* line[2] */
        o[7] = head.extent.contains(index<2>(2, 0));
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_amp_ok(amp_array_view_synchronize(mv));
    assert_amp_ok(amp_array_view_synchronize(lv));
    int want[8] = {16, 23, 35, 7, 28, 6, 5, 0};
    assert_ints(out, want, 8);
    for (int k = 0; k < 36; k++)
        assert_int_equal(m[k], k == 1 * 6 + 2 ? -1 : k);
    for (int k = 0; k < 10; k++)
        assert_int_equal(line[k], k == 2 ? -2 : k);
    assert_amp_ok(amp_array_view_release(mv));
    assert_amp_ok(amp_array_view_release(lv));
    assert_amp_ok(amp_array_view_release(o));
}

/* A section of rank 2 or 3 kept in a kernel's array_view variable and used
 * by its elements alone, with no view of a lower rank in the kernel. */
static void array_view_5_2_5_section_in_a_kernel_used_alone(void **state)
{
    (void)state;
    static int m[4 * 4], c[2 * 3 * 4];
    memset(m, 0, sizeof m);
    memset(c, 0, sizeof c);
    amp_array_view *mv, *cv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 4), m, &mv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 3, 4), c, &cv));
    amp_status st2 = AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 2), idx, AMP_CAPTURE(mv), {
        array_view<int, 2> corner = mv.section(index<2>(2, 2), extent<2>(2, 2));
        corner[idx] = 1 + idx[0] * 2 + idx[1];
    });
    amp_status st3 = AMP_PARALLEL_FOR_EACH(amp_extent_3d(1, 2, 2), idx, AMP_CAPTURE(cv), {
        array_view<int, 3> box = cv.section(index<3>(1, 1, 2), extent<3>(1, 2, 2));
        box(idx[0], idx[1], idx[2]) = 7;
    });
    if (st2 == AMP_OK)
        st2 = amp_array_view_synchronize(mv);
    if (st3 == AMP_OK)
        st3 = amp_array_view_synchronize(cv);
    assert_amp_ok(amp_array_view_release(mv));
    assert_amp_ok(amp_array_view_release(cv));
    if (st2 != AMP_OK || st3 != AMP_OK)
        fail_msg("a rank-2 section: %s; a rank-3 section: %s; %.500s", amp_status_name(st2),
                 amp_status_name(st3), amp_last_error());
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            assert_int_equal(m[i * 4 + j], i >= 2 && j >= 2 ? 1 + (i - 2) * 2 + (j - 2) : 0);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++)
                assert_int_equal(c[(i * 3 + j) * 4 + k], i == 1 && j >= 1 && k >= 2 ? 7 : 0);
}

/* A section of an array_view<const T, N> is an array_view<const T, N>. */
static void array_view_5_2_5_section_of_a_const_view_is_const(void **state)
{
    (void)state;
    static int data[12];
    iota(data, 12, 0);
    amp_array_view *c, *s, *row;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(3, 4), data, &c));
    assert_amp_ok(amp_array_view_section(c, amp_index_2d(1, 1), amp_extent_2d(2, 2), &s));
    assert_amp_ok(amp_array_view_project(c, 0, &row));
    assert_true(amp_array_view_is_const(s));
    assert_true(amp_array_view_is_const(row));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 2), idx, AMP_CAPTURE(s),
                                           { s[idx] = 1; }),
                     AMP_ERROR_KERNEL_BUILD, "");
    /* in a kernel, a const view's section is const too */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(c), {
        array_view<int, 2> w = c.section(index<2>(0, 0), extent<2>(1, 1));
        w[0][0] = 1;
    }), AMP_ERROR_KERNEL_BUILD, "array_view<const T, N>");
    for (int k = 0; k < 12; k++)
        assert_int_equal(data[k], k);
    assert_amp_ok(amp_array_view_release(row));
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(c));
}

/* "array_view<T, N-1> operator[](int i) const": the projection with the
 * most significant index fixed at i: a row of a matrix, a plane of a cube. */
static void array_view_5_2_5_projection_is_a_row(void **state)
{
    (void)state;
    static int m[4 * 5], c[3 * 2 * 4];
    iota(m, 20, 0);
    iota(c, 24, 0);
    amp_array_view *mv, *cv, *row, *plane;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 5), m, &mv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(3, 2, 4), c, &cv));
    assert_amp_ok(amp_array_view_project(mv, 2, &row));
    assert_amp_ok(amp_array_view_project(cv, 1, &plane));
    assert_true(amp_extent_equal(amp_array_view_get_extent(row), amp_extent_1d(5)));
    assert_true(amp_extent_equal(amp_array_view_get_extent(plane), amp_extent_2d(2, 4)));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(5), idx, AMP_CAPTURE(row),
                                        { row[idx] = -row[idx]; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(2, 4), idx, AMP_CAPTURE(plane),
                                        { plane[idx] += 1000; }));
    assert_amp_ok(amp_array_view_synchronize(mv));
    assert_amp_ok(amp_array_view_synchronize(cv));
    for (int k = 0; k < 20; k++)
        assert_int_equal(m[k], k / 5 == 2 ? -k : k);
    for (int k = 0; k < 24; k++)
        assert_int_equal(c[k], k / 8 == 1 ? k + 1000 : k);
    /* i must be inside the leading dimension */
    amp_array_view *bad = NULL;
    assert_amp_fails(amp_array_view_project(mv, 4, &bad), AMP_ERROR_INVALID_ARGUMENT, "");
    assert_null(bad);
    amp_array_view *views[] = {plane, row, cv, mv};
    for (size_t k = 0; k < 4; k++)
        assert_amp_ok(amp_array_view_release(views[k]));
}

/* operator[](int) is restrict(amp, cpu): projections in a kernel. */
static void array_view_5_2_5_projection_in_a_kernel(void **state)
{
    (void)state;
    static int m[4 * 5], c[2 * 3 * 4], out[4];
    iota(m, 20, 0);
    iota(c, 24, 0);
    amp_array_view *mv, *cv, *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 5), m, &mv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_3d(2, 3, 4), c, &cv));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(mv, cv, o), {
        array_view<int, 1> row = mv[idx[0]];
        int sum = 0;
        for (int j = 0; j < row.extent[0]; j++)
            sum += row[j];
        o[idx] = sum;
        row[0] = -1;
        if (idx[0] < 2) {
            array_view<int, 2> plane = cv[idx[0]];
            plane[index<2>(2, 3)] = -100 - idx[0];
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_amp_ok(amp_array_view_synchronize(mv));
    assert_amp_ok(amp_array_view_synchronize(cv));
    for (int i = 0; i < 4; i++) {
        assert_int_equal(out[i], 5 * (5 * i) + 10);
        for (int j = 0; j < 5; j++)
            assert_int_equal(m[i * 5 + j], j == 0 ? -1 : i * 5 + j);
    }
    for (int k = 0; k < 24; k++)
        assert_int_equal(c[k], k % 12 == 11 ? -100 - k / 12 : k);
    assert_amp_ok(amp_array_view_release(mv));
    assert_amp_ok(amp_array_view_release(cv));
    assert_amp_ok(amp_array_view_release(o));
}

/* "template <int K> array_view<T, K> view_as(const extent<K>& viewExtent)
 * const": the same elements, in row-major order, with another shape. */
static void array_view_5_2_5_view_as_reshapes(void **state)
{
    (void)state;
    static int data[24];
    iota(data, 24, 0);
    amp_array_view *flat, *m, *cube;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(24), data, &flat));
    assert_amp_ok(amp_array_view_view_as(flat, amp_extent_2d(4, 6), &m));
    assert_amp_ok(amp_array_view_view_as(flat, amp_extent_3d(2, 3, 4), &cube));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 6), idx, AMP_CAPTURE(m),
                                        { m[idx] = m[idx] * 10 + (idx[0] == 3 && idx[1] == 5); }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(2, 3, 4), idx, AMP_CAPTURE(cube),
                                        { cube[idx] += idx[0] * 10000; }));
    assert_amp_ok(amp_array_view_synchronize(flat));
    for (int k = 0; k < 24; k++)
        assert_int_equal(data[k], k * 10 + (k == 23) + (k >= 12 ? 10000 : 0));
    assert_amp_ok(amp_array_view_release(cube));
    assert_amp_ok(amp_array_view_release(m));
    assert_amp_ok(amp_array_view_release(flat));
}

/* view_as keeps the elements: an extent of another size is refused. */
static void array_view_5_2_5_view_as_keeps_the_element_count(void **state)
{
    (void)state;
    static int data[12] = {0};
    amp_array_view *v, *w = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(12), data, &v));
    assert_amp_fails(amp_array_view_view_as(v, amp_extent_2d(5, 3), &w),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_amp_fails(amp_array_view_view_as(v, amp_extent_2d(2, 4), &w),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_null(w);
    assert_amp_ok(amp_array_view_release(v));
}

/* "template <typename ElementType> array_view<ElementType, 1>
 * reinterpret_as() const": the same bytes, seen as another element type. */
static void array_view_5_2_5_reinterpret_as_shares_the_bits(void **state)
{
    (void)state;
    static float f[8];
    for (int k = 0; k < 8; k++)
        f[k] = (float)k;
    amp_array_view *fv, *iv;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), f, &fv));
    assert_amp_ok(amp_array_view_reinterpret_as(fv, AMP_INT, &iv));
    assert_int_equal(amp_array_view_get_type(iv), AMP_INT);
    assert_true(amp_extent_equal(amp_array_view_get_extent(iv), amp_extent_1d(8)));
    /* 0x3f800000 is 1.0f; flipping bit 31 negates a float */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), idx, AMP_CAPTURE(iv), {
        if (idx[0] == 0)
            iv[idx] = 0x3f800000;
        else
            iv[idx] ^= (int)0x80000000;
    }));
    assert_amp_ok(amp_array_view_synchronize(fv));
    assert_true(f[0] == 1.0f);
    for (int k = 1; k < 8; k++)
        assert_true(f[k] == -(float)k);
    if (device_has_double()) {
        int pairs[4] = {0, 0x3ff00000, 0, 0x40000000}; /* 1.0 and 2.0, little-endian */
        amp_array_view *pv, *dv;
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), pairs, &pv));
        assert_amp_ok(amp_array_view_reinterpret_as(pv, AMP_DOUBLE, &dv));
        assert_true(amp_extent_equal(amp_array_view_get_extent(dv), amp_extent_1d(2)));
        assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(dv),
                                            { dv[idx] = dv[idx] * 4.0; }));
        assert_amp_ok(amp_array_view_synchronize(pv));
        double d[2];
        memcpy(d, pairs, sizeof d);
        assert_true(d[0] == 4.0 && d[1] == 8.0);
        assert_amp_ok(amp_array_view_release(dv));
        assert_amp_ok(amp_array_view_release(pv));
    }
    assert_amp_ok(amp_array_view_release(iv));
    assert_amp_ok(amp_array_view_release(fv));
}

/* reinterpret_as() is offered on views of rank 1 (whose elements are laid
 * out contiguously) whose size the new element's size divides. */
static void array_view_5_2_5_reinterpret_as_needs_whole_elements(void **state)
{
    (void)state;
    static int odd[3] = {0}, m[4] = {0};
    amp_array_view *v, *mv, *w = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(3), odd, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(2, 2), m, &mv));
    assert_amp_fails(amp_array_view_reinterpret_as(v, AMP_DOUBLE, &w), AMP_ERROR_INVALID_ARGUMENT,
                     "");
    assert_amp_fails(amp_array_view_reinterpret_as(mv, AMP_FLOAT, &w),
                     AMP_ERROR_INVALID_ARGUMENT, "");
    assert_null(w);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(mv));
}

/* array_views are restrict(amp) values: a function takes a view of const
 * elements and a view it writes, a captured view, a section or a
 * projection alike. */
AMP_FUNCTION(float, dot_row, (array_view<const float, 1> a, array_view<const float, 1> b), {
    float s = 0.0f;
    for (int k = 0; k < a.extent[0]; k++)
        s += a[k] * b[k];
    return s;
});

AMP_FUNCTION(void, fill_box, (array_view<float, 2> box, float value), {
    for (int i = 0; i < box.extent[0]; i++)
        for (int j = 0; j < box.extent[1]; j++)
            box(i, j) = value;
});

static void array_view_5_2_views_given_to_restrict_amp_functions(void **state)
{
    (void)state;
    static float m[3 * 4], w[4], out[3], target[4 * 4];
    for (int k = 0; k < 12; k++)
        m[k] = (float)k;
    for (int k = 0; k < 4; k++)
        w[k] = (float)(k + 1);
    memset(target, 0, sizeof target);
    amp_array_view *mv, *wv, *ov, *tv;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(3, 4), m, &mv));
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(4), w, &wv));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(3), out, &ov));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(4, 4), target, &tv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(3), idx,
                                        AMP_CAPTURE(mv, wv, ov, tv, dot_row, fill_box), {
        ov[idx] = dot_row(mv[idx], wv);
        if (idx[0] == 0)
            fill_box(tv.section(index<2>(1, 1), extent<2>(2, 3)), 5.0f);
    }));
    assert_amp_ok(amp_array_view_synchronize(ov));
    assert_amp_ok(amp_array_view_synchronize(tv));
    for (int i = 0; i < 3; i++) {
        float want = 0.0f;
        for (int k = 0; k < 4; k++)
            want += m[i * 4 + k] * w[k];
        assert_true(fabsf(out[i] - want) < 1e-4f);
    }
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            assert_true(target[i * 4 + j] == (i >= 1 && i < 3 && j >= 1 && j < 4 ? 5.0f : 0.0f));
    assert_int_equal(ledger_of(mv).downloads, 0);
    amp_array_view *views[] = {mv, wv, ov, tv};
    for (size_t k = 0; k < 4; k++)
        assert_amp_ok(amp_array_view_release(views[k]));
}

/* 5.2: "array_view<T, N>" of any type restrict(amp) code takes, a plain
 * struct among them: elements and their members read and written in a
 * kernel, and structs given to and returned by restrict(amp) functions. */
AMP_STRUCT(body, (float, mass), (float, speed), (int, hits));

AMP_FUNCTION(body, slowed, (body b, float by), {
    body out = b;
    out.speed = b.speed - by;
    out.hits = b.hits + 1;
    return out;
});

AMP_FUNCTION(float, momentum, (body b), { return b.mass * b.speed; });

static void array_view_5_2_elements_of_a_struct_type(void **state)
{
    (void)state;
    enum { N = 16 };
    static body bodies[N];
    static float momenta[N];
    for (int k = 0; k < N; k++) {
        bodies[k].mass = (float)(k + 1);
        bodies[k].speed = 10.0f;
        bodies[k].hits = k;
    }
    amp_elem_type body_type;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(body), &body_type));
    amp_array_view *bv, *mv;
    assert_amp_ok(amp_array_view_create(body_type, amp_extent_1d(N), bodies, &bv));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), momenta, &mv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx,
                                        AMP_CAPTURE(bv, mv, slowed, momentum), {
        body b = slowed(bv[idx], 0.5f * idx[0]);
        bv[idx] = b;
        bv[idx].mass *= 2.0f;
        mv[idx] = momentum(bv[idx]);
    }));
    assert_amp_ok(amp_array_view_synchronize(bv));
    assert_amp_ok(amp_array_view_synchronize(mv));
    for (int k = 0; k < N; k++) {
        float speed = 10.0f - 0.5f * (float)k, mass = 2.0f * (float)(k + 1);
        assert_true(bodies[k].speed == speed);
        assert_true(bodies[k].mass == mass);
        assert_int_equal(bodies[k].hits, k + 1);
        assert_true(momenta[k] == mass * speed);
    }
    assert_amp_ok(amp_array_view_release(bv));
    assert_amp_ok(amp_array_view_release(mv));
}

static void array_view_5_2_4_host_subscript_reads_and_writes_one_element(void **state)
{
    (void)state;
    int data[3][4];
    iota(&data[0][0], 12, 0);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(3, 4), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(v),
                                        { v[idx] = v[idx] * 2; }));
    int x = 0;
    assert_amp_ok(amp_array_view_get(v, amp_index_2d(2, 3), &x));
    assert_int_equal(x, 22);
    uint64_t downloads = ledger_of(v).downloads;
    assert_amp_ok(amp_array_view_get(v, amp_index_2d(0, 1), &x));
    assert_int_equal(x, 2);
    assert_int_equal(ledger_of(v).downloads, downloads); /* current on the host now */
    x = 100;
    assert_amp_ok(amp_array_view_set(v, amp_index_2d(1, 1), &x));
    uint64_t up = ledger_of(v).upload_bytes;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, 4), idx, AMP_CAPTURE(v),
                                        { v[idx] = v[idx] + 1; }));
    /* only the element written on the host went up again */
    assert_int_equal(ledger_of(v).upload_bytes - up, sizeof(int));
    assert_amp_ok(amp_array_view_synchronize(v));
    assert_int_equal(data[1][1], 101);
    assert_int_equal(data[2][3], 23);
    assert_amp_ok(amp_array_view_release(v));
}

static void array_view_5_2_3_data_of_a_section_keeps_its_parents_rows(void **state)
{
    (void)state;
    int data[4][6];
    iota(&data[0][0], 24, 0);
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 6), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(1, 2), amp_extent_2d(2, 3), &s));
    const void *p;
    int64_t strides[AMP_MAX_RANK];
    assert_amp_ok(amp_array_view_data_const(s, &p));
    assert_amp_ok(amp_array_view_get_strides(s, strides));
    assert_int_equal(strides[0], 6);
    assert_int_equal(strides[1], 1);
    const int *q = p;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            assert_int_equal(q[i * strides[0] + j * strides[1]], data[1 + i][2 + j]);
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

static void array_view_5_2_1_rank_5_view_and_section(void **state)
{
    (void)state;
    int d[5] = {2, 2, 3, 2, 4}, o[5] = {1, 0, 1, 0, 1}, sd[5] = {1, 2, 2, 2, 2};
    static int data[96];
    iota(data, 96, 0);
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_nd(5, d), data, &v));
    assert_amp_ok(amp_array_view_section(v, amp_index_nd(5, o), amp_extent_nd(5, sd), &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_nd(5, sd), idx, AMP_CAPTURE(s),
                                        { s[idx] = -1; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    int changed = 0;
    for (int k = 0; k < 96; k++)
        changed += data[k] == -1;
    assert_int_equal(changed, 16);
    /* element (1, 0, 1, 0, 1), the section's first */
    assert_int_equal(data[(((1 * 2 + 0) * 3 + 1) * 2 + 0) * 4 + 1], -1);
    assert_amp_ok(amp_array_view_release(s));
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(array_view_5_2_2_made_over_host_data_moves_nothing_yet),
        cmocka_unit_test(array_view_5_2_2_made_from_an_extent_alone),
        cmocka_unit_test(array_view_5_2_2_const_view_is_never_copied_back),
        cmocka_unit_test(array_view_5_2_2_bad_extents_are_refused),
        cmocka_unit_test(array_view_5_2_2_views_of_one_container_share_its_data),
        cmocka_unit_test(array_view_5_2_3_extent_rank_and_element_type),
        cmocka_unit_test(array_view_5_2_3_synchronize_copies_back_once),
        cmocka_unit_test(array_view_5_2_3_synchronize_async_completes_with_data),
        cmocka_unit_test(array_view_5_2_3_synchronize_to_uploads_ahead),
        cmocka_unit_test(array_view_5_2_3_refresh_makes_device_copies_stale),
        cmocka_unit_test(array_view_5_2_3_discard_data_means_no_upload),
        cmocka_unit_test(array_view_5_2_3_discard_data_covers_sections),
        cmocka_unit_test(array_view_5_2_3_discard_data_lasts_until_a_write),
        cmocka_unit_test(array_view_5_2_3_data_gives_synchronized_host_memory),
        cmocka_unit_test(array_view_5_2_3_data_for_reading_keeps_the_device_copy),
        cmocka_unit_test(array_view_5_2_3_data_of_a_const_view_is_read_only),
        cmocka_unit_test(array_view_5_2_3_destructor_copies_back),
        cmocka_unit_test(array_view_5_2_3_destructor_of_a_view_only_read_moves_nothing),
        cmocka_unit_test(array_view_5_2_4_subscript_with_an_index_of_each_rank),
        cmocka_unit_test(array_view_5_2_4_subscript_with_an_index_made_in_place),
        cmocka_unit_test(array_view_5_2_4_call_with_integers_of_each_rank),
        cmocka_unit_test(array_view_5_2_4_chained_subscripts_are_an_element),
        cmocka_unit_test(array_view_5_2_5_section_shares_data),
        cmocka_unit_test(array_view_5_2_5_section_of_a_section),
        cmocka_unit_test(array_view_5_2_5_sections_that_overlap_see_each_other),
        cmocka_unit_test(array_view_5_2_5_section_outside_the_view_is_refused),
        cmocka_unit_test(array_view_5_2_5_section_in_a_kernel),
        cmocka_unit_test(array_view_5_2_5_section_in_a_kernel_used_alone),
        cmocka_unit_test(array_view_5_2_5_section_of_a_const_view_is_const),
        cmocka_unit_test(array_view_5_2_5_projection_is_a_row),
        cmocka_unit_test(array_view_5_2_5_projection_in_a_kernel),
        cmocka_unit_test(array_view_5_2_5_view_as_reshapes),
        cmocka_unit_test(array_view_5_2_5_view_as_keeps_the_element_count),
        cmocka_unit_test(array_view_5_2_5_reinterpret_as_shares_the_bits),
        cmocka_unit_test(array_view_5_2_5_reinterpret_as_needs_whole_elements),
        cmocka_unit_test(array_view_5_2_views_given_to_restrict_amp_functions),
        cmocka_unit_test(array_view_5_2_elements_of_a_struct_type),
        cmocka_unit_test(array_view_5_2_4_host_subscript_reads_and_writes_one_element),
        cmocka_unit_test(array_view_5_2_3_data_of_a_section_keeps_its_parents_rows),
        cmocka_unit_test(array_view_5_2_1_rank_5_view_and_section),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
