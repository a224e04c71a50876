/*
 * tests/reliability/exit_queued.c - a process that ends with kernels queued, or
 * being built, ends cleanly, whichever thread ends it and however.
 *
 *   exit_queued shutdown   queue kernels no view is read from, amp_shutdown()
 *   exit_queued return     queue them and return from main()
 *   exit_queued flush      queue them, flush the queue, return from main()
 *   exit_queued waited     launch, wait, launch again, return from main()
 *
 * Other threads, and exit handlers:
 *
 *   exit_queued main_returns     main() returns while another thread builds
 *                                a kernel (main never launches): its first,
 *                                or a later one
 *   exit_queued other_exits      a third thread calls exit() while one
 *                                builds (the exiting thread never launches)
 *   exit_queued launcher_exits   a thread launches a kernel not built before
 *                                and calls exit() at once
 *   exit_queued thread_ends      a thread launches, waits for its view and
 *                                ends while a long kernel runs on main's
 *                                view: its end waits for nothing of main's
 *   exit_queued handler_unbuilt  an exit handler registered before the first
 *                                call launches a kernel never built: a
 *                                status (AMP_ERROR_INVALID_OPERATION naming
 *                                the exit), no crash
 *   exit_queued handler_built    the same handler launches a kernel that
 *                                ran before, at the same size: it runs
 *   exit_queued handler_listed   the handler's launch is the first, after
 *                                main() only listed the accelerators: a
 *                                status, no crash
 *
 * PoCL builds a kernel for its launch on its own threads, after the launch
 * was queued, and its compiler (LLVM, clang) registers exit handlers of its
 * own, some the first time it takes a path. A process that exits while it
 * builds aborts ("Failed to create kernel compiler pass", "LLVM ERROR: Do
 * not know how to split the result of this operator!") or crashes inside
 * PoCL, because exit handlers have torn down what its compiler uses; an
 * exit handler that builds after them crashes the same way. The library
 * waits for what is queued as a thread that launched ends, and as the main
 * thread ends, before any exit handler; its own exit handler, registered
 * after the compiler's, lets a build in progress finish, waits for the
 * queues, and refuses builds from then on (runtime/device/ending.h,
 * docs/accelerators.md). docs/reliability.md ("The edges of a process")
 * gives each mode's failures before and after.
 *
 * Each run starts ROUNDS child processes (this program, argv[0], with
 * "--child MODE ROUND"), each with the library's disk cache off and an
 * empty PoCL cache of its own (POCL_CACHE_DIR), so that every child builds
 * its kernels. The modes that end during a build wait a time that grows
 * with the round, so that the end falls at different moments of it.
 * AMP_EXIT_ROUNDS sets the count. The run fails when one child ends by a
 * signal or with a status other than 0.
 *
 * Under AddressSanitizer the children run without its leak check: PoCL
 * 3.1 loses blocks each time it builds a kernel it has not cached (the
 * rest of the suite finds its kernels in PoCL's cache, filled by the
 * builds before). The children's memory errors are still reported.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <amp/amp.h>

enum { ROUNDS = 4, N = 256, TILE = 64 };

static int round_number;

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- Kernels queued at the end ---- */

/* Kernels whose results stay on the device, then the end. */
static int child_queued(const char *mode)
{
    static float data[N];
    amp_array_view *view = NULL;
    amp_accelerator_view *av = NULL;
    amp_status st = amp_accelerator_get_default_view(NULL, &av);
    if (st == AMP_OK)
        st = amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), data, &view);
    /* Reads only: no copy back waits for these launches. */
    if (st == AMP_OK)
        st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(view, AMP_CONST(N)), {
            float sum = 0.0f;
            for (int k = 0; k < 16; k++)
                sum += view((idx[0] + k) % N) * (float)k;
            (void)sum;
        });
    /* "waited": the first launch has run when the second is queued. */
    if (st == AMP_OK && strcmp(mode, "waited") == 0)
        st = amp_accelerator_view_wait(av);
    amp_tiled_extent tiled = amp_extent_tile_1d(amp_extent_1d(N), TILE);
    if (st == AMP_OK)
        st = AMP_PARALLEL_FOR_EACH(tiled, t_idx, AMP_CAPTURE(view, AMP_CONST(TILE)), {
            tile_static float tile[TILE];
            tile[t_idx.local[0]] = view(t_idx.global[0]);
            t_idx.barrier.wait();
            float mine = tile[(t_idx.local[0] + 1) % TILE];
            (void)mine;
        });
    if (st != AMP_OK) {
        fprintf(stderr, "%s: %s\n", mode, amp_last_error());
        return 2;
    }
    if (strcmp(mode, "shutdown") == 0) {
        st = amp_shutdown();
        if (st != AMP_OK)
            fprintf(stderr, "%s: amp_shutdown: %s\n", mode, amp_last_error());
        return st == AMP_OK ? 0 : 3;
    }
    if (strcmp(mode, "flush") == 0) {
        st = amp_accelerator_view_flush(av);
        if (st != AMP_OK) {
            fprintf(stderr, "%s: %s\n", mode, amp_last_error());
            return 4;
        }
    }
    return 0; /* the view is never released: the exit is the end */
}

/* ---- Other threads ---- */

static float shared_data[N];
static amp_array_view *shared_view;
static pthread_mutex_t started_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t started_cond = PTHREAD_COND_INITIALIZER;
static int started;

static void say_started(void)
{
    pthread_mutex_lock(&started_mutex);
    started = 1;
    pthread_cond_broadcast(&started_cond);
    pthread_mutex_unlock(&started_mutex);
}

static void wait_started(void)
{
    pthread_mutex_lock(&started_mutex);
    while (!started)
        pthread_cond_wait(&started_cond, &started_mutex);
    pthread_mutex_unlock(&started_mutex);
}

/* Kernels not built before, one after the other, on the shared view: the
 * process may end while one is built, queued or run, so their statuses
 * are not judged. With after_first, the other threads are told once the
 * first has run (the end then falls in a later build). */
static void *build_some(void *after_first)
{
    if (!after_first)
        say_started();
    (void)AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(shared_view), {
        float x = shared_view(idx);
        for (int k = 0; k < 64; k++)
            x = x * 0.5f + (float)k;
        shared_view(idx) = x;
    });
    amp_accelerator_view *av = NULL;
    if (after_first) {
        if (amp_accelerator_get_default_view(NULL, &av) != AMP_OK ||
            amp_accelerator_view_wait(av) != AMP_OK) {
            fprintf(stderr, "the first kernel: %s\n", amp_last_error());
            _exit(2);
        }
        say_started();
    }
    (void)AMP_PARALLEL_FOR_EACH(amp_extent_2d(N / 16, 16), idx, AMP_CAPTURE(shared_view), {
        int i = idx[0] * 16 + idx[1];
        shared_view(i) = shared_view(i) > 1.0f ? sqrt(shared_view(i)) : 1.0f - shared_view(i);
    });
    amp_tiled_extent tiled = amp_extent_tile_1d(amp_extent_1d(N), TILE);
    (void)AMP_PARALLEL_FOR_EACH(tiled, t_idx, AMP_CAPTURE(shared_view, AMP_CONST(TILE)), {
        tile_static float tile[TILE];
        tile[t_idx.local[0]] = shared_view(t_idx.global[0]);
        t_idx.barrier.wait();
        shared_view(t_idx.global[0]) = tile[TILE - 1 - t_idx.local[0]];
    });
    (void)AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(shared_view), {
        float x = shared_view(idx);
        shared_view(idx) = x * x - 3.0f * x + 2.0f;
    });
    return NULL;
}

/* A kernel built, then exit() on this thread while PoCL builds it for its
 * launch. */
static void *build_and_exit(void *unused)
{
    (void)unused;
    amp_status st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(shared_view), {
        float x = shared_view(idx);
        for (int k = 0; k < 32; k++)
            x = x * 0.25f - (float)k;
        shared_view(idx) = x;
    });
    if (st != AMP_OK) {
        fprintf(stderr, "launcher_exits: %s\n", amp_last_error());
        exit(2);
    }
    exit(0);
}

/* exit() a while after the builder started: later in each round. */
static void *exit_soon(void *unused)
{
    (void)unused;
    wait_started();
    sleep_ms(round_number * 50L);
    exit(0);
}

/* An exit handler of the program's, registered before the library's first
 * call, so that it runs after every exit handler of the library and of
 * PoCL's compiler: the program's own work at exit (closing files, say),
 * during which the other threads go on. */
static void linger_at_exit(void)
{
    sleep_ms(300);
}

static int make_shared_view(void)
{
    atexit(linger_at_exit);
    amp_status st = amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), shared_data, &shared_view);
    if (st != AMP_OK)
        fprintf(stderr, "a view: %s\n", amp_last_error());
    return st == AMP_OK;
}

/* main() returns while another thread builds: the wait as the main thread
 * ends, which main never asked for by launching. In even rounds the end
 * falls in the builder's first build (PoCL's first context and build under
 * way), in odd ones in a later build, once its first kernel has run. */
static int child_main_returns(void)
{
    static int after_first = 1;
    pthread_t builder;
    if (!make_shared_view() ||
        pthread_create(&builder, NULL, build_some, round_number % 2 ? &after_first : NULL) != 0)
        return 2;
    wait_started();
    sleep_ms(round_number * 50L);
    return 0;
}

/* exit() on a thread that never launched, while another builds. */
static int child_other_exits(void)
{
    static int after_first = 1;
    pthread_t builder, ender;
    if (!make_shared_view() || pthread_create(&builder, NULL, build_some, &after_first) != 0 ||
        pthread_create(&ender, NULL, exit_soon, NULL) != 0)
        return 2;
    pthread_join(ender, NULL); /* never returns: the process ends first */
    return 3;
}

/* exit() on the thread that launched, right after the launch. */
static int child_launcher_exits(void)
{
    pthread_t launcher;
    if (!make_shared_view() || pthread_create(&launcher, NULL, build_and_exit, NULL) != 0)
        return 2;
    pthread_join(launcher, NULL); /* never returns */
    return 3;
}

/* ---- A thread that ends while main goes on ---- */

static amp_accelerator_view *worker_view;
static float worker_data[N];
static int worker_failed;
/* main's long kernel, and whether it had ended when the thread's own wait
 * returned and when its function returned: a driver that finishes one
 * queue's work only after another's made the thread's own calls wait for
 * it before its end began. NVIDIA's may, for the thread's kernel or for its
 * view's download at the release; a CPU device must not, so there only the
 * wait excuses. */
static amp_completion *main_kernel;
static int main_done_at_wait = 0, main_done_at_return = 0;

/* One call site: main() builds it, the thread runs it. */
static amp_status fill(amp_array_view *v)
{
    return AMP_PARALLEL_FOR_EACH_ON(worker_view, amp_extent_1d(N), idx, AMP_CAPTURE(v),
                                    { v(idx) = (float)idx[0]; });
}

/* Launch on a view of its own, wait for it, and end: the work left queued
 * is main's, on main's view. */
static void *launch_and_end(void *unused)
{
    (void)unused;
    amp_array_view *v = NULL;
    amp_status st = amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), worker_data, &v);
    if (st == AMP_OK)
        st = fill(v);
    if (st == AMP_OK)
        st = amp_accelerator_view_wait(worker_view);
    if (st == AMP_OK)
        st = amp_completion_is_done(main_kernel, &main_done_at_wait);
    if (st == AMP_OK)
        st = amp_array_view_release(v);
    if (st == AMP_OK)
        st = amp_completion_is_done(main_kernel, &main_done_at_return);
    if (st != AMP_OK) {
        fprintf(stderr, "thread_ends: the thread's launch: %s\n", amp_last_error());
        worker_failed = 1;
    }
    return NULL;
}

/* A long kernel on main's view, then a thread that launches on another
 * view and ends: joining it must not wait for main's kernel. */
static int child_thread_ends(void)
{
    static float data[N];
    amp_accelerator_view *mine = NULL;
    amp_array_view *v = NULL;
    amp_completion *done = NULL;
    amp_status st = amp_accelerator_create_view(NULL, AMP_QUEUING_IMMEDIATE, &mine);
    if (st == AMP_OK)
        st = amp_accelerator_create_view(NULL, AMP_QUEUING_IMMEDIATE, &worker_view);
    if (st == AMP_OK)
        st = amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), data, &v);
    /* Both kernels built and run once, so that what follows only runs
     * them: main's for seconds, the thread's for a moment. */
    if (st == AMP_OK)
        st = fill(v);
    for (int pass = 0; pass < 2 && st == AMP_OK; pass++) {
        int steps = pass == 0 ? 1 : 400 * 1000 * 1000;
        st = AMP_PARALLEL_FOR_EACH_ON(mine, amp_extent_1d(2), idx, AMP_CAPTURE(v, steps), {
            float x = v(idx);
            for (int k = 0; k < steps; k++)
                x = x * 0.999f + 1.0f;
            v(idx) = x;
        });
        if (st == AMP_OK && pass == 0)
            st = amp_accelerator_view_wait(mine);
    }
    if (st == AMP_OK)
        st = amp_accelerator_view_create_marker(mine, &done);
    main_kernel = done;
    if (st != AMP_OK) {
        fprintf(stderr, "thread_ends: %s\n", amp_last_error());
        return 2;
    }
    double t0 = now_ms();
    pthread_t worker;
    if (pthread_create(&worker, NULL, launch_and_end, NULL) != 0)
        return 2;
    pthread_join(worker, NULL);
    double joined = now_ms() - t0;
    int done_at_join = 1;
    st = amp_completion_is_done(done, &done_at_join);
    if (st == AMP_OK)
        st = amp_completion_wait(done);
    double main_done = now_ms() - t0;
    printf("thread_ends: the thread ended after %.0f ms; main's kernel after %.0f ms\n", joined,
           main_done);
    if (worker_failed || st != AMP_OK)
        return 2;
    amp_accelerator_info info;
    int emulated = amp_accelerator_get_info(amp_accelerator_view_get_accelerator(worker_view),
                                            &info) != AMP_OK ||
                   info.is_emulated;
    if (done_at_join && (main_done_at_wait || (main_done_at_return && !emulated))) {
        /* The driver finished the thread's own work (its kernel, or on a
         * GPU its view's download) only after main's kernel, on another
         * queue: the thread's calls took the time, and its end cannot be
         * told apart from them. */
        printf("thread_ends: the driver ended the thread's own work only after main's kernel"
               " (%.0f ms); nothing to tell of the thread's end here\n",
               joined);
    } else if (done_at_join) {
        fprintf(stderr,
                "thread_ends: the thread ended after %.0f ms, when main's kernel had ended"
                " (%.0f ms): its end waited for main's queue\n",
                joined, main_done);
        return 5;
    }
    amp_completion_release(done);
    amp_array_view_release(v);
    amp_accelerator_view_release(worker_view);
    amp_accelerator_view_release(mine);
    return 0;
}

/* ---- Exit handlers that launch ---- */

static float handler_data[N];
static amp_array_view *handler_view;
static int handler_expects_run; /* else a refusal */
static int handler_ok;

/* One call site, launched by main() and again by the exit handler. */
static amp_status double_plus_one(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(handler_view),
                                 { handler_view(idx) = handler_view(idx) * 2.0f + 1.0f; });
}

static void launch_at_exit(void)
{
    amp_status st;
    if (handler_expects_run) {
        st = double_plus_one();
        if (st == AMP_OK)
            st = amp_array_view_synchronize(handler_view);
        if (st != AMP_OK) {
            fprintf(stderr, "the exit handler's launch of a built kernel: %s\n", amp_last_error());
            return;
        }
        /* main() ran it once: 2 (2i + 1) + 1. */
        for (int i = 0; i < N; i++)
            if (handler_data[i] != 4.0f * (float)i + 3.0f) {
                fprintf(stderr, "the exit handler's kernel: element %d is %g, not %d\n", i,
                        (double)handler_data[i], 4 * i + 3);
                return;
            }
        handler_ok = 1;
        return;
    }
    st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(handler_view),
                               { handler_view(idx) = handler_view(idx) - 7.0f; });
    if (st != AMP_ERROR_INVALID_OPERATION || !strstr(amp_last_error(), "exit")) {
        fprintf(stderr,
                "the exit handler's launch of a kernel never built returned %s (%s), not"
                " AMP_ERROR_INVALID_OPERATION naming the exit\n",
                amp_status_name(st), amp_last_error());
        return;
    }
    handler_ok = 1;
}

/* Registered first, so that it runs last: the status says whether the
 * handler above ran and saw what it should. */
static void judge_at_exit(void)
{
    if (!handler_ok)
        _exit(6);
}

static int child_handler(const char *mode)
{
    atexit(judge_at_exit);
    atexit(launch_at_exit);
    for (int i = 0; i < N; i++)
        handler_data[i] = (float)i;
    amp_status st =
        amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), handler_data, &handler_view);
    if (st == AMP_OK && strcmp(mode, "handler_listed") == 0) {
        size_t count = 0;
        st = amp_accelerator_count(&count);
    } else if (st == AMP_OK) {
        /* The handler's kernel ran once, at the size it will run at. */
        handler_expects_run = strcmp(mode, "handler_built") == 0;
        st = double_plus_one();
        if (st == AMP_OK)
            st = amp_array_view_synchronize(handler_view);
    }
    if (st != AMP_OK) {
        fprintf(stderr, "%s: %s\n", mode, amp_last_error());
        _exit(2);
    }
    return 0;
}

/* ---- The parent ---- */

static const char *const modes[] = {
    "shutdown",    "return",          "flush",         "waited",         "main_returns",
    "other_exits", "launcher_exits",  "thread_ends",   "handler_unbuilt", "handler_built",
    "handler_listed",
};

static int child(const char *mode)
{
    if (strcmp(mode, "main_returns") == 0)
        return child_main_returns();
    if (strcmp(mode, "other_exits") == 0)
        return child_other_exits();
    if (strcmp(mode, "launcher_exits") == 0)
        return child_launcher_exits();
    if (strcmp(mode, "thread_ends") == 0)
        return child_thread_ends();
    if (strncmp(mode, "handler_", 8) == 0)
        return child_handler(mode);
    return child_queued(mode);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

#if defined(__SANITIZE_ADDRESS__)
#define AMP_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AMP_TEST_ASAN 1
#endif
#endif

/* In a sanitized build, add detect_leaks=0 to the options a child starts
 * with (the header says why). */
static void without_leak_check(void)
{
#ifdef AMP_TEST_ASAN
    const char *options = getenv("ASAN_OPTIONS");
    char both[1024];
    snprintf(both, sizeof both, "%s%sdetect_leaks=0", options ? options : "",
             options && options[0] ? ":" : "");
    setenv("ASAN_OPTIONS", both, 1);
#endif
}

static int known_mode(const char *mode)
{
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(mode, modes[i]) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--child") == 0) {
        round_number = atoi(argv[3]);
        return child(argv[2]);
    }
    const char *mode = argc > 1 ? argv[1] : "";
    if (!known_mode(mode)) {
        fprintf(stderr, "usage: exit_queued MODE, one of:");
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
            fprintf(stderr, " %s", modes[i]);
        fprintf(stderr, "\n");
        return 2;
    }
    const char *rounds_env = getenv("AMP_EXIT_ROUNDS");
    int rounds = rounds_env && atoi(rounds_env) > 0 ? atoi(rounds_env) : ROUNDS;
    char caches[] = "/tmp/amp-exit-queued-XXXXXX";
    if (!mkdtemp(caches)) {
        perror("mkdtemp");
        return 1;
    }
    /* The parent never starts OpenCL, so that each child starts it afresh. */
    int failures = 0, broken = 0;
    for (int round = 0; round < rounds && !broken; round++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            broken = 1;
            break;
        }
        if (pid == 0) {
            char cache[sizeof caches + 16], number[16];
            snprintf(cache, sizeof cache, "%s/%d", caches, round);
            snprintf(number, sizeof number, "%d", round % 16);
            setenv("POCL_CACHE_DIR", cache, 1);
            setenv("AMP_CACHE", "0", 1);
            without_leak_check();
            execl(argv[0], argv[0], "--child", mode, number, (char *)NULL);
            perror("execl");
            _exit(127);
        }
        int status = 0;
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            broken = 1;
            break;
        }
        if (WIFSIGNALED(status)) {
            printf("%s, round %d: the process ended by signal %d\n", mode, round + 1,
                   WTERMSIG(status));
            failures++;
        } else if (WEXITSTATUS(status) != 0) {
            printf("%s, round %d: the process exited with %d\n", mode, round + 1,
                   WEXITSTATUS(status));
            failures++;
        }
    }
    if (nftw(caches, remove_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
        perror(caches);
    if (broken)
        return 1;
    printf("%s: %d of %d processes ended cleanly\n", mode, rounds - failures, rounds);
    return failures ? 1 : 0;
}
