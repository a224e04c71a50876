/*
 * runtime/runtime.c - the process-wide lock, environment settings, version
 * and shutdown.
 */
#include "runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "accel.h"
#include "amp/amp.h"
#include "checkrun.h"
#include "coherence.h"
#include "diskcache.h"
#include "error.h"
#include "kcache.h"
#include "texture.h"
#include "profile.h"

static pthread_mutex_t rt_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Whether this thread holds the lock: a failure inside waits for the
 * unlock to reach the error callback, which may call the library. */
static _Thread_local int rt_held;

void rt_lock(void)
{
    pthread_mutex_lock(&rt_mutex);
    rt_held = 1;
}

void rt_unlock(void)
{
    rt_held = 0;
    pthread_mutex_unlock(&rt_mutex);
    err_report_pending();
}

int rt_holds_lock(void)
{
    return rt_held;
}

/* At exit: every queue waited for, its events read, the table printed. */
static void print_profile(void)
{
    rt_lock();
    (void)acc_finish_all();
    prof_print(stderr);
    prof_free();
    rt_unlock();
}

void rt_profile_at_exit(void)
{
    static int registered;
    if (!registered && atexit(print_profile) == 0)
        registered = 1;
}

/* The environment is read once, the first time a setting is asked for, so
 * that the hot path does no getenv(). */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static int trace_transfers;
static int trace_kernels;
static const char *dump_dir;

static int list_has(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n) {
        int starts = p == list || p[-1] == ',' || p[-1] == ' ';
        int ends = p[n] == '\0' || p[n] == ',' || p[n] == ' ';
        if (starts && ends)
            return 1;
    }
    return 0;
}

static void read_env(void)
{
    const char *trace = getenv("AMP_TRACE");
    if (trace) {
        int all = list_has(trace, "all") || strcmp(trace, "1") == 0;
        trace_transfers = all || list_has(trace, "transfers");
        trace_kernels = all || list_has(trace, "kernels");
    }
    const char *dump = getenv("AMP_DUMP_KERNELS");
    dump_dir = dump && dump[0] ? dump : NULL;
}

int rt_trace_transfers(void)
{
    pthread_once(&env_once, read_env);
    return trace_transfers;
}

int rt_trace_kernels(void)
{
    pthread_once(&env_once, read_env);
    return trace_kernels;
}

const char *rt_dump_dir(void)
{
    pthread_once(&env_once, read_env);
    return dump_dir;
}

const char *amp_version(void)
{
    return AMP_VERSION_STRING;
}

void amp_shutdown(void)
{
    rt_lock();
    /* Reverse order of the data flow: data first (it may need a queue to
     * copy back), then kernels, then the devices they were built for. */
    coh_drop_all_device_copies();
    tex_drop_all_device_memory();
    kc_clear();
    chk_shutdown();
    dc_reset();
    acc_shutdown();
    rt_unlock();
}
