/*
 * tests/reliability/poison_alloc.c - preloaded under a test
 * (LD_PRELOAD, through run_poisoned.sh), it fills every block that
 * posix_memalign() returns in the process with 0xAB bytes, and says at exit
 * how many it filled. PoCL allocates the
 * storage of buffers and images with posix_memalign(), usually on a heap
 * that held something else, which may even be the right answer: a result
 * that depends on device memory nobody wrote then reads 0xABABABAB and
 * differs from the test's model. Memcheck, which would find such a read,
 * loses track of what PoCL's sub-devices wrote (scripts/memory/valgrind.sh
 * says so); this stands in for it on that path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static unsigned long filled;

int posix_memalign(void **out, size_t alignment, size_t size)
{
    static int (*real)(void **, size_t, size_t);
    if (!real)
        real = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    int rc = real ? real(out, alignment, size) : 12 /* ENOMEM */;
    if (rc == 0 && size) {
        memset(*out, 0xAB, size);
        __atomic_add_fetch(&filled, 1, __ATOMIC_RELAXED);
    }
    return rc;
}

__attribute__((destructor)) static void say_filled(void)
{
    fprintf(stderr, "[poison] %lu blocks filled with 0xAB\n", filled);
}
