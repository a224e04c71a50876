/*
 * tests/fork_child.c - fork() and the library. OpenCL implementations do
 * not survive fork(): a child of a process that had started OpenCL gets a
 * status that says so from every call that needs the device, never a hang;
 * a child forked before the library's first call uses it as any process.
 *
 *   fork_child after_use    the parent launched before fork()
 *   fork_child before_use   fork() before the library's first call
 *
 * Each child runs under an alarm (a hang fails the test), and reports
 * through its exit status; the parent goes on using the library after the
 * fork either way.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <amp/amp.h>

/* RUNNING_ON_VALGRIND: nonzero under valgrind, 0 where its header is not
 * installed. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif
/* Built with AddressSanitizer, whose leak check runs at exit. */
#if defined(__SANITIZE_ADDRESS__)
#define LEAK_CHECK_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LEAK_CHECK_AT_EXIT 1
#endif
#endif
#ifndef LEAK_CHECK_AT_EXIT
#define LEAK_CHECK_AT_EXIT 0
#endif

enum { N = 1024 };

static int failed(const char *what, amp_status st)
{
    fprintf(stderr, "%s: %s: %s\n", what, amp_status_name(st), amp_last_error());
    return 1;
}

/* Double every element on the device; 0 when the host sees the result. */
static int launch_once(int *data, const char *who)
{
    for (int i = 0; i < N; i++)
        data[i] = i;
    amp_array_view *v;
    amp_status st = amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v);
    if (st != AMP_OK)
        return failed(who, st);
    st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v), { v(idx) *= 2; });
    if (st == AMP_OK)
        st = amp_array_view_synchronize(v);
    amp_array_view_release(v);
    if (st != AMP_OK)
        return failed(who, st);
    for (int i = 0; i < N; i++)
        if (data[i] != 2 * i) {
            fprintf(stderr, "%s: element %d is %d, not %d\n", who, i, data[i], 2 * i);
            return 1;
        }
    return 0;
}

/* In the child of a process that had started OpenCL: a launch and a wait
 * are refused, naming fork(); host-side calls still answer. */
static int child_after_use(void)
{
    static int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    amp_array_view *v;
    amp_status st = amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v);
    if (st != AMP_OK)
        return failed("child: a view over host memory", st);
    st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v), { v(idx) += 1; });
    if (st != AMP_ERROR_INVALID_OPERATION || !strstr(amp_last_error(), "fork()")) {
        fprintf(stderr, "child: a launch returned %s (%s), not AMP_ERROR_INVALID_OPERATION"
                        " naming fork()\n",
                amp_status_name(st), amp_last_error());
        return 1;
    }
    st = amp_accelerator_view_wait(NULL);
    if (st == AMP_OK) {
        fprintf(stderr, "child: a wait on the default view returned AMP_OK\n");
        return 1;
    }
    /* Nothing was queued: the host data is as it was. */
    st = amp_array_view_synchronize(v);
    for (int i = 0; i < N; i++)
        if (data[i] != i) {
            fprintf(stderr, "child: element %d is %d after a refused launch\n", i, data[i]);
            return 1;
        }
    amp_array_view_release(v);
    (void)st;
    return 0;
}

static int run_child(int (*body)(void))
{
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        /* A hang fails the test (valgrind runs the child 50 times slower). */
        alarm(RUNNING_ON_VALGRIND ? 900 : 30);
        int rc = body();
        /* Under valgrind or LeakSanitizer the child ends by exec, which
         * neither checks: at an exit they would count as leaked the
         * parent's OpenCL objects in flight at the fork (and what PoCL
         * loses as it builds a kernel), which only the parent's threads
         * point at. */
        if (RUNNING_ON_VALGRIND || LEAK_CHECK_AT_EXIT)
            execl("/bin/sh", "sh", "-c", rc ? "exit 1" : "exit 0", (char *)NULL);
        exit(rc);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) {
        perror("waitpid");
        return 1;
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "the child was killed by signal %d%s\n", WTERMSIG(status),
                WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
        return 1;
    }
    return WEXITSTATUS(status);
}

static int child_before_use(void)
{
    static int data[N];
    return launch_once(data, "child forked before the first call");
}

int main(int argc, char **argv)
{
    static int data[N];
    const char *mode = argc > 1 ? argv[1] : "after_use";
    int bad = 0;
    if (strcmp(mode, "after_use") == 0) {
        bad |= launch_once(data, "parent before fork");
        /* The parent's work has finished: what OpenCL frees as its commands
         * end is freed before the child copies the memory (valgrind checks
         * the child's leaks too). */
        amp_accelerator *acc;
        amp_accelerator_view *av;
        if (amp_accelerator_get_default(&acc) == AMP_OK &&
            amp_accelerator_get_default_view(acc, &av) == AMP_OK)
            amp_accelerator_view_wait(av);
        bad |= run_child(child_after_use);
    } else if (strcmp(mode, "before_use") == 0) {
        bad |= run_child(child_before_use);
    } else {
        fprintf(stderr, "usage: fork_child after_use|before_use\n");
        return 2;
    }
    bad |= launch_once(data, "parent after fork");
    amp_shutdown();
    printf("%s: %s\n", mode, bad ? "FAILED" : "ok");
    return bad;
}
