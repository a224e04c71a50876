/*
 * runtime/device/profile.c - AMP_PROFILE: figures per kernel, from the
 * events of its launches, read lazily; the table printed at exit;
 * amp_profile_get_entries.
 */
#include "device/profile.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "core/env.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/lock.h"
#include "core/testing.h"

struct prof_kernel {
    char *name; /* the hash key */
    char *file;
    int line;
    uint64_t calls;
    uint64_t timed; /* launches whose events were read */
    uint64_t device_ns;
    uint64_t to_device, to_host;
    UT_hash_handle hh;
};

/* A launch whose event is not read yet. */
typedef struct prof_item {
    prof_kernel *kernel;
    cl_event event;
    unsigned generation; /* amp_profile_reset_entries() drops launches of earlier ones */
} prof_item;

int amp__prof_enabled;
static int ever_enabled;
static prof_kernel *kernels; /* by name, in first-launch order */
static unsigned generation;
/* Launches not read yet, of every queue. */
static prof_item *pending;
static size_t pending_count, pending_capacity;

/* At exit: every launch read, the table printed. */
static void print_at_exit(void)
{
    amp__lock_acquire();
    amp__prof_collect_all();
    amp__prof_print(stderr);
    amp__prof_free();
    amp__lock_release();
}

/* Whether amp__prof_configure() decided since the devices were last
 * listed. */
static int configured;

void amp__prof_configure(void)
{
    LOCK_ASSERT_HELD();
    configured = 1;
    amp__prof_enabled = amp__env_profile();
    if (amp__prof_enabled && !ever_enabled && atexit(print_at_exit) == 0)
        ever_enabled = 1;
}

cl_command_queue_properties amp__prof_queue_properties(void)
{
    return amp__prof_enabled ? CL_QUEUE_PROFILING_ENABLE : 0;
}

static prof_kernel *kernel_entry(const char *name, const amp_kernel_source *src)
{
    prof_kernel *k = NULL;
    HASH_FIND_STR(kernels, name, k);
    if (k)
        return k;
    k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->name = strdup(name);
    /* A kernel file's name is freed with its source: keep a copy. */
    k->file = strdup(src->file);
    k->line = src->line;
    if (!k->name || !k->file) {
        free(k->name);
        free(k->file);
        free(k);
        return NULL;
    }
    HASH_ADD_KEYPTR(hh, kernels, k->name, strlen(k->name), k);
    return k;
}

/* Add a completed launch's device time; release its event. */
static void read_event(prof_item *it)
{
    cl_ulong start = 0, end = 0;
    cl_int status = CL_COMPLETE;
    amp__clapi.GetEventInfo(it->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                            NULL);
    /* A launch that failed ran for no time that means anything. */
    if (it->generation == generation && status == CL_COMPLETE &&
        amp__clapi.GetEventProfilingInfo(it->event, CL_PROFILING_COMMAND_START, sizeof start,
                                         &start, NULL) == CL_SUCCESS &&
        amp__clapi.GetEventProfilingInfo(it->event, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                         NULL) == CL_SUCCESS &&
        end >= start) {
        it->kernel->device_ns += end - start;
        it->kernel->timed++;
    }
    amp__clapi.ReleaseEvent(it->event);
}

static int event_done(cl_event ev)
{
    cl_int status = CL_QUEUED;
    if (amp__clapi.GetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                NULL) != CL_SUCCESS)
        return 1; /* nothing more will be learned from it */
    return status <= CL_COMPLETE;
}

/* Read the launches that are done, or all of them after waiting for each
 * (a wait that fails leaves an event that read_event counts as failed). */
static void collect(int wait)
{
    size_t kept = 0;
    for (size_t i = 0; i < pending_count; i++) {
        prof_item *it = &pending[i];
        if (wait)
            (void)amp__clapi.WaitForEvents(1, &it->event);
        if (wait || event_done(it->event))
            read_event(it);
        else
            pending[kept++] = *it;
    }
    pending_count = kept;
}

void amp__prof_collect(void)
{
    LOCK_ASSERT_HELD();
    collect(0);
}

void amp__prof_collect_all(void)
{
    LOCK_ASSERT_HELD();
    collect(1);
}

void amp__prof_unconfigure(void)
{
    LOCK_ASSERT_HELD();
    configured = 0;
    amp__prof_enabled = 0;
}

size_t amp__test_profile_pending(void)
{
    /* For tests, between calls: a plain read, without the lock. */
    return pending_count;
}

void amp__prof_launched(const char *kernel, const amp_kernel_source *src, cl_event ev,
                        uint64_t to_device, uint64_t to_host)
{
    LOCK_ASSERT_HELD();
    prof_kernel *k = kernel_entry(kernel, src);
    if (k) {
        k->calls++;
        k->to_device += to_device;
        k->to_host += to_host;
    }
    /* A program that never waits must not pile events up. */
    if (pending_count >= LIMIT_PROFILE_PENDING && pending_count % LIMIT_PROFILE_PENDING == 0)
        collect(0);
    if (k && pending_count == pending_capacity) {
        size_t cap = pending_capacity ? 2 * pending_capacity : 16;
        prof_item *grown = realloc(pending, cap * sizeof *grown);
        if (grown) {
            pending = grown;
            pending_capacity = cap;
        }
    }
    if (!k || pending_count == pending_capacity) {
        amp__clapi.ReleaseEvent(ev);
        return;
    }
    pending[pending_count++] = (prof_item){k, ev, generation};
}

static amp_profile_entry entry_of(const prof_kernel *k)
{
    amp_profile_entry e = {k->name,      k->file,      k->line,
                           k->calls,     k->device_ns, k->timed ? k->device_ns / k->timed : 0,
                           k->to_device, k->to_host};
    return e;
}

size_t amp__prof_entries(amp_profile_entry *out, size_t capacity)
{
    LOCK_ASSERT_HELD();
    size_t n = 0;
    for (prof_kernel *k = kernels; k; k = k->hh.next) {
        if (k->calls == 0)
            continue; /* reset since, and not launched again */
        if (n < capacity)
            out[n] = entry_of(k);
        n++;
    }
    return n;
}

void amp__prof_reset(void)
{
    LOCK_ASSERT_HELD();
    generation++;
    for (prof_kernel *k = kernels; k; k = k->hh.next)
        k->calls = k->timed = k->device_ns = k->to_device = k->to_host = 0;
}

static int by_time_descending(const void *a, const void *b)
{
    const prof_kernel *x = *(prof_kernel *const *)a, *y = *(prof_kernel *const *)b;
    return x->device_ns < y->device_ns ? 1 : x->device_ns > y->device_ns ? -1 : 0;
}

void amp__prof_print(FILE *f)
{
    LOCK_ASSERT_HELD();
    size_t n = 0;
    for (prof_kernel *k = kernels; k; k = k->hh.next)
        n += k->calls > 0;
    if (n == 0)
        return;
    prof_kernel **rows = malloc(n * sizeof *rows);
    if (!rows)
        return;
    size_t i = 0;
    for (prof_kernel *k = kernels; k; k = k->hh.next)
        if (k->calls > 0)
            rows[i++] = k;
    qsort(rows, n, sizeof *rows, by_time_descending);
    fprintf(f, "[amp] AMP_PROFILE: %zu kernel%s, device time from OpenCL events\n", n,
            n == 1 ? "" : "s");
    fprintf(f, "%-32s %-28s %8s %12s %12s %14s\n", "kernel", "call site", "calls", "total ms",
            "mean us", "bytes moved");
    for (i = 0; i < n; i++) {
        const prof_kernel *k = rows[i];
        const char *base = strrchr(k->file, '/');
        char site[64];
        snprintf(site, sizeof site, "%s:%d", base ? base + 1 : k->file, k->line);
        double mean_us = k->timed ? (double)k->device_ns / (double)k->timed / 1e3 : 0.0;
        fprintf(f, "%-32s %-28s %8llu %12.3f %12.3f %14llu\n", k->name, site,
                (unsigned long long)k->calls, (double)k->device_ns / 1e6, mean_us,
                (unsigned long long)(k->to_device + k->to_host));
    }
    free(rows);
}

void amp__prof_free(void)
{
    LOCK_ASSERT_HELD();
    for (size_t i = 0; i < pending_count; i++)
        amp__clapi.ReleaseEvent(pending[i].event);
    free(pending);
    pending = NULL;
    pending_count = pending_capacity = 0;
    prof_kernel *k, *tmp;
    HASH_ITER(hh, kernels, k, tmp)
    {
        HASH_DEL(kernels, k);
        free(k->name);
        free(k->file);
        free(k);
    }
}

/* ---- Public API ---- */

int amp_profile_is_enabled(void)
{
    amp__lock_acquire();
    /* AMP_PROFILE as read when the devices were listed, or now when they
     * are not listed yet. */
    int on = configured ? amp__prof_enabled : amp__env_profile();
    amp__lock_release();
    return on;
}

amp_status amp_profile_get_entries(amp_profile_entry *entries, size_t capacity, size_t *count)
{
    if (!count || (!entries && capacity > 0))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_profile_get_entries: %s is NULL.",
                            count ? "entries" : "count");
    *count = 0;
    amp__lock_acquire();
    amp_status st = AMP_OK;
    if (configured ? !amp__prof_enabled : !amp__env_profile())
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "amp_profile_get_entries: profiling is off. Set AMP_PROFILE=1 in the"
                          " environment before the program's first call of the library (or"
                          " before the first call after amp_shutdown()).");
    if (st == AMP_OK) {
        collect(1);
        *count = amp__prof_entries(entries, capacity);
    }
    amp__lock_release();
    return st;
}

void amp_profile_reset_entries(void)
{
    amp__lock_acquire();
    amp__prof_reset();
    amp__lock_release();
}
