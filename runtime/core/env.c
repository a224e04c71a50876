/*
 * runtime/core/env.c - the environment, read in one place.
 */
#include "core/env.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether word (n bytes) is one of the words of list. */
static int word_in(const char *word, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (strlen(*list) == n && strncasecmp(word, *list, n) == 0)
            return 1;
    return 0;
}

static const char *const on_words[] = {"1", "on", "true", "yes", NULL};
static const char *const off_words[] = {"0", "off", "false", "no", NULL};

/* 1 on, 0 off, -1 neither. */
static int flag_value(const char *v)
{
    size_t n = strlen(v);
    if (word_in(v, n, on_words))
        return 1;
    if (word_in(v, n, off_words))
        return 0;
    char *end = NULL;
    long number = strtol(v, &end, 10);
    if (end != v && *end == '\0')
        return number != 0;
    return -1;
}

/* A setting read on every use (AMP_PROFILE, say) would warn at each
 * read: each variable warns once per process. */
static pthread_mutex_t warned_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *warned[16];

static int first_warning(const char *name)
{
    int first = 1;
    size_t k = 0;
    pthread_mutex_lock(&warned_lock);
    while (k < sizeof warned / sizeof warned[0] && warned[k] && first)
        first = strcmp(warned[k++], name) != 0;
    if (first && k < sizeof warned / sizeof warned[0])
        warned[k] = name;
    pthread_mutex_unlock(&warned_lock);
    return first;
}

/* The one warning for a value the library does not know: the variable, the
 * value, what it accepts, and what it does instead. */
static void warn_unknown(const char *name, const char *value, const char *accepted,
                         const char *instead)
{
    if (first_warning(name))
        fprintf(stderr, "[amp] %s=\"%s\" is not a value it takes (%s); %s.\n", name, value,
                accepted, instead);
}

int amp__env_flag(const char *name, int def)
{
    const char *v = getenv(name);
    if (!v || !v[0])
        return def;
    int on = flag_value(v);
    if (on < 0) {
        warn_unknown(name, v, "on: 1, on, true, yes; off: 0, off, false, no", "taken as off");
        return 0;
    }
    return on;
}

/* Whether the comma- or space-separated list holds word. */
static int list_has(const char *list, const char *word)
{
    size_t n = strlen(word);
    while (*list) {
        size_t len = strcspn(list, ", ");
        if (len == n && strncasecmp(list, word, n) == 0)
            return 1;
        list += len;
        list += strspn(list, ", ");
    }
    return 0;
}

static const char *non_empty(const char *v)
{
    return v && v[0] ? v : NULL;
}

/* ---- Read once per process ---- */

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int trace_transfers, trace_kernels;
static char *dump_dir;

/* Whether every word of the comma- or space-separated list is one of
 * words. */
static int list_within(const char *list, const char *const *words)
{
    while (*list) {
        size_t len = strcspn(list, ", ");
        if (len > 0 && !word_in(list, len, words))
            return 0;
        list += len;
        list += strspn(list, ", ");
    }
    return 1;
}

static void read_trace(const char *trace)
{
    static const char *const traces[] = {"transfers", "kernels", "all", NULL};
    int flag = flag_value(trace);
    if (flag >= 0) {
        trace_transfers = trace_kernels = flag; /* AMP_TRACE=1: all; 0: none */
        return;
    }
    int all = list_has(trace, "all");
    trace_transfers = all || list_has(trace, "transfers");
    trace_kernels = all || list_has(trace, "kernels");
    if (!list_within(trace, traces))
        warn_unknown("AMP_TRACE", trace,
                     "transfers, kernels or all, separated by commas; or 1 for all, 0 for none",
                     trace_transfers || trace_kernels ? "the words it knows are traced"
                                                      : "nothing is traced");
}

static void read_once(void)
{
    const char *trace = non_empty(getenv("AMP_TRACE"));
    if (trace)
        read_trace(trace);
    const char *dump = non_empty(getenv("AMP_DUMP_KERNELS"));
    dump_dir = dump ? strdup(dump) : NULL;
}

int amp__env_trace_transfers(void)
{
    pthread_once(&once, read_once);
    return trace_transfers;
}

int amp__env_trace_kernels(void)
{
    pthread_once(&once, read_once);
    return trace_kernels;
}

const char *amp__env_dump_dir(void)
{
    pthread_once(&once, read_once);
    return dump_dir;
}

/* ---- Read when asked ---- */

int amp__env_profile(void)
{
    return amp__env_flag("AMP_PROFILE", 0);
}

int amp__env_check(void)
{
    static const char *const checks[] = {"races", "all", NULL};
    const char *v = non_empty(getenv("AMP_CHECK"));
    if (!v)
        return 0;
    int on = flag_value(v);
    if (on >= 0)
        return on;
    int known = list_has(v, "races") || list_has(v, "all");
    if (!list_within(v, checks))
        warn_unknown("AMP_CHECK", v,
                     "races or all; or on: 1, on, true, yes; off: 0, off, false, no",
                     known ? "checked for races" : "taken as off");
    return known;
}

const char *amp__env_timeline(void)
{
    return non_empty(getenv("AMP_TIMELINE"));
}

long long amp__env_timeline_max_events(long long def)
{
    const char *v = non_empty(getenv("AMP_TIMELINE_MAX_EVENTS"));
    if (!v)
        return def;
    char *end = NULL;
    long long n = strtoll(v, &end, 10);
    if (end == v || *end != '\0' || n < 1) {
        char instead[64];
        snprintf(instead, sizeof instead, "the default, %lld, is kept", def);
        warn_unknown("AMP_TIMELINE_MAX_EVENTS", v, "a whole number of events, at least 1", instead);
        return def;
    }
    return n;
}

int amp__env_timeline_kernels(void)
{
    const char *v = non_empty(getenv("AMP_TIMELINE_KERNELS"));
    if (!v || strcmp(v, "sampled") == 0)
        return 0;
    if (strcmp(v, "all") == 0)
        return 1;
    warn_unknown("AMP_TIMELINE_KERNELS", v, "sampled or all", "kernels are sampled");
    return 0;
}

int amp__env_leaks(void)
{
    return amp__env_flag("AMP_LEAKS", 0);
}

int amp__env_cache(void)
{
    return amp__env_flag("AMP_CACHE", 1);
}

const char *amp__env_device(void)
{
    return non_empty(getenv("AMP_DEVICE"));
}

const char *amp__env_split_cpu(void)
{
    return non_empty(getenv("AMP_SPLIT_CPU"));
}

const char *amp__env_tmpdir(void)
{
    return non_empty(getenv("TMPDIR"));
}

const char *amp__env_cache_dir(void)
{
    return getenv("AMP_CACHE_DIR");
}

const char *amp__env_xdg_cache_home(void)
{
    return getenv("XDG_CACHE_HOME");
}

const char *amp__env_home(void)
{
    return getenv("HOME");
}
