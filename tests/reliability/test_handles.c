/*
 * tests/reliability/test_handles.c - the handle contract: every handle the library hands
 * out is known by its address, so that a released, foreign or made-up
 * pointer, a second release, or a use after amp_shutdown() gets a status and
 * a message that names the call and what to do, never a crash and never
 * AMP_OK with stale data; and releasing NULL does nothing.
 *
 * Made-up pointers here are never dereferenced by the library: some point
 * at unmapped memory, so that a read would crash the test.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

/* Internals, only to hold a queue back behind a user event and to make an
 * OpenCL call fail. */
#include "core/testing.h"

#define IA AMP_ERROR_INVALID_ARGUMENT
#define REMOVED AMP_ERROR_ACCELERATOR_VIEW_REMOVED

/* An address nothing is mapped at (the first page is never mapped). */
#define UNMAPPED ((void *)(uintptr_t)0x40)

/* ---- Completions ---- */

static amp_completion *marker(void)
{
    amp_accelerator_view *av;
    amp_completion *c = NULL;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(amp_accelerator_view_create_marker(av, &c));
    return c;
}

static amp_completion *async_synchronize(amp_array_view *v)
{
    amp_completion *c = NULL;
    assert_amp_ok(amp_array_view_synchronize_async(v, &c));
    return c;
}

static void a_completion_released_twice_is_refused(void **state)
{
    (void)state;
    int data[16] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    amp_completion *thread_done = async_synchronize(v);
    amp_completion *device_done = marker();
    assert_amp_ok(amp_completion_release(thread_done));
    assert_amp_ok(amp_completion_release(device_done));
    assert_amp_fails(amp_completion_release(thread_done), IA,
                     "amp_completion_release: the completion");
    assert_amp_fails(amp_completion_release(thread_done), IA, "was already released");
    assert_amp_fails(amp_completion_release(device_done), IA, "was already released");
    assert_amp_ok(amp_array_view_release(v));
}

static void waiting_on_a_released_completion_is_refused(void **state)
{
    (void)state;
    int data[16] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    amp_completion *thread_done = async_synchronize(v);
    amp_completion *device_done = marker();
    assert_amp_ok(amp_completion_release(thread_done));
    assert_amp_ok(amp_completion_release(device_done));
    assert_amp_fails(amp_completion_wait(thread_done), IA,
                     "amp_completion_wait: the completion");
    assert_amp_fails(amp_completion_wait(device_done), IA, "was already released");
    int done = -1;
    assert_amp_fails(amp_completion_is_done(thread_done, &done), IA, "was already released");
    assert_int_equal(done, -1);
    assert_amp_ok(amp_array_view_release(v));
}

static void pause_ms(long ms)
{
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

typedef struct waiter {
    amp_completion *c;
    amp_status status;
} waiter;

static void *wait_on(void *p)
{
    waiter *w = p;
    w->status = amp_completion_wait(w->c);
    return NULL;
}

static void *open_later(void *gate)
{
    pause_ms(300);
    clSetUserEventStatus((cl_event)gate, CL_COMPLETE);
    return NULL;
}

static void a_completion_released_while_another_thread_waits(void **state)
{
    (void)state;
    /* A marker behind a closed gate: the wait on it is certainly in
     * progress when the release comes. */
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    test_cl_objects cl = amp__test_cl_of_view(av);
    cl_int rc;
    cl_event gate = clCreateUserEvent(cl.context, &rc);
    assert_int_equal(rc, CL_SUCCESS);
    assert_int_equal(clEnqueueBarrierWithWaitList(cl.queue, 1, &gate, NULL), CL_SUCCESS);
    amp_completion *c = NULL;
    assert_amp_ok(amp_accelerator_view_create_marker(av, &c));
    waiter w = {c, AMP_ERROR_RUNTIME};
    pthread_t waiting, opener;
    assert_int_equal(pthread_create(&waiting, NULL, wait_on, &w), 0);
    pause_ms(100);
    int done = 1;
    assert_amp_ok(amp_completion_is_done(c, &done));
    assert_int_equal(done, 0);
    assert_int_equal(pthread_create(&opener, NULL, open_later, gate), 0);
    /* Released at once for later calls; both waits end when the marker
     * does, and the last frees the handle. */
    assert_amp_ok(amp_completion_release(c));
    pthread_join(waiting, NULL);
    pthread_join(opener, NULL);
    assert_int_equal(w.status, AMP_OK);
    assert_amp_fails(amp_completion_wait(c), IA, "was already released");
    clReleaseEvent(gate);
    assert_amp_ok(amp_accelerator_view_release(av));
}

static void a_made_up_completion_is_refused(void **state)
{
    (void)state;
    int done = -1, local = 0;
    assert_amp_fails(amp_completion_is_done((amp_completion *)UNMAPPED, &done), IA,
                     "amp_completion_is_done: ");
    assert_amp_fails(amp_completion_is_done((amp_completion *)UNMAPPED, &done), IA,
                     "is not a completion the library made");
    assert_amp_fails(amp_completion_wait((amp_completion *)(void *)&local), IA,
                     "is not a completion the library made");
    assert_amp_fails(amp_completion_release((amp_completion *)(void *)&local), IA,
                     "is not a completion the library made");
    assert_int_equal(done, -1);
    assert_int_equal(local, 0);
}

static void a_handle_of_another_kind_is_named(void **state)
{
    (void)state;
    int data[16] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    int done = -1;
    assert_amp_fails(amp_completion_is_done((amp_completion *)(void *)v, &done), IA,
                     "is a view, not a completion");
    assert_amp_fails(amp_texture_release((amp_texture *)(void *)v), IA,
                     "amp_texture_release: ");
    assert_amp_fails(amp_texture_release((amp_texture *)(void *)v), IA,
                     "is a view, not a texture");
    amp_completion *c = marker();
    assert_amp_fails(amp_array_view_synchronize((amp_array_view *)(void *)c), IA,
                     "is a completion, not a view");
    assert_amp_ok(amp_completion_release(c));
    assert_amp_ok(amp_array_view_release(v));
}

/* ---- Kernel sources ---- */

static char kernel_dir[64];
static char kernel_path[128];

/* A kernel file in a folder of its own, holding text. */
static const char *kernel_file(const char *text)
{
    snprintf(kernel_dir, sizeof kernel_dir, "/tmp/amp_handles_XXXXXX");
    assert_non_null(mkdtemp(kernel_dir));
    snprintf(kernel_path, sizeof kernel_path, "%s/k.cl", kernel_dir);
    FILE *f = fopen(kernel_path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return kernel_path;
}

static void remove_kernel_file(void)
{
    unlink(kernel_path);
    rmdir(kernel_dir);
}

static void a_kernel_source_released_twice_is_refused(void **state)
{
    (void)state;
    amp_kernel_source *src = NULL;
    assert_amp_ok(amp_kernel_source_load(kernel_file("v(idx) += 1;\n"), "idx", &src));
    remove_kernel_file();
    assert_amp_ok(amp_kernel_source_release(src));
    assert_amp_fails(amp_kernel_source_release(src), IA,
                     "amp_kernel_source_release: the kernel source");
    assert_amp_fails(amp_kernel_source_release(src), IA, "was already released");
    assert_amp_ok(amp_kernel_source_release(NULL));
}

static void releasing_a_kernel_source_literal_is_refused(void **state)
{
    (void)state;
    amp_kernel_source *literal = (amp_kernel_source *)AMP_KERNEL_SOURCE(idx, { (void)idx; });
    assert_amp_fails(amp_kernel_source_release(literal), IA,
                     "is not a kernel source the library made");
    assert_amp_fails(amp_kernel_source_release(literal), IA, "AMP_KERNEL_SOURCE");
}

static void dispatching_a_released_kernel_source_is_refused(void **state)
{
    (void)state;
    int data[16] = {0};
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    amp_kernel_source *src = NULL;
    assert_amp_ok(amp_kernel_source_load(kernel_file("v(idx) += 1;\n"), "idx", &src));
    remove_kernel_file();
    assert_amp_ok(amp_parallel_for_each(NULL, amp_extent_1d(16), src, AMP_CAPTURE(v)));
    assert_amp_ok(amp_kernel_source_release(src));
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(16), src, AMP_CAPTURE(v)), IA,
                     "parallel_for_each: the kernel source");
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(16), src, AMP_CAPTURE(v)), IA,
                     "was already released");
    assert_amp_fails(amp_parallel_for_each_tiled(NULL, amp_extent_tile_1d(amp_extent_1d(16), 4),
                                                 src, AMP_CAPTURE(v)),
                     IA, "was already released");
    /* A source of another kind, or a made-up one, is never read. */
    assert_amp_fails(amp_parallel_for_each(NULL, amp_extent_1d(16),
                                           (const amp_kernel_source *)(void *)v, AMP_CAPTURE(v)),
                     IA, "is a view, not a kernel source");
    /* A literal still runs: the registry knows its own addresses only. */
    assert_amp_ok(amp_parallel_for_each(NULL, amp_extent_1d(16),
                                        AMP_KERNEL_SOURCE(idx, { v(idx) += 10; }),
                                        AMP_CAPTURE(v)));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 16; i++)
        assert_int_equal(data[i], 11);
    assert_amp_ok(amp_array_view_release(v));
}

/* Refused at once, without reading: the call must return, so a hang fails
 * the test through this alarm. */
static void hung(int sig)
{
    (void)sig;
    static const char msg[] = "amp_kernel_source_load did not return within 20 s\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

static void load_with_deadline(const char *path, amp_status expected, const char *text)
{
    signal(SIGALRM, hung);
    alarm(20);
    amp_kernel_source *src = (amp_kernel_source *)UNMAPPED;
    assert_amp_fails(amp_kernel_source_load(path, "idx", &src), expected, text);
    alarm(0);
    assert_null(src);
}

static void a_kernel_file_that_is_not_a_regular_file_is_refused(void **state)
{
    (void)state;
    load_with_deadline("/dev/zero", IA, "amp_kernel_source_load: /dev/zero is not a regular file");
    load_with_deadline("/dev/zero", IA, "character device");
    load_with_deadline("/tmp", IA, "/tmp is not a regular file (a directory)");

    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/amp_fifo_%ld", (long)getpid());
    assert_int_equal(mkfifo(fifo, 0600), 0);
    load_with_deadline(fifo, IA, "is not a regular file (a FIFO)");
    unlink(fifo);
}

static void a_kernel_file_too_large_is_refused(void **state)
{
    (void)state;
    kernel_file("");
    /* Sparse: no disk is used, and no byte is read. */
    int fd = open(kernel_path, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)1 << 40), 0);
    close(fd);
    load_with_deadline(kernel_path, IA, "bytes; a kernel file has at most");
    remove_kernel_file();
}

/* ---- Accelerators and their views ---- */

static void a_made_up_accelerator_is_refused(void **state)
{
    (void)state;
    amp_accelerator_info info;
    memset(&info, 0x5a, sizeof info);
    int local = 0;
    assert_amp_fails(amp_accelerator_get_info((const amp_accelerator *)UNMAPPED, &info), IA,
                     "amp_accelerator_get_info: ");
    assert_amp_fails(amp_accelerator_get_info((const amp_accelerator *)UNMAPPED, &info), IA,
                     "is not an accelerator the library made");
    assert_amp_fails(amp_accelerator_get_info((const amp_accelerator *)(void *)&local, &info),
                     IA, "is not an accelerator the library made");
    amp_accelerator_view *av;
    assert_amp_fails(amp_accelerator_get_default_view((amp_accelerator *)UNMAPPED, &av), IA,
                     "is not an accelerator the library made");
    assert_amp_fails(amp_accelerator_view_wait((amp_accelerator_view *)UNMAPPED), IA,
                     "is not an accelerator view the library made");
}

static void an_accelerator_after_shutdown_is_refused(void **state)
{
    (void)state;
    amp_accelerator *acc;
    amp_accelerator_view *av, *created;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    assert_amp_ok(amp_accelerator_get_default_view(acc, &av));
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_AUTOMATIC, &created));
    amp_shutdown();
    memset(&info, 0x5a, sizeof info);
    assert_amp_fails(amp_accelerator_get_info(acc, &info), IA,
                     "amp_accelerator_get_info: the accelerator");
    assert_amp_fails(amp_accelerator_get_info(acc, &info), IA, "amp_shutdown()");
    assert_amp_fails(amp_accelerator_get_info(acc, &info), IA, "amp_accelerator_get");
    assert_amp_fails(amp_accelerator_set_default(acc), IA, "was already released");
    assert_amp_fails(amp_accelerator_view_wait(av), IA,
                     "amp_accelerator_view_wait: the accelerator view");
    assert_amp_fails(amp_accelerator_view_wait(av), IA, "was already released");
    assert_amp_fails(amp_accelerator_view_release(created), IA, "was already released");
    assert_null(amp_accelerator_view_get_accelerator(av));
    /* The library starts afresh, with new handles. */
    amp_accelerator *again;
    assert_amp_ok(amp_accelerator_get_default(&again));
    assert_ptr_not_equal(again, acc);
    assert_amp_ok(amp_accelerator_get_info(again, &info));
}

static void an_accelerator_view_released_twice_is_refused(void **state)
{
    (void)state;
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    /* An array bound to it holds it: a second release must not take the
     * array's hold. */
    amp_array *arr;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(16), av, &arr));
    assert_amp_ok(amp_accelerator_view_release(av));
    assert_amp_fails(amp_accelerator_view_release(av), IA,
                     "amp_accelerator_view_release: the accelerator view");
    assert_amp_fails(amp_accelerator_view_release(av), IA, "was already released");
    /* The array still works on it. */
    int in[16], out[16];
    for (int i = 0; i < 16; i++)
        in[i] = i * 3;
    assert_amp_ok(AMP_COPY(in, arr));
    assert_amp_ok(AMP_COPY(arr, out));
    assert_memory_equal(in, out, sizeof in);
    assert_amp_ok(amp_array_release(arr));
    assert_amp_fails(amp_accelerator_view_wait(av), IA, "was already released");
}

/* ---- Arrays after amp_shutdown(): their data was lost with the device ---- */

static void an_array_copied_after_shutdown_says_its_data_is_lost(void **state)
{
    (void)state;
    int in[16], out[16];
    for (int i = 0; i < 16; i++) {
        in[i] = 100 + i;
        out[i] = -1;
    }
    amp_array *arr;
    amp_array_view *of_array, *part;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(16), in, NULL, &arr));
    assert_amp_ok(amp_array_view_create_from_array(arr, &of_array));
    assert_amp_ok(amp_array_view_section(of_array, amp_index_1d(4), amp_extent_1d(4), &part));
    amp_shutdown();

    assert_amp_fails(AMP_COPY(arr, out), REMOVED, "amp_copy: the source array's data was lost");
    assert_amp_fails(AMP_COPY(arr, out), REMOVED, "amp_shutdown");
    for (int i = 0; i < 16; i++)
        assert_int_equal(out[i], -1);
    assert_amp_fails(AMP_COPY(in, arr), REMOVED, "the destination array's data was lost");
    assert_amp_fails(amp_copy(amp_data_of(of_array), amp_data_of(out)), REMOVED,
                     "the source view's data was lost");
    for (int i = 0; i < 16; i++)
        assert_int_equal(out[i], -1);
    assert_amp_fails(amp_array_view_synchronize(part), REMOVED,
                     "amp_array_view_synchronize: the view's data was lost");
    const void *p = NULL;
    assert_amp_fails(amp_array_view_data_const(of_array, &p), REMOVED, "was lost");
    assert_null(p);
    amp_array *copy = NULL;
    assert_amp_fails(amp_array_create_from_array(arr, NULL, &copy), REMOVED, "was lost");
    assert_null(copy);
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(arr),
                                           { arr(idx) += 1; }),
                     REMOVED, "array 'arr' lost its data");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(part),
                                           { part(idx) += 1; }),
                     REMOVED, "view 'part' lost its data");
    /* What the handles still answer, and their release. */
    assert_int_equal(amp_array_get_extent(arr).dims[0], 16);
    assert_null(amp_array_get_accelerator_view(arr));
    assert_amp_ok(amp_array_view_release(part));
    assert_amp_ok(amp_array_view_release(of_array));
    assert_amp_ok(amp_array_release(arr));
}

/* ---- amp_shutdown() says when a view's data could not be copied back ---- */

static cl_int CL_API_CALL read_fails(cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t n,
                                      void *p, cl_uint ne, const cl_event *w, cl_event *e)
{
    (void)q, (void)m, (void)b, (void)o, (void)n, (void)p, (void)ne, (void)w, (void)e;
    return CL_INVALID_COMMAND_QUEUE;
}

static void shutdown_reports_a_copy_back_that_failed(void **state)
{
    (void)state;
    int data[16];
    for (int i = 0; i < 16; i++)
        data[i] = i;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v), { v(idx) *= 3; }));
    /* The shutdown's first read of the kernel's result fails, and the
     * second try, as the device copies go, succeeds: the data is home, and
     * the status says so. */
    amp__test_inject_fault(1, CL_INVALID_COMMAND_QUEUE);
    amp_status st = amp_shutdown();
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_amp_ok(st);
    for (int i = 0; i < 16; i++)
        assert_int_equal(data[i], 3 * i);

    /* Every read fails: the status says which call, and the host keeps its
     * old data, never anything else. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v), { v(idx) += 1; }));
    __typeof__(amp__clapi.EnqueueReadBuffer) real_read = amp__clapi.EnqueueReadBuffer;
    amp__clapi.EnqueueReadBuffer = read_fails;
    amp_clear_error();
    st = amp_shutdown();
    amp__clapi.EnqueueReadBuffer = real_read;
    assert_int_equal(st, AMP_ERROR_RUNTIME);
    assert_non_null(strstr(amp_last_error(), "clEnqueueReadBuffer failed"));
    for (int i = 0; i < 16; i++)
        assert_int_equal(data[i], 3 * i);
    /* The view is still a handle, and the library starts afresh. */
    assert_amp_ok(amp_array_view_refresh(v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v), { v(idx) += 1; }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 16; i++)
        assert_int_equal(data[i], 3 * i + 1);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_shutdown());
}

/* ---- NULL ---- */

static void releasing_null_does_nothing(void **state)
{
    (void)state;
    amp_clear_error();
    assert_amp_ok(amp_array_view_release(NULL));
    assert_amp_ok(amp_array_release(NULL));
    assert_amp_ok(amp_texture_release(NULL));
    assert_amp_ok(amp_completion_release(NULL));
    assert_amp_ok(amp_accelerator_view_release(NULL));
    assert_amp_ok(amp_kernel_source_release(NULL));
    assert_string_equal(amp_last_error(), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_completion_released_twice_is_refused),
        cmocka_unit_test(waiting_on_a_released_completion_is_refused),
        cmocka_unit_test(a_completion_released_while_another_thread_waits),
        cmocka_unit_test(a_made_up_completion_is_refused),
        cmocka_unit_test(a_handle_of_another_kind_is_named),
        cmocka_unit_test(a_kernel_source_released_twice_is_refused),
        cmocka_unit_test(releasing_a_kernel_source_literal_is_refused),
        cmocka_unit_test(dispatching_a_released_kernel_source_is_refused),
        cmocka_unit_test(a_kernel_file_that_is_not_a_regular_file_is_refused),
        cmocka_unit_test(a_kernel_file_too_large_is_refused),
        cmocka_unit_test(a_made_up_accelerator_is_refused),
        cmocka_unit_test(an_accelerator_after_shutdown_is_refused),
        cmocka_unit_test(an_accelerator_view_released_twice_is_refused),
        cmocka_unit_test(an_array_copied_after_shutdown_says_its_data_is_lost),
        cmocka_unit_test(shutdown_reports_a_copy_back_that_failed),
        cmocka_unit_test(releasing_null_does_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
