/*
 * tests/reliability/exit_queued.c - a process that ends with kernels still queued
 * ends cleanly.
 *
 *   exit_queued shutdown   queue kernels no view is read from, amp_shutdown()
 *   exit_queued return     queue them and return from main()
 *   exit_queued flush      queue them, flush the queue, return from main()
 *   exit_queued waited     launch, wait, launch again, return from main()
 *
 * PoCL builds a kernel for its launch on its own threads, after the launch
 * was queued; a process that exits while it does aborts ("Failed to create
 * kernel compiler pass", "LLVM ERROR: Do not know how to split the result
 * of this operator!") or crashes inside PoCL, because exit handlers have
 * torn down what its compiler uses. amp_shutdown() waits for every queue
 * before it releases anything; without that wait, three processes of four
 * failed. A process that ends without amp_shutdown() gets the same wait
 * from the library (device/queue.c), as the main thread ends, before any
 * exit handler. With exit handlers alone, every "return" process failed
 * (8 of 8).
 *
 * Each run starts ROUNDS child processes (this program, argv[0], with
 * "--child MODE"), each with the library's disk cache off and an empty
 * PoCL cache of its own (POCL_CACHE_DIR), so that every child builds its
 * kernels. The run fails when one child ends by a signal or with a status
 * other than 0.
 *
 * Under AddressSanitizer the children run without its leak check: PoCL
 * 3.1 loses blocks each time it builds a kernel it has not cached (the
 * rest of the suite finds its kernels in PoCL's cache, filled by the
 * builds before). The children's memory errors are still reported.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <amp/amp.h>

enum { ROUNDS = 4, N = 256, TILE = 64 };

/* The child: kernels whose results stay on the device, then the end. */
static int child(const char *mode)
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

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child(argv[2]);
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "shutdown") != 0 && strcmp(mode, "return") != 0 &&
        strcmp(mode, "flush") != 0 && strcmp(mode, "waited") != 0) {
        fprintf(stderr, "usage: exit_queued shutdown|return|flush|waited\n");
        return 2;
    }
    char caches[] = "/tmp/amp-exit-queued-XXXXXX";
    if (!mkdtemp(caches)) {
        perror("mkdtemp");
        return 1;
    }
    /* The parent never starts OpenCL, so that each child starts it afresh. */
    int failures = 0, broken = 0;
    for (int round = 0; round < ROUNDS && !broken; round++) {
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            broken = 1;
            break;
        }
        if (pid == 0) {
            char cache[sizeof caches + 16];
            snprintf(cache, sizeof cache, "%s/%d", caches, round);
            setenv("POCL_CACHE_DIR", cache, 1);
            setenv("AMP_CACHE", "0", 1);
            without_leak_check();
            execl(argv[0], argv[0], "--child", mode, (char *)NULL);
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
    printf("%s: %d of %d processes ended cleanly\n", mode, ROUNDS - failures, ROUNDS);
    return failures ? 1 : 0;
}
