/*
 * runtime/device/ending.c - the end of a process: the waits as a thread
 * ends and from the library's exit handler, and the refusal to build once
 * the process has begun to exit (ending.h says why each is where it is).
 */
#define _DEFAULT_SOURCE /* syscall() */
#include "device/ending.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/error.h"
#include "core/limits.h"
#include "core/lock.h"
#include "core/timeline.h"
#include "device/devtime.h"
#include "device/oclcheck.h"

/* glibc's registration of a thread-local destructor, as C++ runtimes use it
 * for thread_local objects (declared weak: where it is missing, not glibc,
 * no thread waits as it ends). */
extern int __cxa_thread_atexit_impl(void (*dtor)(void *), void *obj, void *dso)
    __attribute__((weak));
extern void *__dso_handle;

/* The library's exit handler has run: nothing new is built. Set without
 * the lock when the handler cannot wait (at_exit). */
static atomic_int begun;
/* Firsts under way: a first listing, context or build (amp__end_begin),
 * or a platform's first kernels queued and not yet seen run. The exit
 * handler does not wait while there are any. Read without the lock. */
static atomic_int firsts;
/* This process is a child of fork(): the parent's OpenCL is not here, and
 * nothing waits for it. */
static int forked;

/* A queue alive, which the end of the process waits for. */
typedef struct end_queue {
    cl_command_queue queue;
    cl_platform_id platform;
} end_queue;

static end_queue *queues;
static size_t nqueues, queues_room;

/* What happened on which platform, the first time (after which the exit
 * handler was registered again), and the platforms whose first kernels
 * were queued and not yet seen run. */
typedef struct end_seen {
    end_event what;
    cl_platform_id platform;
} end_seen;

static end_seen seen_list[LIMIT_END_FIRSTS];
static size_t nseen;
static cl_platform_id unrun[LIMIT_END_FIRSTS];
static size_t nunrun;

/* This thread's launches: whether its end waits (a destructor registered
 * at its first launch), and the queues it launched on (malloc'ed; when
 * they could not be kept, all). */
typedef struct thread_launches {
    int registered;
    int waited;
    int all;
    cl_command_queue last;
    cl_command_queue *queues;
    size_t n, room;
} thread_launches;

static _Thread_local thread_launches mine;

/* A marker put at the end, and the platform of its queue. */
typedef struct end_marker {
    cl_event event;
    cl_platform_id platform;
} end_marker;

static void forget_in_child(void)
{
    forked = 1;
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, forget_in_child);
}

static int is_main_thread(void)
{
    return syscall(SYS_gettid) == getpid();
}

/* Nothing waits under AMP_CHECK (ending.h says why), nor in a child of
 * fork(). */
static int may_wait(void)
{
    return !forked && !amp__ock_installed();
}

static int launched_on(const thread_launches *t, cl_command_queue q)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->queues[i] == q)
            return 1;
    return 0;
}

/* A marker, flushed, on each live queue that thread t launched on (every
 * live queue for NULL), into *markers (malloc'ed); how many. Under the
 * lock, so that no queue is released meanwhile; they are waited for
 * without it. */
static size_t put_markers(const thread_launches *t, end_marker **markers)
{
    *markers = nqueues ? calloc(nqueues, sizeof **markers) : NULL;
    size_t n = 0;
    for (size_t i = 0; i < nqueues && *markers; i++) {
        if (t && !t->all && !launched_on(t, queues[i].queue))
            continue;
        cl_event ev = NULL;
        if (amp__clapi.EnqueueMarkerWithWaitList(queues[i].queue, 0, NULL, &ev) == CL_SUCCESS &&
            amp__clapi.Flush(queues[i].queue) == CL_SUCCESS)
            (*markers)[n++] = (end_marker){ev, queues[i].platform};
        else if (ev)
            amp__clapi.ReleaseEvent(ev);
    }
    return n;
}

/* Wait for the markers and release them; a failure (a lost device) ends
 * the wait for that queue, which is all a wait at the end can do. How many
 * were reached. */
static size_t wait_markers(end_marker *markers, size_t n)
{
    size_t reached = 0;
    for (size_t i = 0; i < n; i++) {
        reached += amp__clapi.WaitForEvents(1, &markers[i].event) == CL_SUCCESS;
        amp__clapi.ReleaseEvent(markers[i].event);
    }
    return reached;
}

/* Whether what happened on platform before; past the table's room,
 * everything has. */
static int seen(end_event what, cl_platform_id platform)
{
    for (size_t i = 0; i < nseen; i++)
        if (seen_list[i].what == what && seen_list[i].platform == platform)
            return 1;
    return nseen == LIMIT_END_FIRSTS;
}

static void note_seen(end_event what, cl_platform_id platform)
{
    if (nseen < LIMIT_END_FIRSTS)
        seen_list[nseen++] = (end_seen){what, platform};
}

/* The library's exit handler: the process has begun to exit. A build on
 * another thread finishes first (the lock), then nothing new is built, and
 * what is queued is waited for. Registered many times, it does its work
 * once. */
static void at_exit(void)
{
    if (amp__lock_held() || atomic_load(&begun))
        return;
    /* A first is under way, and the compiler's handlers that it registered
     * have run before this one: waiting for it would let it go on without
     * them. */
    if (atomic_load(&firsts) > 0) {
        atomic_store(&begun, 1);
        return;
    }
    amp__lock_acquire();
    end_marker *markers = NULL;
    size_t n = 0;
    if (!atomic_exchange(&begun, 1) && may_wait())
        n = put_markers(NULL, &markers);
    amp__lock_release();
    (void)wait_markers(markers, n);
    free(markers);
}

void amp__end_ran(cl_platform_id platform)
{
    LOCK_ASSERT_HELD();
    if (seen(END_RAN, platform))
        return;
    note_seen(END_RAN, platform);
    for (size_t i = 0; i < nunrun; i++)
        if (unrun[i] == platform) {
            unrun[i] = unrun[--nunrun];
            atomic_fetch_sub(&firsts, 1);
            break;
        }
    (void)atexit(at_exit);
}

/* The timeline, with every kernel's device times, as the main thread ends,
 * unless amp_shutdown wrote all of it (core/timeline.c writes again at exit
 * only what comes after). */
static void write_timeline(void)
{
    amp__lock_acquire();
    if (amp__tl_has_file()) {
        amp__dtime_collect(1);
        if (amp__tl_write_changes() != AMP_OK)
            amp__tl_say_write_error();
    }
    amp__lock_release();
}

/* As a thread that launched ends (returning from its function, or calling
 * exit(); the main thread also returning from main()): wait for what it
 * launched, and the main thread for every queue. The lock is taken first,
 * so that a build on another thread finishes; the markers are waited for
 * without it, so that other threads go on meanwhile. Runs before any exit
 * handler: once the kernels ran, the exit handler is registered after
 * what their code generation registered. */
static void thread_ends(void *unused)
{
    (void)unused;
    /* The thread ends inside the library, with the lock held (exit() from
     * an error callback): taking the lock would never end. */
    if (mine.waited || amp__lock_held())
        return;
    mine.waited = 1;
    end_marker *markers = NULL;
    size_t n = 0;
    amp__lock_acquire();
    if (may_wait())
        n = put_markers(is_main_thread() ? NULL : &mine, &markers);
    amp__lock_release();
    if (wait_markers(markers, n) > 0) {
        amp__lock_acquire();
        for (size_t i = 0; i < n; i++)
            amp__end_ran(markers[i].platform);
        amp__lock_release();
    }
    free(markers);
    if (is_main_thread())
        write_timeline();
    free(mine.queues);
    mine.queues = NULL;
    mine.n = mine.room = 0;
}

/* The main thread waits as it ends whether or not it launched: main() may
 * return while another thread builds. Registered as the library is loaded;
 * its first launch registers the wait again, after the OpenCL
 * implementation's thread-local objects of this thread were made, so that
 * that one runs first. */
__attribute__((constructor)) static void main_thread_waits(void)
{
    if (__cxa_thread_atexit_impl && is_main_thread())
        (void)__cxa_thread_atexit_impl(thread_ends, NULL, &__dso_handle);
}

int amp__end_begin(end_event what, cl_platform_id platform)
{
    LOCK_ASSERT_HELD();
    if (seen(what, platform))
        return 0;
    atomic_fetch_add(&firsts, 1);
    return 1;
}

void amp__end_done(end_event what, cl_platform_id platform, int first)
{
    LOCK_ASSERT_HELD();
    static pthread_once_t fork_watched = PTHREAD_ONCE_INIT;
    pthread_once(&fork_watched, watch_fork);
    if (first) {
        note_seen(what, platform);
        atomic_fetch_sub(&firsts, 1);
    }
    /* A build may take a path of the compiler that no build took before;
     * the others register what they register the first time. */
    if (first || what == END_BUILT)
        (void)atexit(at_exit);
}

int amp__end_begun(void)
{
    LOCK_ASSERT_HELD();
    return atomic_load(&begun);
}

amp_status amp__end_refused(const char *what, const char *why)
{
    return amp__err_set(AMP_ERROR_INVALID_OPERATION,
                        "%s, and the process has begun to exit (exit() was called, or main()"
                        " returned, and the library's exit handler has run): %s. Do this before"
                        " the exit begins, or in an exit handler registered after the library's"
                        " first launch, which runs before the OpenCL compiler's own.",
                        what, why);
}

amp_status amp__end_queue_made(cl_command_queue queue, cl_platform_id platform)
{
    LOCK_ASSERT_HELD();
    if (nqueues == queues_room) {
        size_t more = queues_room ? 2 * queues_room : 8;
        end_queue *grown = realloc(queues, more * sizeof *grown);
        if (!grown)
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a queue.");
        queues = grown;
        queues_room = more;
    }
    queues[nqueues++] = (end_queue){queue, platform};
    return AMP_OK;
}

void amp__end_queue_freed(cl_command_queue queue)
{
    LOCK_ASSERT_HELD();
    for (size_t i = 0; i < nqueues; i++)
        if (queues[i].queue == queue) {
            queues[i] = queues[--nqueues];
            break;
        }
    if (nqueues == 0) {
        free(queues);
        queues = NULL;
        queues_room = 0;
    }
}

void amp__end_launching(cl_command_queue queue, cl_platform_id platform)
{
    LOCK_ASSERT_HELD();
    if (mine.last == queue)
        return;
    mine.last = queue;
    if (!mine.registered) {
        mine.registered = 1;
        if (__cxa_thread_atexit_impl)
            (void)__cxa_thread_atexit_impl(thread_ends, NULL, &__dso_handle);
    }
    if (!mine.all && !launched_on(&mine, queue)) {
        if (mine.n == mine.room) {
            size_t more = mine.room ? 2 * mine.room : 8;
            cl_command_queue *grown = realloc(mine.queues, more * sizeof *grown);
            if (grown) {
                mine.queues = grown;
                mine.room = more;
            }
        }
        if (mine.n < mine.room)
            mine.queues[mine.n++] = queue;
        else
            mine.all = 1;
    }
    /* The platform's first kernels: their code is generated as they run,
     * a first under way until a wait sees them run (amp__end_ran). */
    if (!seen(END_RAN, platform)) {
        for (size_t i = 0; i < nunrun; i++)
            if (unrun[i] == platform)
                return;
        if (nunrun < LIMIT_END_FIRSTS) {
            unrun[nunrun++] = platform;
            atomic_fetch_add(&firsts, 1);
        }
    }
}
