/*
 * tests/device/test_launch.c - what a repeated launch relies on, each kept by the
 * layer that owns it: every memory object made through the OpenCL call
 * table is counted there, whoever makes it; and a call that the launch
 * record answers is one that passed every check of the full path.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"

/* The default accelerator's context, made on first use. */
static cl_context default_context(void)
{
    amp_accelerator_view *av = NULL;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    return amp__test_cl_of_view(av).context;
}

static void every_memory_object_made_through_the_table_is_counted(void **state)
{
    (void)state;
    cl_context context = default_context();
    uint64_t before = amp__clapi_mems_made();
    cl_int rc = CL_SUCCESS;
    cl_mem mem = amp__clapi.CreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &rc);
    assert_non_null(mem);
    assert_true(amp__clapi_mems_made() > before);
    amp__clapi.ReleaseMemObject(mem);
    /* An image too. */
    cl_image_format format = {CL_RGBA, CL_FLOAT};
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 4};
    before = amp__clapi_mems_made();
    mem = amp__clapi.CreateImage(context, CL_MEM_READ_ONLY, &format, &desc, NULL, &rc);
    assert_non_null(mem);
    assert_true(amp__clapi_mems_made() > before);
    amp__clapi.ReleaseMemObject(mem);

    /* Through the fault-injecting wrappers too, and after the table is
     * pointed at an implementation again (as AMP_CHECK does). */
    clapi_table saved = amp__clapi;
    amp__clapi_install(&saved);
    amp__test_inject_fault(0, CL_SUCCESS);
    before = amp__clapi_mems_made();
    mem = amp__clapi.CreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &rc);
    assert_non_null(mem);
    assert_true(amp__clapi_mems_made() > before);
    amp__clapi.ReleaseMemObject(mem);
    amp__clapi = saved;
}

/* One call site of a tiled kernel. */
static amp_status tiled_site(amp_tiled_extent domain, amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH(domain, t, AMP_CAPTURE(v), { v(t.global) += 1; });
}

static void a_tile_rank_unlike_the_extents_is_refused_after_a_good_launch_of_its_site(void **state)
{
    (void)state;
    int data[16] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(4, 4), data, &v));
    amp_tiled_extent good = amp_extent_tile_2d(amp_extent_2d(4, 4), 2, 2);
    assert_amp_ok(tiled_site(good, v));
    assert_amp_ok(tiled_site(good, v));
    /* The same extent and tiles, said to be of rank 1. */
    amp_tiled_extent bad = good;
    bad.tile_rank = 1;
    assert_amp_fails(tiled_site(bad, v), AMP_ERROR_INVALID_COMPUTE_DOMAIN,
                     "the tile has rank 1 and the extent rank 2");
    assert_amp_ok(tiled_site(good, v));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 16; i++)
        assert_int_equal(data[i], 3);
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_memory_object_made_through_the_table_is_counted),
        cmocka_unit_test(a_tile_rank_unlike_the_extents_is_refused_after_a_good_launch_of_its_site),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
