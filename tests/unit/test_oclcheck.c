/*
 * tests/unit/test_oclcheck.c - AMP_CHECK's Oclgrind module: the tile_static
 * mistakes it must catch (a shared total written by every thread, a missing
 * barrier, a barrier in a divergent branch, an out-of-bounds write), with
 * the kernel's name and line, and silence on correct kernels.
 *
 * The tests drive raw OpenCL through amp__clapi after amp__ock_install(), with small
 * kernels whose line numbers the assertions name. They skip when Oclgrind is
 * not installed. Tests run in order: those before the first amp__ock_install()
 * check the state before it.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/testing.h"
#include "device/oclcheck.h"

/* ---- Without Oclgrind ------------------------------------------------- */

static void amp_check_values(void **state)
{
    (void)state;
    static const char *const yes[] = {"1", "on", "ON", "races", "all", "yes", "True",
                                      "bounds,races"};
    static const char *const no[] = {"", "0", "off", "no", "false", "raced", "oneall"};
    unsetenv("AMP_CHECK");
    assert_false(amp__ock_requested());
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        setenv("AMP_CHECK", yes[i], 1);
        if (!amp__ock_requested())
            fail_msg("AMP_CHECK=%s should ask for checking", yes[i]);
    }
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        setenv("AMP_CHECK", no[i], 1);
        if (amp__ock_requested())
            fail_msg("AMP_CHECK=%s should not ask for checking", no[i]);
    }
    unsetenv("AMP_CHECK");
}

/* Verbatim from Oclgrind 21.10 (OCLGRIND_LOG), with its framing newlines. */
static const char race_report[] =
    "\nRead-write data race at local memory address 0x1000000000000\n"
    "\tKernel: race\n"
    "\t\n"
    "\tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)\n"
    "\t  %1 = load float, float addrspace(3)* @race.total, align 4, !dbg !63, !tbaa !59\n"
    "\tAt line 5 (column 11) of input.cl:\n"
    "\t  total += in[gid];\n"
    "\t\n"
    "\tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)\n"
    "\t  store float %add, float addrspace(3)* @race.total, align 4, !dbg !63, !tbaa !59\n"
    "\tAt line 4 (column 7) of input.cl:\n"
    "\t  total = in[gid];\n"
    "\t\n";
static const char divergence_report[] =
    "\nWork-group divergence detected (barrier)\n"
    "\tKernel:     divg\n"
    "\tWork-group: (0,0,0)\n"
    "\tOnly 2 out of 4 work-items executed barrier\n"
    "\t  tail call spir_func void @_Z7barrierj(i32 noundef 1) #6, !dbg !69\n"
    "\tAt line 21 (column 9) of input.cl:\n"
    "\t  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "\t\n";
static const char invalid_write_report[] =
    "\nInvalid write of size 4 at global memory address 0x2000000000020\n"
    "\tKernel: oob\n"
    "\tEntity: Global(7,0,0) Local(3,0,0) Group(1,0,0)\n"
    "\t  store float %0, float addrspace(1)* %arrayidx1, align 4, !dbg !70, !tbaa !64\n"
    "\tAt line 27 (column 18) of input.cl:\n"
    "\t  out[gid + 1] = in[gid];\n"
    "\t\n";
static const char suppressed_report[] =
    "\nOclgrind: 3 errors generated - suppressing further errors\n\n";
/* As amp__ock_context_notify() stores a message of the context callback. */
static const char api_report[] = "\n\nOclgrind - OpenCL runtime error detected\n"
                                 "\tFunction: clCreateKernel\n"
                                 "\tError:    CL_INVALID_KERNEL_NAME\n"
                                 "\tKernel 'race' not found\n\n\n";

static void parses_each_kind_of_report(void **state)
{
    (void)state;
    char text[4096];
    /* A hole of NULs, as truncation leaves before Oclgrind's next write. */
    size_t n = 0;
    memset(text, 0, 100);
    n += 100;
#define PUT(s) (memcpy(text + n, (s), sizeof(s) - 1), n += sizeof(s) - 1)
    PUT(api_report);
    PUT(race_report);
    PUT(divergence_report);
    PUT(invalid_write_report);
    PUT(suppressed_report);
#undef PUT
    ock_report *r = NULL;
    size_t count = 0;
    assert_amp_ok(amp__ock_parse_reports(text, n, &r, &count));
    assert_int_equal(count, 5);

    assert_int_equal(r[0].category, OCK_API_ERROR);
    assert_string_equal(r[0].kind, "Oclgrind - OpenCL runtime error detected");
    assert_string_equal(r[0].kernel, "");
    assert_string_equal(r[0].file, "");
    assert_int_equal(r[0].line, 0);
    assert_non_null(strstr(r[0].text, "\tFunction: clCreateKernel\n"));

    assert_int_equal(r[1].category, OCK_DATA_RACE);
    assert_string_equal(r[1].kind, "Read-write data race at local memory address 0x1000000000000");
    assert_string_equal(r[1].kernel, "race");
    assert_string_equal(r[1].file, "input.cl");
    assert_int_equal(r[1].line, 5);
    assert_int_equal(r[1].column, 11);
    assert_string_equal(r[1].other_file, "input.cl");
    assert_int_equal(r[1].other_line, 4);
    assert_int_equal(r[1].other_column, 7);
    /* The text is the report as printed, without the framing and the
     * trailing tab line. */
    assert_int_equal(strlen(r[1].text), sizeof race_report - 1 - 1 - 3);
    assert_memory_equal(r[1].text, race_report + 1, strlen(r[1].text));

    assert_int_equal(r[2].category, OCK_DIVERGENCE);
    assert_string_equal(r[2].kernel, "divg");
    assert_int_equal(r[2].line, 21);
    assert_int_equal(r[2].column, 9);
    assert_int_equal(r[2].other_line, 0);
    assert_string_equal(r[2].other_file, "");

    assert_int_equal(r[3].category, OCK_INVALID_ACCESS);
    assert_string_equal(r[3].kind, "Invalid write of size 4 at global memory address 0x2000000000020");
    assert_string_equal(r[3].kernel, "oob");
    assert_int_equal(r[3].line, 27);
    assert_int_equal(r[3].column, 18);

    assert_int_equal(r[4].category, OCK_SUPPRESSED);
    assert_string_equal(r[4].kernel, "");
    amp__ock_free_reports(r, count);

    assert_amp_ok(amp__ock_parse_reports("", 0, &r, &count));
    assert_int_equal(count, 0);
    assert_null(r);
    assert_amp_ok(amp__ock_parse_reports("\n\n\t\n", 4, &r, &count));
    assert_int_equal(count, 0);
}

static void parses_locations_without_columns_in_line_files_or_without_debug_information(void **state)
{
    (void)state;
    static const char text[] = "\nInvalid read of size 4 at global memory address 0x10\n"
                               "\tKernel: k\n"
                               "\tAt line 12 of input.cl\n"
                               "\n"
                               "Write-write data race at local memory address 0x1000000000000\n"
                               "\tKernel: k\n"
                               "\tAt line 40 (column 7) of /home/u/my kernels/sum.cl:\n"
                               "\t  (source not available)\n"
                               "\n"
                               "Uninitialized value read\n"
                               "\tKernel: k\n"
                               "\tDebugging information not available.\n";
    ock_report *r = NULL;
    size_t count = 0;
    assert_amp_ok(amp__ock_parse_reports(text, sizeof text - 1, &r, &count));
    assert_int_equal(count, 3);
    assert_string_equal(r[0].file, "input.cl");
    assert_int_equal(r[0].line, 12);
    assert_int_equal(r[0].column, 0);
    assert_string_equal(r[1].file, "/home/u/my kernels/sum.cl");
    assert_int_equal(r[1].line, 40);
    assert_int_equal(r[1].column, 7);
    assert_int_equal(r[2].category, OCK_OTHER);
    assert_int_equal(r[2].line, 0);
    assert_string_equal(r[2].file, "");
    amp__ock_free_reports(r, count);
    amp__ock_free_reports(NULL, 0);
}

static void before_install_nothing_changes(void **state)
{
    (void)state;
    assert_false(amp__ock_installed());
    assert_string_equal(amp__ock_build_options(), "");
    static ock_report dummy;
    ock_report *r = &dummy;
    size_t count = 7;
    assert_amp_fails(amp__ock_take_reports(&r, &count), AMP_ERROR_INVALID_OPERATION, "amp__ock_install");
    assert_null(r);
    assert_int_equal(count, 0);
    /* Messages from other drivers are not kept for later. */
    amp__ock_context_notify("a PoCL message", NULL, 0, NULL);
    assert_amp_fails(amp__ock_take_reports(NULL, &count), AMP_ERROR_INVALID_ARGUMENT, "NULL");
}

static void a_missing_library_says_how_to_install_it(void **state)
{
    (void)state;
    clapi_table before = amp__clapi;
    assert_amp_fails(amp__test_install_oclgrind("/nonexistent/liboclgrind-rt-icd.so"),
                     AMP_ERROR_UNSUPPORTED_FEATURE, "apt-get install oclgrind");
    assert_non_null(strstr(amp_last_error(), "/nonexistent/liboclgrind-rt-icd.so"));
    assert_memory_equal(&before, &amp__clapi, sizeof amp__clapi);
    assert_false(amp__ock_installed());
    assert_null(getenv("OCLGRIND_LOG"));
    assert_amp_fails(amp__test_install_oclgrind(NULL), AMP_ERROR_INVALID_ARGUMENT, "NULL");
}

/* ---- On Oclgrind ------------------------------------------------------ */

static cl_device_id device;
static cl_context context;
static cl_command_queue queue;

/* Install Oclgrind once and make a context whose callback keeps API errors;
 * skip the test when Oclgrind is not installed. */
static void need_oclgrind(void)
{
    if (!amp__ock_installed()) {
        amp_status st = amp__ock_install();
        if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
            print_message("Oclgrind is not installed; skipping: %s\n", amp_last_error());
            skip();
        }
        assert_amp_ok(st);
    }
    if (!context) {
        cl_platform_id platform;
        char name[128] = "";
        assert_int_equal(amp__clapi.GetPlatformIDs(1, &platform, NULL), CL_SUCCESS);
        assert_int_equal(amp__clapi.GetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, NULL),
                         CL_SUCCESS);
        assert_non_null(strstr(name, "Oclgrind"));
        assert_int_equal(amp__clapi.GetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL),
                         CL_SUCCESS);
        cl_int rc;
        context = amp__clapi.CreateContext(NULL, 1, &device, amp__ock_context_notify, NULL, &rc);
        assert_int_equal(rc, CL_SUCCESS);
        queue = amp__clapi.CreateCommandQueue(context, device, 0, &rc);
        assert_int_equal(rc, CL_SUCCESS);
    }
    /* Start from an empty log. */
    ock_report *r;
    size_t count;
    assert_amp_ok(amp__ock_take_reports(&r, &count));
    amp__ock_free_reports(r, count);
}

static int release_context(void **state)
{
    (void)state;
    if (queue)
        amp__clapi.ReleaseCommandQueue(queue);
    if (context)
        amp__clapi.ReleaseContext(context);
    return 0;
}

enum { N = 8, TILE = 4 };

/*
 * Run kernel `name` of src over N work-items in work-groups of TILE, with
 * in = {1..N} and an output buffer of N floats (initially 0) read back into
 * out; then take the reports.
 */
static void run(const char *src, const char *name, float out[N], ock_report **reports,
                size_t *count)
{
    float in[N];
    for (int i = 0; i < N; i++) {
        in[i] = (float)(i + 1);
        out[i] = 0.0f;
    }
    cl_int rc;
    cl_program program = amp__clapi.CreateProgramWithSource(context, 1, &src, NULL, &rc);
    assert_int_equal(rc, CL_SUCCESS);
    rc = amp__clapi.BuildProgram(program, 1, &device, amp__ock_build_options(), NULL, NULL);
    if (rc != CL_SUCCESS) {
        char log[4096] = "";
        amp__clapi.GetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fail_msg("%s did not build: %s", name, log);
    }
    cl_kernel kernel = amp__clapi.CreateKernel(program, name, &rc);
    assert_int_equal(rc, CL_SUCCESS);
    cl_mem in_buf = amp__clapi.CreateBuffer(context, CL_MEM_READ_ONLY, sizeof in, NULL, &rc);
    assert_int_equal(rc, CL_SUCCESS);
    cl_mem out_buf = amp__clapi.CreateBuffer(context, CL_MEM_READ_WRITE, sizeof in, NULL, &rc);
    assert_int_equal(rc, CL_SUCCESS);
    assert_int_equal(amp__clapi.EnqueueWriteBuffer(queue, in_buf, CL_TRUE, 0, sizeof in, in, 0, NULL,
                                              NULL),
                     CL_SUCCESS);
    assert_int_equal(amp__clapi.EnqueueWriteBuffer(queue, out_buf, CL_TRUE, 0, sizeof in, out, 0, NULL,
                                              NULL),
                     CL_SUCCESS);
    assert_int_equal(amp__clapi.SetKernelArg(kernel, 0, sizeof in_buf, &in_buf), CL_SUCCESS);
    assert_int_equal(amp__clapi.SetKernelArg(kernel, 1, sizeof out_buf, &out_buf), CL_SUCCESS);
    size_t global = N, local = TILE;
    assert_int_equal(amp__clapi.EnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL,
                                                NULL),
                     CL_SUCCESS);
    assert_int_equal(amp__clapi.Finish(queue), CL_SUCCESS);
    assert_int_equal(amp__clapi.EnqueueReadBuffer(queue, out_buf, CL_TRUE, 0, sizeof in, out, 0, NULL,
                                             NULL),
                     CL_SUCCESS);
    amp__clapi.ReleaseMemObject(in_buf);
    amp__clapi.ReleaseMemObject(out_buf);
    amp__clapi.ReleaseKernel(kernel);
    amp__clapi.ReleaseProgram(program);
    assert_amp_ok(amp__ock_take_reports(reports, count));
}

static void print_reports(const ock_report *r, size_t count)
{
    for (size_t i = 0; i < count; i++)
        print_message("report %zu: kernel '%s' line %d:%d other %d:%d\n%s\n", i, r[i].kernel,
                      r[i].line, r[i].column, r[i].other_line, r[i].other_column, r[i].text);
}

static void installs_with_the_checks_on(void **state)
{
    (void)state;
    need_oclgrind();
    assert_true(amp__ock_installed());
    assert_string_equal(amp__ock_build_options(), "-cl-opt-disable");
    assert_string_equal(getenv("OCLGRIND_DATA_RACES"), "1");
    assert_string_equal(getenv("OCLGRIND_UNIFORM_WRITES"), "1");
    assert_string_equal(getenv("OCLGRIND_CHECK_API"), "1");
    assert_non_null(strstr(getenv("OCLGRIND_LOG"), "amp-oclgrind-"));
    assert_amp_ok(amp__ock_install()); /* a second call does nothing */
}

/* Seed 002's mistake: every thread of the tile adds to one tile_static
 * total without synchronization. */
static const char shared_total_src[] =
    "__kernel void tile_sum(__global const float *in, __global float *out)\n" /* 1 */
    "{\n"
    "    __local float total;\n"
    "    size_t gid = get_global_id(0), lid = get_local_id(0);\n"
    "    if (lid == 0)\n" /* 5 */
    "        total = 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    total += in[gid];\n" /* 8: the race */
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0)\n" /* 10 */
    "        out[get_group_id(0)] = total;\n"
    "}\n";

static void a_shared_tile_total_is_a_data_race_at_its_line(void **state)
{
    (void)state;
    need_oclgrind();
    float out[N];
    ock_report *r;
    size_t count;
    run(shared_total_src, "tile_sum", out, &r, &count);
    if (count == 0)
        fail_msg("the race on the shared total was not reported");
    for (size_t i = 0; i < count; i++) {
        if (r[i].category != OCK_DATA_RACE || strcmp(r[i].kernel, "tile_sum") != 0 ||
            r[i].line != 8 || r[i].other_line != 8) {
            print_reports(r + i, 1);
            fail_msg("report %zu is not the race at line 8", i);
        }
        assert_non_null(strstr(r[i].kind, "data race at local memory address"));
        assert_string_equal(r[i].file, "input.cl");
        assert_true(r[i].column > 0);
    }
    amp__ock_free_reports(r, count);

    /* Taken reports are gone, and the next kernel's are read after the
     * hole that emptying the log left. */
    assert_amp_ok(amp__ock_take_reports(&r, &count));
    assert_int_equal(count, 0);
    size_t again;
    run(shared_total_src, "tile_sum", out, &r, &again);
    assert_true(again > 0);
    assert_int_equal(r[0].line, 8);
    amp__ock_free_reports(r, again);
}

static const char missing_barrier_src[] =
    "__kernel void rotate_tile(__global const float *in, __global float *out)\n" /* 1 */
    "{\n"
    "    __local float tile[4];\n"
    "    size_t gid = get_global_id(0), lid = get_local_id(0);\n"
    "    tile[lid] = in[gid];\n"              /* 5: the write ... */
    "    out[gid] = tile[(lid + 1) % 4];\n" /* 6: ... read by a neighbour, no barrier between */
    "}\n";

static void a_missing_barrier_before_reading_the_tile_is_reported(void **state)
{
    (void)state;
    need_oclgrind();
    float out[N];
    ock_report *r;
    size_t count;
    run(missing_barrier_src, "rotate_tile", out, &r, &count);
    if (count == 0)
        fail_msg("the missing barrier was not reported");
    for (size_t i = 0; i < count; i++) {
        int lines = r[i].line * 100 + r[i].other_line;
        if (r[i].category != OCK_DATA_RACE || strcmp(r[i].kernel, "rotate_tile") != 0 ||
            (lines != 506 && lines != 605)) {
            print_reports(r + i, 1);
            fail_msg("report %zu is not the race between lines 5 and 6", i);
        }
        assert_non_null(strstr(r[i].kind, "Read-write data race at local memory"));
    }
    amp__ock_free_reports(r, count);
}

static const char divergent_barrier_src[] =
    "__kernel void half_barrier(__global const float *in, __global float *out)\n" /* 1 */
    "{\n"
    "    __local float tile[4];\n"
    "    size_t gid = get_global_id(0), lid = get_local_id(0);\n"
    "    tile[lid] = in[gid];\n" /* 5 */
    "    if (lid < 2)\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n" /* 7: only half the tile gets here */
    "    out[gid] = tile[(lid + 1) % 4];\n"
    "}\n";

static void a_barrier_in_a_divergent_branch_is_reported(void **state)
{
    (void)state;
    need_oclgrind();
    float out[N];
    ock_report *r;
    size_t count;
    run(divergent_barrier_src, "half_barrier", out, &r, &count);
    size_t divergent = 0;
    for (size_t i = 0; i < count; i++) {
        if (r[i].category != OCK_DIVERGENCE)
            continue; /* the tile is also read without a barrier for half of it */
        divergent++;
        assert_string_equal(r[i].kind, "Work-group divergence detected (barrier)");
        assert_string_equal(r[i].kernel, "half_barrier");
        assert_int_equal(r[i].line, 7);
        assert_non_null(strstr(r[i].text, "Only 2 out of 4 work-items executed barrier"));
    }
    if (divergent != N / TILE) {
        print_reports(r, count);
        fail_msg("expected one divergence report per tile, got %zu", divergent);
    }
    amp__ock_free_reports(r, count);
}

static const char out_of_bounds_src[] =
    "__kernel void shift_right(__global const float *in, __global float *out)\n" /* 1 */
    "{\n"
    "    size_t gid = get_global_id(0);\n"
    "    out[gid + 1] = in[gid];\n" /* 4: the last thread writes past the end */
    "}\n";

static void an_out_of_bounds_global_write_is_reported_at_its_line(void **state)
{
    (void)state;
    need_oclgrind();
    float out[N];
    ock_report *r;
    size_t count;
    run(out_of_bounds_src, "shift_right", out, &r, &count);
    if (count != 1 || r[0].category != OCK_INVALID_ACCESS) {
        print_reports(r, count);
        fail_msg("expected one invalid access, got %zu reports", count);
    }
    assert_non_null(strstr(r[0].kind, "Invalid write of size 4 at global memory address"));
    assert_string_equal(r[0].kernel, "shift_right");
    assert_int_equal(r[0].line, 4);
    assert_true(r[0].column > 0);
    assert_non_null(strstr(r[0].text, "Global(7,0,0)"));
    amp__ock_free_reports(r, count);
    for (int i = 1; i < N; i++)
        assert_true(out[i] == (float)i);
}

/* A kernel read from the user's file starts with a #line directive; the
 * reports then name that file and its lines. */
static const char line_directive_src[] =
    "__kernel void tile_sum(__global const float *in, __global float *out)\n"
    "{\n"
    "    __local float total;\n"
    "#line 40 \"kernels/my sum.cl\"\n"
    "    total += in[get_global_id(0)];\n" /* 40 */
    "    out[get_global_id(0)] = total;\n"
    "}\n";

static void a_line_directive_names_the_users_file_and_line(void **state)
{
    (void)state;
    need_oclgrind();
    float out[N];
    ock_report *r;
    size_t count;
    run(line_directive_src, "tile_sum", out, &r, &count);
    if (count == 0)
        fail_msg("the race after #line was not reported");
    assert_int_equal(r[0].category, OCK_DATA_RACE);
    assert_string_equal(r[0].file, "kernels/my sum.cl");
    assert_true(r[0].line == 40 || r[0].line == 41);
    assert_string_equal(r[0].other_file, "kernels/my sum.cl");
    amp__ock_free_reports(r, count);
}

static const char correct_src[] =
    "__kernel void rotate_tile(__global const float *in, __global float *out)\n"
    "{\n"
    "    __local float tile[4];\n"
    "    size_t gid = get_global_id(0), lid = get_local_id(0);\n"
    "    tile[lid] = in[gid];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    out[gid] = tile[(lid + 1) % 4];\n"
    "}\n"
    "__kernel void tile_sum(__global const float *in, __global float *out)\n"
    "{\n"
    "    __local float tile[4];\n"
    "    size_t gid = get_global_id(0), lid = get_local_id(0);\n"
    "    tile[lid] = in[gid];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    if (lid == 0)\n"
    "        out[get_group_id(0)] = tile[0] + tile[1] + tile[2] + tile[3];\n"
    "}\n";

static void correct_kernels_give_no_report_and_the_right_results(void **state)
{
    (void)state;
    need_oclgrind();
    float out[N];
    ock_report *r;
    size_t count;
    run(correct_src, "rotate_tile", out, &r, &count);
    if (count) {
        print_reports(r, count);
        fail_msg("the barrier-separated tile gave %zu reports", count);
    }
    static const float rotated[N] = {2, 3, 4, 1, 6, 7, 8, 5};
    assert_memory_equal(out, rotated, sizeof rotated);

    run(correct_src, "tile_sum", out, &r, &count);
    if (count) {
        print_reports(r, count);
        fail_msg("the correct tile sum gave %zu reports", count);
    }
    assert_true(out[0] == 10.0f);
    assert_true(out[1] == 26.0f);
}

static void api_errors_come_through_the_context_callback(void **state)
{
    (void)state;
    need_oclgrind();
    cl_int rc;
    const char *src = correct_src;
    cl_program program = amp__clapi.CreateProgramWithSource(context, 1, &src, NULL, &rc);
    assert_int_equal(amp__clapi.BuildProgram(program, 1, &device, amp__ock_build_options(), NULL, NULL),
                     CL_SUCCESS);
    cl_kernel kernel = amp__clapi.CreateKernel(program, "no_such_kernel", &rc);
    assert_null(kernel);
    assert_int_equal(rc, CL_INVALID_KERNEL_NAME);
    amp__clapi.ReleaseProgram(program);

    ock_report *r;
    size_t count;
    assert_amp_ok(amp__ock_take_reports(&r, &count));
    if (count != 1 || r[0].category != OCK_API_ERROR) {
        print_reports(r, count);
        fail_msg("expected one API error, got %zu reports", count);
    }
    assert_non_null(strstr(r[0].text, "Function: clCreateKernel"));
    assert_non_null(strstr(r[0].text, "CL_INVALID_KERNEL_NAME"));
    assert_non_null(strstr(r[0].text, "no_such_kernel"));
    amp__ock_free_reports(r, count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(amp_check_values),
        cmocka_unit_test(parses_each_kind_of_report),
        cmocka_unit_test(parses_locations_without_columns_in_line_files_or_without_debug_information),
        cmocka_unit_test(before_install_nothing_changes),
        cmocka_unit_test(a_missing_library_says_how_to_install_it),
        cmocka_unit_test(installs_with_the_checks_on),
        cmocka_unit_test(a_shared_tile_total_is_a_data_race_at_its_line),
        cmocka_unit_test(a_missing_barrier_before_reading_the_tile_is_reported),
        cmocka_unit_test(a_barrier_in_a_divergent_branch_is_reported),
        cmocka_unit_test(an_out_of_bounds_global_write_is_reported_at_its_line),
        cmocka_unit_test(a_line_directive_names_the_users_file_and_line),
        cmocka_unit_test(correct_kernels_give_no_report_and_the_right_results),
        cmocka_unit_test(api_errors_come_through_the_context_callback),
    };
    return cmocka_run_group_tests(tests, NULL, release_context);
}
