/*
 * tests/device/test_launch.c - what a repeated launch relies on, each kept by the
 * layer that owns it: every memory object made through the OpenCL call
 * table is counted there, whoever makes it.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/clapi.h"
#include "core/lock.h"
#include "device/queue.h"

/* The default accelerator's context, made on first use. */
static cl_context default_context(void)
{
    amp__lock_acquire();
    amp_accelerator_view *av = NULL;
    amp_status st = amp__queue_resolve(NULL, &av);
    amp__lock_release();
    assert_int_equal(st, AMP_OK);
    return av->acc->context;
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
    amp__clapi_inject_fault(0, CL_SUCCESS);
    before = amp__clapi_mems_made();
    mem = amp__clapi.CreateBuffer(context, CL_MEM_READ_WRITE, 64, NULL, &rc);
    assert_non_null(mem);
    assert_true(amp__clapi_mems_made() > before);
    amp__clapi.ReleaseMemObject(mem);
    amp__clapi = saved;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_memory_object_made_through_the_table_is_counted),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
