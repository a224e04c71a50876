/*
 * tests/device/test_queues.c - accelerator views: more than one queue per
 * accelerator, queuing modes, flush, markers, the lifetime of created
 * views, the bound on launches in flight; and two accelerators made of one
 * CPU (AMP_SPLIT_CPU=2): the wrong
 * accelerator's array, copies across, host views used on both, and
 * textures on each.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "test_util.h"

#include "core/testing.h"

static int fresh(void **state)
{
    (void)state;
    unsetenv("AMP_SPLIT_CPU");
    unsetenv("AMP_DEVICE");
    amp__test_inject_fault(0, CL_SUCCESS);
    amp_shutdown();
    amp_transfer_reset_stats();
    return 0;
}

/* ---- Views of one accelerator ---- */

static void a_created_view_is_a_new_queue_of_its_accelerator(void **state)
{
    (void)state;
    amp_accelerator *acc;
    amp_accelerator_view *def, *imm, *aut;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_accelerator_get_default_view(acc, &def));
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_IMMEDIATE, &imm));
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &aut));
    assert_true(imm != def && aut != def && imm != aut);
    assert_ptr_equal(amp_accelerator_view_get_accelerator(imm), acc);
    assert_ptr_equal(amp_accelerator_view_get_accelerator(aut), acc);
    assert_int_equal(amp_accelerator_view_get_queuing_mode(imm), AMP_QUEUING_IMMEDIATE);
    assert_int_equal(amp_accelerator_view_get_queuing_mode(aut), AMP_QUEUING_AUTOMATIC);
    assert_int_equal(amp_accelerator_view_get_queuing_mode(def), AMP_QUEUING_AUTOMATIC);
    assert_int_equal(amp_accelerator_view_is_default(def), 1);
    assert_int_equal(amp_accelerator_view_is_default(imm), 0);
    /* The views share the accelerator's context. */
    cl_context c1, c2;
    clGetCommandQueueInfo(amp__test_cl_of_view(imm).queue, CL_QUEUE_CONTEXT, sizeof c1, &c1, NULL);
    clGetCommandQueueInfo(amp__test_cl_of_view(def).queue, CL_QUEUE_CONTEXT, sizeof c2, &c2, NULL);
    assert_ptr_equal(c1, c2);
    assert_amp_ok(amp_accelerator_view_flush(imm));
    assert_amp_ok(amp_accelerator_view_wait(aut));
    assert_amp_ok(amp_accelerator_view_release(imm));
    assert_amp_ok(amp_accelerator_view_release(aut));
    /* Released: every call refuses it by name. */
    assert_null(amp_accelerator_view_get_accelerator(imm));
    assert_int_equal(amp_accelerator_view_get_queuing_mode(imm), 0);
    assert_amp_fails(amp_accelerator_view_release(imm), AMP_ERROR_INVALID_ARGUMENT,
                     "amp_accelerator_view_release: the accelerator view");
    assert_amp_fails(amp_accelerator_view_wait(imm), AMP_ERROR_INVALID_ARGUMENT,
                     "was already released");
    /* A default view is the library's: releasing it changes nothing. */
    assert_amp_ok(amp_accelerator_view_release(def));
    assert_amp_ok(amp_accelerator_view_wait(def));
    assert_amp_ok(amp_accelerator_view_release(NULL));
}

static void bad_view_arguments_are_refused(void **state)
{
    (void)state;
    amp_accelerator_view *v = (amp_accelerator_view *)state;
    amp_completion *m = (amp_completion *)state;
    int bogus = 0;
    assert_amp_fails(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, NULL),
                     AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_create_view: out is NULL");
    assert_amp_fails(amp_accelerator_create_view(NULL, (amp_queuing_mode)7, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "queuing mode 7 is neither");
    assert_null(v);
    assert_amp_fails(amp_accelerator_create_view((amp_accelerator *)&bogus, AMP_QUEUING_AUTOMATIC, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "is not an accelerator the library made");
    assert_amp_fails(amp_accelerator_get_default_view((amp_accelerator *)&bogus, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "not an accelerator");
    assert_amp_fails(amp_accelerator_view_flush(NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "amp_accelerator_view_flush: the accelerator view is NULL");
    assert_amp_fails(amp_accelerator_view_create_marker(NULL, &m), AMP_ERROR_INVALID_ARGUMENT,
                     "view is NULL");
    assert_null(m);
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &v));
    assert_amp_fails(amp_accelerator_view_create_marker(v, NULL), AMP_ERROR_INVALID_ARGUMENT,
                     "out is NULL");
    assert_int_equal(amp_accelerator_view_is_default(NULL), 0);
    assert_int_equal(amp_accelerator_view_get_queuing_mode(NULL), 0);
    /* A handle that is no view at all, in a kernel and for an array. */
    int out[4] = {0};
    amp_array_view *o;
    amp_array *a = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &o));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH_ON((amp_accelerator_view *)&bogus, amp_extent_1d(4), i,
                                              AMP_CAPTURE(o), { o(i) = 1; }),
                     AMP_ERROR_INVALID_ARGUMENT, "is not an accelerator view the library made");
    assert_amp_fails(amp_array_create(AMP_INT, amp_extent_1d(4), (amp_accelerator_view *)&bogus, &a),
                     AMP_ERROR_INVALID_ARGUMENT, "is not an accelerator view the library made");
    assert_null(a);
    assert_amp_ok(amp_array_view_release(o));
    assert_int_equal(out[0], 0);
}

/* A user event that holds a queue back until the test lets it go: what
 * the queue does meanwhile is then certain, not a matter of timing. */
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

/* ---- Back-pressure: launches in flight on a queue are bounded ---- */

/* Launches that have returned, and the count when they stopped coming. */
static atomic_long returned_launches;

typedef struct gate_keeper {
    cl_event gate;
    long total;    /* launches the test makes */
    long at_stall; /* launches returned while the queue was held */
} gate_keeper;

/* Open the gate once the launches stop returning for a second (the
 * library waits for the device), or once all of them have. */
static void *open_when_stalled(void *p)
{
    gate_keeper *k = p;
    long last = -1;
    int still = 0;
    while (still < 5) {
        nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
        long now = atomic_load(&returned_launches);
        if (now >= k->total)
            break;
        still = now == last ? still + 1 : 0;
        last = now;
    }
    k->at_stall = atomic_load(&returned_launches);
    clSetUserEventStatus(k->gate, CL_COMPLETE);
    return NULL;
}

static void a_queue_holds_a_bounded_number_of_launches(void **state)
{
    (void)state;
    enum { N = 64 };
    static int data[N];
    memset(data, 0, sizeof data);
    amp_accelerator_view *av;
    amp_array_view *v;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    /* Compiled and uploaded, and the queue idle, before it is held. */
    assert_amp_ok(
        AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(N), i, AMP_CAPTURE(v), { v(i) += 1; }));
    assert_amp_ok(amp_accelerator_view_wait(av));

    gate_keeper k = {hold_queue(av), 3 * LIMIT_QUEUE_SPAN, -1};
    atomic_store(&returned_launches, 0);
    pthread_t keeper;
    assert_int_equal(pthread_create(&keeper, NULL, open_when_stalled, &k), 0);
    for (long n = 0; n < k.total; n++) {
        assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(N), i, AMP_CAPTURE(v),
                                               { v(i) += 1; }));
        atomic_fetch_add(&returned_launches, 1);
    }
    pthread_join(keeper, NULL);
    clReleaseEvent(k.gate);
    print_message("launches returned while the queue was held: %ld of %ld\n", k.at_stall,
                  k.total);
    /* Held, the queue ran nothing: the launches stopped at the bound, and
     * went on once it ran again. */
    if (k.at_stall < LIMIT_QUEUE_SPAN || k.at_stall > 2 * LIMIT_QUEUE_SPAN)
        fail_msg("%ld launches returned while the queue ran nothing; the bound is %d", k.at_stall,
                 2 * LIMIT_QUEUE_SPAN);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], k.total + 1);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_view_release(av));
}

/* Whether a marker went to watched_queue, and the queue the last barrier
 * went to, through amp__clapi. (With the timeline on, markers of its own,
 * which measure a queue's clock, may go to other queues.) */
static cl_command_queue watched_queue, barrier_queue;
static int watched_marked;
static cl_uint barrier_waits;
static cl_int (CL_API_CALL *real_marker)(cl_command_queue, cl_uint, const cl_event *, cl_event *);
static cl_int (CL_API_CALL *real_barrier)(cl_command_queue, cl_uint, const cl_event *, cl_event *);
static cl_int CL_API_CALL seen_marker(cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e)
{
    watched_marked |= q == watched_queue;
    return real_marker(q, n, w, e);
}
static cl_int CL_API_CALL seen_barrier(cl_command_queue q, cl_uint n, const cl_event *w, cl_event *e)
{
    barrier_queue = q;
    barrier_waits = n;
    return real_barrier(q, n, w, e);
}

static void work_on_two_views_is_ordered_on_the_device(void **state)
{
    (void)state;
    enum { N = 64 };
    int host[N];
    for (int i = 0; i < N; i++)
        host[i] = -1;
    amp_accelerator_view *a, *b;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &a));
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_IMMEDIATE, &b));
    amp_array *arr;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(N), host, a, &arr));
    amp_transfer_stats before = transfers_now();

    /* View a waits for the gate; the kernel on b that reads a's result must
     * wait for a's kernel although b itself is free. Were it not ordered,
     * b's kernel would run first and a's would overwrite its result (on
     * drivers that do not order buffer uses across queues themselves; PoCL
     * does, so the queues the order went through are checked too). */
    cl_event gate = hold_queue(a);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(a, amp_extent_1d(N), i, AMP_CAPTURE(arr),
                                           { arr(i) = i[0] + 1; }));
    watched_queue = amp__test_cl_of_view(a).queue;
    watched_marked = 0;
    real_marker = amp__clapi.EnqueueMarkerWithWaitList;
    real_barrier = amp__clapi.EnqueueBarrierWithWaitList;
    amp__clapi.EnqueueMarkerWithWaitList = seen_marker;
    amp__clapi.EnqueueBarrierWithWaitList = seen_barrier;
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(b, amp_extent_1d(N), i, AMP_CAPTURE(arr),
                                           { arr(i) = arr(i) * 10; }));
    amp__clapi.EnqueueMarkerWithWaitList = real_marker;
    amp__clapi.EnqueueBarrierWithWaitList = real_barrier;
    assert_true(watched_marked);
    assert_ptr_equal(barrier_queue, amp__test_cl_of_view(b).queue);
    assert_int_equal(barrier_waits, 1);
    amp_completion *on_b;
    assert_amp_ok(amp_accelerator_view_create_marker(b, &on_b));
    int done = -1;
    assert_amp_ok(amp_completion_is_done(on_b, &done));
    assert_int_equal(done, 0);
    assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    assert_amp_ok(amp_completion_wait(on_b));
    assert_amp_ok(amp_completion_is_done(on_b, &done));
    assert_int_equal(done, 1);
    assert_amp_ok(amp_completion_release(on_b));
    clReleaseEvent(gate);

    /* Nothing went through the host between the views. */
    amp_transfer_stats after = transfers_now();
    assert_int_equal(after.uploads, before.uploads);
    assert_int_equal(after.downloads, before.downloads);
    assert_amp_ok(AMP_COPY(arr, host));
    for (int i = 0; i < N; i++)
        assert_int_equal(host[i], (i + 1) * 10);
    assert_amp_ok(amp_array_release(arr));
    assert_amp_ok(amp_accelerator_view_release(a));
    assert_amp_ok(amp_accelerator_view_release(b));
}

static void a_host_view_moves_between_views_without_the_host(void **state)
{
    (void)state;
    int data[16] = {0};
    amp_accelerator_view *a, *b;
    amp_array_view *v;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &a));
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &b));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(a, amp_extent_1d(16), i, AMP_CAPTURE(v), { v(i) = i[0]; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(b, amp_extent_1d(16), i, AMP_CAPTURE(v), { v(i) += 100; }));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.uploads, 1); /* once, for a's kernel */
    assert_int_equal(s.upload_bytes, sizeof data);
    assert_int_equal(s.downloads, 0);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < 16; i++)
        assert_int_equal(data[i], i + 100);
    assert_int_equal(transfers_now().downloads, 1);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_view_release(a));
    assert_amp_ok(amp_accelerator_view_release(b));
}

/* Complete a user event after a fifth of a second, on its own thread: a
 * call that waits for the queue the event holds returns only then. */
static void *open_later(void *gate)
{
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
    clSetUserEventStatus((cl_event)gate, CL_COMPLETE);
    return NULL;
}

/* On two new views of acc: a kernel on the second reads a texture made on
 * the first, queued behind a gate when the texture is refilled. The refill
 * must not change what the kernel reads (it waits for the kernel, on the
 * device), and must take. */
static void refill_after_a_kernel_on_another_view(amp_accelerator *acc)
{
    enum { ROWS = 512, COLS = 512, N = ROWS * COLS };
    static float old_texels[N], new_texels[N], out[N];
    for (int i = 0; i < N; i++) {
        old_texels[i] = (float)i;
        new_texels[i] = -1.0f - (float)i;
        out[i] = 0.0f;
    }
    amp_accelerator_view *a, *b;
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_AUTOMATIC, &a));
    assert_amp_ok(amp_accelerator_create_view(acc, AMP_QUEUING_AUTOMATIC, &b));
    amp_texture *t;
    amp_array_view *o;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(ROWS, COLS), old_texels, a, &t));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(ROWS, COLS), out, &o));
    /* Nothing of the output to upload behind the gate below. */
    assert_amp_ok(amp_array_view_discard_data(o));

    cl_event gate = hold_queue(b);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(b, amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(t, o),
                                           { o(idx) = t(idx); }));
    pthread_t opener;
    assert_int_equal(pthread_create(&opener, NULL, open_later, gate), 0);
    assert_amp_ok(amp_texture_copy_from_host(t, new_texels, sizeof new_texels));
    pthread_join(opener, NULL);
    clReleaseEvent(gate);
    assert_amp_ok(amp_array_view_synchronize(o));
    int wrong = 0;
    for (int i = 0; i < N; i++)
        wrong += out[i] != old_texels[i];
    if (wrong)
        fail_msg("%d of %d texels read by the kernel were the refill's", wrong, N);
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    assert_memory_equal(out, new_texels, sizeof out);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(amp_accelerator_view_release(a));
    assert_amp_ok(amp_accelerator_view_release(b));
}

static void a_texture_refilled_after_a_kernel_on_another_view_keeps_its_texels_for_it(void **state)
{
    (void)state;
    refill_after_a_kernel_on_another_view(NULL);
}

/* One call site, so that the second launch may take the first's record. */
static amp_status read_texture_on(amp_accelerator_view *av, amp_texture *t, amp_array_view *o)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(amp_array_view_get_extent(o).dims[0]), idx,
                                    AMP_CAPTURE(t, o), { o(idx) = t(idx); });
}

static void a_repeated_launch_with_another_texture_is_ordered_before_its_refill(void **state)
{
    (void)state;
    enum { N = 4096 };
    static int first[N], second[N], refill[N], out[N];
    for (int i = 0; i < N; i++) {
        first[i] = i;
        second[i] = 2 * i + 1;
        refill[i] = -i;
    }
    amp_accelerator_view *a, *b;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &a));
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &b));
    amp_texture *t1, *t2;
    amp_array_view *o;
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(N), first, a, &t1));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(N), second, a, &t2));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &o));
    assert_amp_ok(amp_array_view_discard_data(o));
    assert_amp_ok(read_texture_on(b, t1, o));
    assert_amp_ok(amp_accelerator_view_wait(b));
    /* The same call with the other texture, which no data change tells
     * from the first: it is ordered all the same. */
    cl_event gate = hold_queue(b);
    assert_amp_ok(read_texture_on(b, t2, o));
    pthread_t opener;
    assert_int_equal(pthread_create(&opener, NULL, open_later, gate), 0);
    assert_amp_ok(amp_texture_copy_from_host(t2, refill, sizeof refill));
    pthread_join(opener, NULL);
    clReleaseEvent(gate);
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_memory_equal(out, second, sizeof out);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t1));
    assert_amp_ok(amp_texture_release(t2));
    assert_amp_ok(amp_accelerator_view_release(a));
    assert_amp_ok(amp_accelerator_view_release(b));
}

static void a_texture_keeps_its_released_view(void **state)
{
    (void)state;
    int in[4] = {5, 6, 7, 8}, out[4] = {0};
    amp_accelerator_view *av;
    amp_texture *t;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, amp_extent_1d(4), in, av, &t));
    assert_amp_ok(amp_accelerator_view_release(av));
    /* The texture still holds the view: its queue is there for its copies. */
    amp_accelerator_view *held = amp_texture_get_accelerator_view(t);
    assert_ptr_equal(held, av);
    assert_int_equal(amp_accelerator_view_get_queuing_mode(held), AMP_QUEUING_AUTOMATIC);
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    assert_memory_equal(out, in, sizeof out);
    assert_amp_ok(amp_texture_release(t));
    /* Its last holder gone, so is the view. */
    assert_null(amp_accelerator_view_get_accelerator(av));
}

static int flushes;
static cl_int (CL_API_CALL *real_flush)(cl_command_queue);
static cl_int CL_API_CALL counting_flush(cl_command_queue q)
{
    flushes++;
    return real_flush(q);
}

static void an_immediate_view_submits_each_kernel_and_an_automatic_one_does_not(void **state)
{
    (void)state;
    int data[8] = {0};
    amp_accelerator_view *imm, *aut;
    amp_array_view *v;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_IMMEDIATE, &imm));
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &aut));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(8), data, &v));
    /* The data on imm first: then a kernel there moves nothing. */
    assert_amp_ok(amp_array_view_synchronize_to(v, imm));
    real_flush = amp__clapi.Flush;
    amp__clapi.Flush = counting_flush;
    for (int k = 0; k < 3; k++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(imm, amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) += 1; }));
    int after_immediate = flushes;
    assert_amp_ok(amp_accelerator_view_wait(imm));
    flushes = 0;
    assert_amp_ok(amp_array_view_synchronize_to(v, aut)); /* one flush: ordering after imm */
    int ordering = flushes;
    for (int k = 0; k < 3; k++)
        assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(aut, amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) += 1; }));
    int after_automatic = flushes - ordering;
    assert_amp_ok(amp_accelerator_view_flush(aut));
    int explicit_flush = flushes - ordering - after_automatic;
    amp__clapi.Flush = real_flush;
    assert_int_equal(after_immediate, 3);
    assert_int_equal(ordering, 1);
    assert_int_equal(after_automatic, 0);
    assert_int_equal(explicit_flush, 1);
    assert_amp_ok(amp_array_view_release(v));
    for (int i = 0; i < 8; i++)
        assert_int_equal(data[i], 6);
    assert_amp_ok(amp_accelerator_view_release(imm));
    assert_amp_ok(amp_accelerator_view_release(aut));
}

static void an_array_keeps_its_released_view(void **state)
{
    (void)state;
    int out[4] = {0};
    amp_accelerator_view *av;
    amp_array *arr;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(4), av, &arr));
    assert_amp_ok(amp_accelerator_view_release(av));
    /* The array still holds the view: it is usable through the array. */
    amp_accelerator_view *held = amp_array_get_accelerator_view(arr);
    assert_ptr_equal(held, av);
    assert_int_equal(amp_accelerator_view_get_queuing_mode(held), AMP_QUEUING_AUTOMATIC);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(held, amp_extent_1d(4), i, AMP_CAPTURE(arr), { arr(i) = 7 * i[0]; }));
    assert_amp_ok(AMP_COPY(arr, out));
    for (int i = 0; i < 4; i++)
        assert_int_equal(out[i], 7 * i);
    assert_amp_ok(amp_array_release(arr));
    /* Its last holder gone, so is the view. */
    assert_null(amp_accelerator_view_get_accelerator(av));
}

static void a_marker_on_an_idle_queue_is_done_at_once(void **state)
{
    (void)state;
    amp_accelerator_view *av;
    amp_completion *m;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(amp_accelerator_view_create_marker(av, &m));
    assert_amp_ok(amp_completion_wait(m));
    int done = 0;
    assert_amp_ok(amp_completion_is_done(m, &done));
    assert_int_equal(done, 1);
    assert_amp_ok(amp_completion_wait(m)); /* again: the same answer */
    assert_amp_ok(amp_completion_release(m));
}

static void a_marker_after_a_failed_command_says_the_view_was_removed(void **state)
{
    (void)state;
    amp_accelerator_view *av;
    amp_completion *m;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    assert_amp_ok(amp_accelerator_view_create_marker(av, &m));
    /* The wait reports a command before the marker that failed, as after
     * an aborted kernel. (Failing a user event the marker waits for would
     * be closer, but PoCL 3.1 aborts the process on it.) */
    amp__test_inject_fault(1, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    assert_amp_fails(amp_completion_wait(m), AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                     "a command queued before the marker failed");
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_non_null(strstr(amp_last_error(), "Waiting for a marker on "));
    assert_non_null(strstr(amp_last_error(), "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST"));
    /* The marker itself is fine on PoCL: released, it is waited for again. */
    assert_amp_ok(amp_completion_release(m));
    assert_amp_ok(amp_accelerator_view_release(av));
}

/* ---- Two accelerators: a CPU split in two ---- */

static amp_accelerator *part[2];

/* AMP_SPLIT_CPU=2, and the two parts of the first CPU device; skips where
 * the CPU cannot be split (one compute unit, or no partitioning). */
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
        const char *dot = strrchr(info.device_path, '.');
        if (dot && info.is_emulated)
            part[found++] = acc;
    }
    if (found < 2) {
        print_message("[  NOTE    ] no CPU device was split\n");
        skip();
    }
}

static void the_split_cpu_is_two_accelerators(void **state)
{
    (void)state;
    split_cpu();
    amp_accelerator_info a, b;
    assert_amp_ok(amp_accelerator_get_info(part[0], &a));
    assert_amp_ok(amp_accelerator_get_info(part[1], &b));
    assert_non_null(strstr(a.description, "(part 1 of 2)"));
    assert_non_null(strstr(b.description, "(part 2 of 2)"));
    size_t plen = strlen(a.device_path);
    assert_string_equal(a.device_path + plen - 2, ".0");
    assert_string_equal(b.device_path + strlen(b.device_path) - 2, ".1");
    assert_int_equal(strncmp(a.device_path, b.device_path, plen - 1), 0);
    /* AMP_DEVICE picks a part by name. */
    setenv("AMP_DEVICE", "part 2 of 2", 1);
    amp_shutdown();
    amp_accelerator *def;
    amp_accelerator_info d;
    assert_amp_ok(amp_accelerator_get_default(&def));
    assert_amp_ok(amp_accelerator_get_info(def, &d));
    assert_non_null(strstr(d.description, "(part 2 of 2)"));
}

static void an_array_on_one_accelerator_is_refused_on_the_other(void **state)
{
    (void)state;
    split_cpu();
    amp_accelerator_view *v0, *v1;
    amp_array *arr;
    amp_accelerator_info a, b;
    assert_amp_ok(amp_accelerator_get_info(part[0], &a));
    assert_amp_ok(amp_accelerator_get_info(part[1], &b));
    assert_amp_ok(amp_accelerator_create_view(part[0], AMP_QUEUING_AUTOMATIC, &v0));
    assert_amp_ok(amp_accelerator_get_default_view(part[1], &v1));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(8), v0, &arr));
    amp_clear_error();
    assert_int_equal(AMP_PARALLEL_FOR_EACH_ON(v1, amp_extent_1d(8), i, AMP_CAPTURE(arr), { arr(i) = 1; }),
                     AMP_ERROR_INVALID_OPERATION);
    const char *msg = amp_last_error();
    char want[512];
    snprintf(want, sizeof want, "array 'arr' lives on %s (%s), and this kernel runs on a view of %s (%s)",
             a.description, a.device_path, b.description, b.device_path);
    if (!strstr(msg, want))
        fail_msg("no \"%s\" in: %s", want, msg);
    assert_non_null(strstr(msg, "amp_copy"));
    assert_int_equal(transfers_now().uploads, 0);
    assert_amp_ok(amp_array_release(arr));
    assert_amp_ok(amp_accelerator_view_release(v0));
}

static void a_copy_across_accelerators_goes_through_the_host(void **state)
{
    (void)state;
    split_cpu();
    enum { N = 32 };
    int in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = 3 * i + 1;
        out[i] = 0;
    }
    amp_accelerator_view *v0, *v1;
    amp_array *a0, *a1;
    assert_amp_ok(amp_accelerator_get_default_view(part[0], &v0));
    assert_amp_ok(amp_accelerator_get_default_view(part[1], &v1));
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(N), in, v0, &a0));
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(N), v1, &a1));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v0, amp_extent_1d(N), i, AMP_CAPTURE(a0), { a0(i) *= 2; }));
    amp_transfer_reset_stats();
    assert_amp_ok(AMP_COPY(a0, a1));
    amp_transfer_stats s = transfers_now();
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_COPY], 1);
    assert_int_equal(s.bytes[AMP_TO_HOST][AMP_REASON_COPY], sizeof in);
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.bytes[AMP_TO_DEVICE][AMP_REASON_COPY], sizeof in);
    assert_int_equal(s.device_copies, 0);
    /* The copy is usable on its accelerator. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v1, amp_extent_1d(N), i, AMP_CAPTURE(a1), { a1(i) += 1; }));
    assert_amp_ok(AMP_COPY(a1, out));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], (3 * i + 1) * 2 + 1);
    assert_amp_ok(amp_array_release(a0));
    assert_amp_ok(amp_array_release(a1));
}

static void a_host_view_stays_coherent_across_accelerators(void **state)
{
    (void)state;
    split_cpu();
    enum { N = 48 };
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    amp_accelerator_view *v0, *v1;
    amp_array_view *v;
    assert_amp_ok(amp_accelerator_get_default_view(part[0], &v0));
    assert_amp_ok(amp_accelerator_create_view(part[1], AMP_QUEUING_IMMEDIATE, &v1));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v0, amp_extent_1d(N), i, AMP_CAPTURE(v), { v(i) *= 3; }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v1, amp_extent_1d(N), i, AMP_CAPTURE(v), { v(i) += 5; }));
    /* Then back on the first, whose copy is stale now. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v0, amp_extent_1d(N), i, AMP_CAPTURE(v), { v(i) *= 2; }));
    amp_transfer_stats s = transfers_now();
    /* Each move between the accelerators went down to the host and up. */
    assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_KERNEL], 3);
    assert_int_equal(s.count[AMP_TO_HOST][AMP_REASON_KERNEL], 2);
    assert_int_equal(s.bytes[AMP_TO_HOST][AMP_REASON_KERNEL], 2 * sizeof data);
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], (i * 3 + 5) * 2);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_accelerator_view_release(v1));
}

/* Texels of a texture of rows x cols: i * 3 - 7 + seed. */
static void fill_texels(int *t, int n, int seed)
{
    for (int i = 0; i < n; i++)
        t[i] = i * 3 - 7 + seed;
}

/* A kernel on av that copies texture t into view o. */
static amp_status read_all_on(amp_accelerator_view *av, amp_texture *t, amp_array_view *o)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_array_view_get_extent(o), idx, AMP_CAPTURE(t, o),
                                    { o(idx) = t(idx); });
}

static void textures_work_on_each_part_of_a_split_cpu(void **state)
{
    (void)state;
    split_cpu();
    enum { ROWS = 48, COLS = 40, N = ROWS * COLS };
    static int texels[N], refill[N], out[N];
    fill_texels(texels, N, 0);
    fill_texels(refill, N, 1000);
    amp_extent e = amp_extent_2d(ROWS, COLS);
    for (int p = 0; p < 2; p++) {
        amp_accelerator_view *home, *other;
        amp_texture *t;
        amp_array_view *o;
        assert_amp_ok(amp_accelerator_get_default_view(part[p], &home));
        assert_amp_ok(amp_accelerator_create_view(part[p], AMP_QUEUING_IMMEDIATE, &other));
        assert_amp_ok(amp_texture_create(AMP_INT, 1, e, texels, home, &t));
        assert_amp_ok(amp_array_view_create(AMP_INT, e, out, &o));
        /* Read by kernels on both views of its accelerator, copied back. */
        assert_amp_ok(read_all_on(home, t, o));
        assert_amp_ok(amp_array_view_synchronize(o));
        assert_memory_equal(out, texels, sizeof out);
        memset(out, 0, sizeof out);
        assert_amp_ok(amp_array_view_refresh(o));
        assert_amp_ok(read_all_on(other, t, o));
        assert_amp_ok(amp_array_view_synchronize(o));
        assert_memory_equal(out, texels, sizeof out);
        assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
        assert_memory_equal(out, texels, sizeof out);
        /* Refilled, then read again. */
        assert_amp_ok(amp_texture_copy_from_host(t, refill, sizeof refill));
        assert_amp_ok(amp_array_view_refresh(o));
        assert_amp_ok(read_all_on(other, t, o));
        assert_amp_ok(amp_array_view_synchronize(o));
        assert_memory_equal(out, refill, sizeof out);
        memset(out, 0, sizeof out);
        assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
        assert_memory_equal(out, refill, sizeof out);
        /* Each fill counted once, as an upload of its bytes. */
        amp_transfer_stats s;
        assert_amp_ok(amp_texture_get_transfers(t, &s));
        assert_int_equal(s.count[AMP_TO_DEVICE][AMP_REASON_COPY], 2);
        assert_int_equal(s.bytes[AMP_TO_DEVICE][AMP_REASON_COPY], 2 * sizeof texels);
        assert_amp_ok(amp_array_view_release(o));
        assert_amp_ok(amp_texture_release(t));
        assert_amp_ok(amp_accelerator_view_release(other));
    }
}

static void a_texture_on_a_split_cpu_is_refilled_after_a_kernel_on_another_view(void **state)
{
    (void)state;
    split_cpu();
    refill_after_a_kernel_on_another_view(part[1]);
}

static void a_texture_goes_to_the_other_accelerator_through_the_host(void **state)
{
    (void)state;
    split_cpu();
    enum { ROWS = 32, COLS = 24, N = ROWS * COLS };
    static int texels[N], host[N], out[N];
    fill_texels(texels, N, 5);
    amp_extent e = amp_extent_2d(ROWS, COLS);
    amp_accelerator_view *v0, *v1;
    amp_texture *t0, *t1;
    amp_array *a1;
    assert_amp_ok(amp_accelerator_get_default_view(part[0], &v0));
    assert_amp_ok(amp_accelerator_get_default_view(part[1], &v1));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, e, texels, v0, &t0));
    /* A kernel on the other accelerator is refused, naming both. */
    amp_accelerator_info a, b;
    assert_amp_ok(amp_accelerator_get_info(part[0], &a));
    assert_amp_ok(amp_accelerator_get_info(part[1], &b));
    assert_amp_ok(amp_array_create(AMP_INT, e, v1, &a1));
    amp_clear_error();
    assert_int_equal(AMP_PARALLEL_FOR_EACH_ON(v1, e, idx, AMP_CAPTURE(t0, a1), { a1(idx) = t0(idx); }),
                     AMP_ERROR_INVALID_OPERATION);
    char want[512];
    snprintf(want, sizeof want, "texture 't0' lives on %s (%s), and this kernel runs on a view of %s (%s)",
             a.description, a.device_path, b.description, b.device_path);
    if (!strstr(amp_last_error(), want))
        fail_msg("no \"%s\" in: %s", want, amp_last_error());
    assert_non_null(strstr(amp_last_error(), "amp_texture_copy_to_host"));
    /* Through the host: into a texture and an array there, exactly. */
    assert_amp_ok(amp_texture_copy_to_host(t0, host, sizeof host));
    assert_amp_ok(amp_texture_create(AMP_INT, 1, e, host, v1, &t1));
    assert_amp_ok(AMP_COPY(host, a1));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH_ON(v1, e, idx, AMP_CAPTURE(t1, a1), { a1(idx) += t1(idx); }));
    assert_amp_ok(AMP_COPY(a1, out));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 2 * texels[i]);
    assert_amp_ok(amp_texture_copy_to_host(t1, out, sizeof out));
    assert_memory_equal(out, texels, sizeof out);
    assert_amp_ok(amp_array_release(a1));
    assert_amp_ok(amp_texture_release(t0));
    assert_amp_ok(amp_texture_release(t1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(a_created_view_is_a_new_queue_of_its_accelerator, fresh),
        cmocka_unit_test_setup(bad_view_arguments_are_refused, fresh),
        cmocka_unit_test_setup(work_on_two_views_is_ordered_on_the_device, fresh),
        cmocka_unit_test_setup(a_host_view_moves_between_views_without_the_host, fresh),
        cmocka_unit_test_setup(a_texture_refilled_after_a_kernel_on_another_view_keeps_its_texels_for_it, fresh),
        cmocka_unit_test_setup(a_repeated_launch_with_another_texture_is_ordered_before_its_refill, fresh),
        cmocka_unit_test_setup(an_immediate_view_submits_each_kernel_and_an_automatic_one_does_not, fresh),
        cmocka_unit_test_setup(an_array_keeps_its_released_view, fresh),
        cmocka_unit_test_setup(a_texture_keeps_its_released_view, fresh),
        cmocka_unit_test_setup(a_marker_on_an_idle_queue_is_done_at_once, fresh),
        cmocka_unit_test_setup(a_marker_after_a_failed_command_says_the_view_was_removed, fresh),
        cmocka_unit_test_setup(a_queue_holds_a_bounded_number_of_launches, fresh),
        cmocka_unit_test_setup(the_split_cpu_is_two_accelerators, fresh),
        cmocka_unit_test_setup(an_array_on_one_accelerator_is_refused_on_the_other, fresh),
        cmocka_unit_test_setup(a_copy_across_accelerators_goes_through_the_host, fresh),
        cmocka_unit_test_setup(a_host_view_stays_coherent_across_accelerators, fresh),
        cmocka_unit_test_setup(textures_work_on_each_part_of_a_split_cpu, fresh),
        cmocka_unit_test_setup(a_texture_on_a_split_cpu_is_refilled_after_a_kernel_on_another_view, fresh),
        cmocka_unit_test_setup(a_texture_goes_to_the_other_accelerator_through_the_host, fresh),
    };
    return cmocka_run_group_tests(tests, NULL, fresh);
}
