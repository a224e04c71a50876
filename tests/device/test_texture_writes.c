/*
 * tests/device/test_texture_writes.c - kernels that write textures, and
 * what comes after them: a kernel on another view of the accelerator, a
 * copy to the host, a refill, a copy to another texture or to a view, each
 * waits for the write on the device; a kernel that writes, and a copy from
 * a view, wait for a kernel that reads. Each case holds the first queue
 * behind a gate (a user event opened a fifth of a second later), so that
 * work not ordered after it runs first and sees the texture as it was. Each runs on the default
 * accelerator and on a part of a CPU split in two (AMP_SPLIT_CPU=2), where
 * the image lives in the texture's host memory. Also: a view keeps its
 * texture's data, a ping-pong of two textures at one call site, a
 * read-write view that a device without read-write images refuses, copies
 * between the parts of a split CPU, and copies whose OpenCL calls fail.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

#include "core/testing.h"

enum { ROWS = 64, COLS = 48, N = ROWS * COLS };

static int fresh(void **state)
{
    (void)state;
    unsetenv("AMP_SPLIT_CPU");
    amp__test_inject_fault(0, CL_SUCCESS);
    amp_shutdown();
    amp_transfer_reset_stats();
    return 0;
}

/* The parts of the CPU, split in two. */
static amp_accelerator *part[2];

static void split_cpu(void)
{
    setenv("AMP_SPLIT_CPU", "2", 1);
    amp_shutdown();
    size_t n = 0;
    amp_status st = amp_accelerator_count(&n);
    if (st == AMP_ERROR_UNSUPPORTED_FEATURE || st == AMP_ERROR_NO_DEVICE) {
        print_message("[  NOTE    ] no CPU device to split here: %s\n", amp_last_error());
        skip();
    }
    assert_amp_ok(st);
    int found = 0;
    for (size_t i = 0; i < n && found < 2; i++) {
        amp_accelerator *acc;
        amp_accelerator_info info;
        assert_amp_ok(amp_accelerator_get(i, &acc));
        assert_amp_ok(amp_accelerator_get_info(acc, &info));
        if (info.is_emulated && strrchr(info.device_path, '.')) /* "opencl:0/0.1" */
            part[found++] = acc;
    }
    if (found < 2) {
        print_message("[  NOTE    ] no CPU device was split\n");
        skip();
    }
}

/* A barrier on av's queue that waits for a user event: nothing queued on
 * av after it runs until the event completes. */
static cl_event hold_queue(amp_accelerator_view *av)
{
    test_cl_objects cl = amp__test_cl_of_view(av);
    cl_int rc;
    cl_event gate = clCreateUserEvent(cl.context, &rc);
    assert_int_equal(rc, CL_SUCCESS);
    assert_int_equal(clEnqueueBarrierWithWaitList(cl.queue, 1, &gate, NULL), CL_SUCCESS);
    assert_int_equal(clFlush(cl.queue), CL_SUCCESS);
    return gate;
}

static void *open_later(void *gate)
{
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
    clSetUserEventStatus((cl_event)gate, CL_COMPLETE);
    return NULL;
}

typedef struct gated {
    cl_event gate;
    pthread_t opener;
} gated;

/* Hold av's queue, and open it a fifth of a second from now. */
static gated hold(amp_accelerator_view *av)
{
    gated g = {hold_queue(av), 0};
    assert_int_equal(pthread_create(&g.opener, NULL, open_later, g.gate), 0);
    return g;
}

static void release_gate(gated g)
{
    pthread_join(g.opener, NULL);
    clReleaseEvent(g.gate);
}

static amp_status write_all_on(amp_accelerator_view *av, amp_texture_view *w, int seed);
static amp_status read_all_on(amp_accelerator_view *av, amp_texture *t, amp_array_view *o);

/* Build the cases' two kernels for av's accelerator on a texture of their
 * own, so that a launch behind a gate only queues: a build that outlasted
 * the gate would let the kernel run in order by chance. */
static void build_kernels(amp_accelerator_view *av)
{
    static int out[ROWS * COLS];
    amp_texture *t;
    amp_texture_view *w;
    amp_array_view *o;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), NULL, av, &t));
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_WRITE, &w));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), out, &o));
    assert_amp_ok(write_all_on(av, w, 0));
    assert_amp_ok(read_all_on(av, t, o));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_view_release(w));
    assert_amp_ok(amp_texture_release(t));
}

/* Two new views of acc (NULL: the default accelerator), its kernels
 * built. */
static void two_views(amp_accelerator *acc, amp_accelerator_view **a, amp_accelerator_view **b)
{
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_AUTOMATIC, a));
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_AUTOMATIC, b));
    build_kernels(*a);
}

/* The texels a kernel writes: i * 7 + seed. */
static int written(int i, int seed)
{
    return i * 7 + seed;
}

/* On av: every texel of the texture that w views set to written(i, seed). */
static amp_status write_all_on(amp_accelerator_view *av, amp_texture_view *w, int seed)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_2d(ROWS, COLS), idx,
                                    AMP_CAPTURE(w, seed, AMP_CONST(COLS)), { w.set(idx, (idx[0] * COLS + idx[1]) * 7 + seed);
    });
}

/* On av: the texture's texels into o. */
static amp_status read_all_on(amp_accelerator_view *av, amp_texture *t, amp_array_view *o)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(t, o),
                                    { o[idx] = t[idx]; });
}

static void expect_written(const int *got, int seed, const char *what)
{
    int wrong = 0, first = -1;
    for (int i = 0; i < N; i++)
        if (got[i] != written(i, seed)) {
            wrong++;
            if (first < 0)
                first = i;
        }
    if (wrong)
        fail_msg("%s: %d of %d texels were not the kernel's (texel %d is %d, not %d)", what, wrong,
                 N, first, got[first], written(first, seed));
}

/* A texture of ROWS x COLS ints on av, zero, and a view that writes it. */
static void writable_texture(amp_accelerator_view *av, amp_texture **t, amp_texture_view **w)
{
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), NULL, av, t));
    assert_amp_ok(amp_texture_view_create(*t, AMP_TEXTURE_WRITE, w));
}

static void release_all(amp_texture *t, amp_texture_view *w, amp_accelerator_view *a,
                        amp_accelerator_view *b)
{
    assert_amp_ok(amp_texture_view_release(w));
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(amp_accelerator_view_release(a));
    assert_amp_ok(amp_accelerator_view_release(b));
}

/* ---- The cases, on any accelerator ---- */

static void kernel_on_another_view_reads_the_write(amp_accelerator *acc)
{
    static int out[N];
    amp_accelerator_view *a, *b;
    two_views(acc, &a, &b);
    amp_texture *t;
    amp_texture_view *w;
    writable_texture(a, &t, &w);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), out, &o));
    assert_amp_ok(amp_array_view_discard_data(o));
    gated g = hold(a);
    assert_amp_ok(write_all_on(a, w, 3));
    assert_amp_ok(read_all_on(b, t, o));
    assert_amp_ok(amp_array_view_synchronize(o));
    release_gate(g);
    expect_written(out, 3, "the kernel on the other view");
    assert_amp_ok(amp_array_view_release(o));
    release_all(t, w, a, b);
}

static void copy_to_the_host_waits_for_the_write(amp_accelerator *acc)
{
    static int out[N];
    amp_accelerator_view *a, *b;
    two_views(acc, &a, &b);
    amp_texture *t;
    amp_texture_view *w;
    writable_texture(a, &t, &w);
    gated g = hold(b);
    assert_amp_ok(write_all_on(b, w, 11));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    release_gate(g);
    expect_written(out, 11, "the copy to the host");
    release_all(t, w, a, b);
}

static void refill_comes_after_the_write(amp_accelerator *acc)
{
    static int refill[N], out[N];
    for (int i = 0; i < N; i++)
        refill[i] = written(i, -5);
    amp_accelerator_view *a, *b;
    two_views(acc, &a, &b);
    amp_texture *t;
    amp_texture_view *w;
    writable_texture(a, &t, &w);
    gated g = hold(b);
    assert_amp_ok(write_all_on(b, w, 2));
    assert_amp_ok(amp_texture_copy_from_host(t, refill, sizeof refill));
    release_gate(g);
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    expect_written(out, -5, "the refill after the kernel");
    release_all(t, w, a, b);
}

static void a_copy_to_another_texture_waits_for_the_write(amp_accelerator *acc)
{
    static int out[N];
    amp_accelerator_view *a, *b;
    two_views(acc, &a, &b);
    amp_texture *t, *copy;
    amp_texture_view *w;
    writable_texture(a, &t, &w);
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), NULL, a, &copy));
    gated g = hold(b);
    assert_amp_ok(write_all_on(b, w, 23));
    assert_amp_ok(amp_texture_copy(t, copy));
    release_gate(g);
    assert_amp_ok(amp_texture_copy_to_host(copy, out, sizeof out));
    expect_written(out, 23, "the copy to another texture");
    assert_amp_ok(amp_texture_release(copy));
    release_all(t, w, a, b);
}

static void a_copy_to_a_view_waits_for_the_write(amp_accelerator *acc)
{
    static int viewed[N];
    amp_accelerator_view *a, *b;
    two_views(acc, &a, &b);
    amp_texture *t;
    amp_texture_view *w;
    writable_texture(a, &t, &w);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), viewed, &v));
    gated g = hold(b);
    assert_amp_ok(write_all_on(b, w, 29));
    assert_amp_ok(amp_texture_copy_to(t, amp_data_of(v)));
    release_gate(g);
    assert_amp_ok(amp_array_view_synchronize(v));
    expect_written(viewed, 29, "the copy to a view");
    assert_amp_ok(amp_array_view_release(v));
    release_all(t, w, a, b);
}

/* A copy into the texture after a kernel on another view that reads it:
 * the kernel reads the texels from before the copy. */
static void a_copy_from_a_view_waits_for_an_earlier_read(amp_accelerator *acc)
{
    static int first[N], refill[N], out[N];
    for (int i = 0; i < N; i++) {
        first[i] = written(i, 40);
        refill[i] = written(i, 41);
    }
    amp_accelerator_view *a, *b;
    two_views(acc, &a, &b);
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), first, a, &t));
    amp_array_view *o, *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), out, &o));
    assert_amp_ok(amp_array_view_discard_data(o));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), refill, &v));
    gated g = hold(b);
    assert_amp_ok(read_all_on(b, t, o));
    assert_amp_ok(amp_texture_copy_from(amp_data_of(v), t));
    assert_amp_ok(amp_array_view_synchronize(o));
    release_gate(g);
    expect_written(out, 40, "the read before the copy");
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    expect_written(out, 41, "the copy after the read");
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(amp_accelerator_view_release(a));
    assert_amp_ok(amp_accelerator_view_release(b));
}

static void a_write_waits_for_an_earlier_read(amp_accelerator *acc)
{
    static int first[N], out[N];
    for (int i = 0; i < N; i++)
        first[i] = written(i, 100);
    amp_accelerator_view *a, *b;
    two_views(acc, &a, &b);
    amp_texture *t;
    amp_texture_view *w;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), first, a, &t));
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_WRITE, &w));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), out, &o));
    assert_amp_ok(amp_array_view_discard_data(o));
    gated g = hold(b);
    assert_amp_ok(read_all_on(b, t, o));
    assert_amp_ok(write_all_on(a, w, 1));
    assert_amp_ok(amp_array_view_synchronize(o));
    release_gate(g);
    expect_written(out, 100, "the read before the write");
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    expect_written(out, 1, "the write after the read");
    assert_amp_ok(amp_array_view_release(o));
    release_all(t, w, a, b);
}

/* Each case on the default accelerator, and on a part of a split CPU. */
#define ON_BOTH(name)                                                                              \
    static void name##_on_the_default_accelerator(void **state)                                    \
    {                                                                                              \
        (void)state;                                                                               \
        name(NULL);                                                                                \
    }                                                                                              \
    static void name##_on_a_split_cpu(void **state)                                                \
    {                                                                                              \
        (void)state;                                                                               \
        split_cpu();                                                                               \
        name(part[1]);                                                                             \
    }
ON_BOTH(kernel_on_another_view_reads_the_write)
ON_BOTH(copy_to_the_host_waits_for_the_write)
ON_BOTH(refill_comes_after_the_write)
ON_BOTH(a_copy_to_another_texture_waits_for_the_write)
ON_BOTH(a_copy_to_a_view_waits_for_the_write)
ON_BOTH(a_copy_from_a_view_waits_for_an_earlier_read)
ON_BOTH(a_write_waits_for_an_earlier_read)

/* ---- Lifetimes and repeated launches ---- */

static void a_view_keeps_its_released_texture_data(void **state)
{
    (void)state;
    static int out[N];
    amp_texture *t;
    amp_texture_view *w, *r;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), NULL, NULL, &t));
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_WRITE, &w));
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_READ, &r));
    assert_amp_ok(amp_texture_release(t));
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(write_all_on(av, w, 9));
    assert_amp_ok(amp_texture_view_release(w));
    assert_amp_ok(amp_texture_copy_to_host(r, out, sizeof out));
    expect_written(out, 9, "through the view of a released texture");
    assert_int_equal(amp_texture_get_access(r), AMP_TEXTURE_READ);
    assert_amp_ok(amp_texture_view_release(r));
    assert_int_equal(amp_texture_release(r), AMP_ERROR_INVALID_ARGUMENT);
}

/* One call site, so that later launches may take the first's record. */
static amp_status step(amp_texture *from, amp_texture_view *to)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(from, to),
                                 { to.set(idx, from[idx] * 2 + 1); });
}

static void a_ping_pong_of_two_textures_at_one_call_site_is_ordered(void **state)
{
    (void)state;
    static int start[N], out[N];
    for (int i = 0; i < N; i++)
        start[i] = i % 5;
    amp_texture *t[2];
    amp_texture_view *w[2];
    for (int k = 0; k < 2; k++) {
        assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), start, NULL,
                                         &t[k]));
        assert_amp_ok(amp_texture_view_create(t[k], AMP_TEXTURE_WRITE, &w[k]));
    }
    amp_transfer_reset_stats();
    enum { STEPS = 12 };
    for (int s = 0; s < STEPS; s++)
        assert_amp_ok(step(t[s % 2], w[(s + 1) % 2]));
    assert_amp_ok(amp_texture_copy_to_host(t[STEPS % 2], out, sizeof out));
    for (int i = 0; i < N; i++) {
        int want = start[i];
        for (int s = 0; s < STEPS; s++)
            want = want * 2 + 1;
        assert_int_equal(out[i], want);
    }
    /* The kernels moved nothing; the one copy back, one download. */
    amp_transfer_stats st;
    assert_amp_ok(amp_transfer_get_stats(&st));
    assert_int_equal(st.uploads, 0);
    assert_int_equal(st.downloads, 1);
    for (int k = 0; k < 2; k++) {
        assert_amp_ok(amp_texture_view_release(w[k]));
        assert_amp_ok(amp_texture_release(t[k]));
    }
}

/* ---- Copies between the parts of a split CPU, and copies that fail ---- */

static void copies_between_the_parts_go_through_the_host(void **state)
{
    (void)state;
    split_cpu();
    static int data[N], out[N];
    for (int i = 0; i < N; i++)
        data[i] = written(i, 31);
    amp_accelerator_view *v0, *v1;
    assert_amp_ok(amp_accelerator_get_default_view(part[0], &v0));
    assert_amp_ok(amp_accelerator_get_default_view(part[1], &v1));
    amp_texture *t0, *t1;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), data, v0, &t0));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), NULL, v1, &t1));
    amp_array *a1;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(ROWS, COLS), v1, &a1));
    amp_transfer_reset_stats();
    assert_amp_ok(amp_texture_copy(t0, t1));
    assert_amp_ok(amp_texture_copy_to(t0, amp_data_of(a1)));
    amp_transfer_stats s;
    assert_amp_ok(amp_transfer_get_stats(&s));
    assert_int_equal(s.device_copies, 0);
    assert_int_equal(s.downloads, 2); /* t0 read twice */
    assert_int_equal(s.uploads, 2);   /* into t1, and into the array */
    assert_amp_ok(amp_texture_copy_to_host(t1, out, sizeof out));
    expect_written(out, 31, "the texture on the other part");
    assert_amp_ok(AMP_COPY(a1, out));
    expect_written(out, 31, "the array on the other part");
    assert_amp_ok(amp_array_release(a1));
    assert_amp_ok(amp_texture_release(t0));
    assert_amp_ok(amp_texture_release(t1));
}

/* Each OpenCL call of a copy on the device, failed in turn: a status and a
 * message every time, and the next copy, with nothing failing, right. */
static void every_failing_call_of_a_device_copy_gives_a_status(void **state)
{
    (void)state;
    static int data[N], out[N];
    for (int i = 0; i < N; i++)
        data[i] = written(i, 8);
    amp_texture *t, *u;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), data, NULL, &t));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_2d(ROWS, COLS), NULL, NULL, &u));
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_2d(ROWS, COLS), NULL, &a));
    for (int which = 0; which < 3; which++) {
        amp__test_inject_fault(0, CL_SUCCESS);
        amp_status st = which == 0   ? amp_texture_copy(t, u)
                        : which == 1 ? amp_texture_copy_to(t, amp_data_of(a))
                                     : amp_texture_copy_from(amp_data_of(a), u);
        long calls = amp__test_calls_counted();
        assert_amp_ok(st);
        assert_true(calls >= 1);
        for (long n = 1; n <= calls; n++) {
            amp__test_inject_fault(n, CL_OUT_OF_RESOURCES);
            amp_clear_error();
            st = which == 0   ? amp_texture_copy(t, u)
                 : which == 1 ? amp_texture_copy_to(t, amp_data_of(a))
                              : amp_texture_copy_from(amp_data_of(a), u);
            amp__test_inject_fault(0, CL_SUCCESS);
            if (st == AMP_OK)
                fail_msg("copy %d: call %ld of %ld failed and the copy said AMP_OK", which, n,
                         calls);
            assert_true(strlen(amp_last_error()) > 0);
        }
    }
    assert_amp_ok(amp_texture_copy_to(t, amp_data_of(a)));
    assert_amp_ok(amp_texture_copy_from(amp_data_of(a), u));
    assert_amp_ok(amp_texture_copy_to_host(u, out, sizeof out));
    expect_written(out, 8, "the copies after the failures");
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(amp_texture_release(u));
}

/* ---- A device without read-write images ---- */

static cl_int (*real_get_device_info)(cl_device_id, cl_device_info, size_t, void *, size_t *);

/* The device as OpenCL 1.2 sees it: no read-write image arguments. */
static cl_int CL_API_CALL no_read_write_images(cl_device_id d, cl_device_info what, size_t size,
                                               void *value, size_t *ret)
{
    if (what == 0x104C) /* CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS */
        return CL_INVALID_VALUE;
    return real_get_device_info(d, what, size, value, ret);
}

static void read_write_is_refused_without_read_write_images(void **state)
{
    (void)state;
    real_get_device_info = amp__clapi.GetDeviceInfo;
    amp__clapi.GetDeviceInfo = no_read_write_images;
    amp_shutdown(); /* the devices listed again, through the wrapper */
    amp_texture *t = NULL;
    amp_texture_view *v = (amp_texture_view *)&t;
    amp_status made = amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(4, 4), NULL, NULL, &t);
    amp_status st = made == AMP_OK ? amp_texture_view_create(t, AMP_TEXTURE_READ_WRITE, &v) : made;
    char message[512];
    snprintf(message, sizeof message, "%s", amp_last_error());
    amp__clapi.GetDeviceInfo = real_get_device_info;
    assert_amp_ok(made);
    assert_int_equal(st, AMP_ERROR_UNSUPPORTED_FEATURE);
    assert_null(v);
    if (!strstr(message, "has no read-write images") ||
        !strstr(message, "Read one texture and write another"))
        fail_msg("unexpected message: %s", message);
    assert_amp_ok(amp_texture_release(t));
    amp_shutdown();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(kernel_on_another_view_reads_the_write_on_the_default_accelerator,
                               fresh),
        cmocka_unit_test_setup(copy_to_the_host_waits_for_the_write_on_the_default_accelerator,
                               fresh),
        cmocka_unit_test_setup(refill_comes_after_the_write_on_the_default_accelerator, fresh),
        cmocka_unit_test_setup(
            a_copy_to_another_texture_waits_for_the_write_on_the_default_accelerator, fresh),
        cmocka_unit_test_setup(a_copy_to_a_view_waits_for_the_write_on_the_default_accelerator,
                               fresh),
        cmocka_unit_test_setup(
            a_copy_from_a_view_waits_for_an_earlier_read_on_the_default_accelerator, fresh),
        cmocka_unit_test_setup(a_write_waits_for_an_earlier_read_on_the_default_accelerator, fresh),
        cmocka_unit_test_setup(kernel_on_another_view_reads_the_write_on_a_split_cpu, fresh),
        cmocka_unit_test_setup(copy_to_the_host_waits_for_the_write_on_a_split_cpu, fresh),
        cmocka_unit_test_setup(refill_comes_after_the_write_on_a_split_cpu, fresh),
        cmocka_unit_test_setup(a_copy_to_another_texture_waits_for_the_write_on_a_split_cpu, fresh),
        cmocka_unit_test_setup(a_copy_to_a_view_waits_for_the_write_on_a_split_cpu, fresh),
        cmocka_unit_test_setup(a_copy_from_a_view_waits_for_an_earlier_read_on_a_split_cpu, fresh),
        cmocka_unit_test_setup(a_write_waits_for_an_earlier_read_on_a_split_cpu, fresh),
        cmocka_unit_test_setup(a_view_keeps_its_released_texture_data, fresh),
        cmocka_unit_test_setup(a_ping_pong_of_two_textures_at_one_call_site_is_ordered, fresh),
        cmocka_unit_test_setup(read_write_is_refused_without_read_write_images, fresh),
        cmocka_unit_test_setup(copies_between_the_parts_go_through_the_host, fresh),
        cmocka_unit_test_setup(every_failing_call_of_a_device_copy_gives_a_status, fresh),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    unsetenv("AMP_SPLIT_CPU");
    amp_shutdown();
    return failed;
}
