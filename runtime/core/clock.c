/*
 * runtime/core/clock.c - the host's monotonic clock, read cheaply
 * (clock.h).
 *
 * The timeline reads the clock twice a launch. On the H100's host, a
 * virtual machine, clock_gettime costs 36 to 38 ns and the time-stamp
 * counter 20, where a tiny launch takes about 5 us: the two readings are
 * a point and a half of it, and the counter saves half of that.
 *
 * The counter is used only where Linux keeps CLOCK_MONOTONIC by it: the
 * kernel has then found it invariant and the same on every CPU, and it
 * leaves the counter when it finds otherwise. The counter's rate against
 * the clock is measured over its first 20 ms of use; after that, each
 * thread extrapolates from its last anchor (a reading of both) for at
 * most a millisecond, so that the rate's error, and NTP's slewing of the
 * clock, move a reading by a few nanoseconds at most.
 */
#include "core/clock.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/testing.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <x86intrin.h>
#define HAVE_TSC 1
#else
#define HAVE_TSC 0
#endif

enum { UNDECIDED, MEASURING, COUNTER, SYSTEM };

/* The counter's rate is measured over this long, and an anchor is used
 * for at most this long. */
#define MEASURE_NS 20000000
#define ANCHOR_NS 1000000

static const char *clocksource_file =
    "/sys/devices/system/clocksource/clocksource0/current_clocksource";

static atomic_int way = UNDECIDED;
/* Nanoseconds per tick, times 2^32; ticks in ANCHOR_NS. Written before
 * way becomes COUNTER, read after. */
static _Atomic uint64_t ns_per_tick_32;
static _Atomic uint64_t anchor_ticks;
/* The measurement's first anchor. */
static _Atomic uint64_t first_tick;
static _Atomic int64_t first_ns;

/* Each thread's anchor, and its last reading (one struct: one lookup of
 * the thread's storage). */
typedef struct thread_clock {
    uint64_t anchor_tick;
    int64_t anchor_ns, last_ns;
} thread_clock;
static _Thread_local thread_clock here;

static int64_t system_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

#if HAVE_TSC
static uint64_t ticks(void)
{
    return __rdtsc();
}
#else
static uint64_t ticks(void)
{
    return 0;
}
#endif

/* Whether Linux keeps CLOCK_MONOTONIC by the time-stamp counter. */
static int kernel_uses_counter(void)
{
    if (!HAVE_TSC)
        return 0;
    FILE *f = fopen(clocksource_file, "r");
    char name[32] = "";
    if (f) {
        if (!fgets(name, sizeof name, f))
            name[0] = '\0';
        fclose(f);
    }
    return strcmp(name, "tsc\n") == 0 || strcmp(name, "tsc") == 0;
}

/* The clock and the counter read at one moment: the counter's reading
 * the middle of the two around the clock's, the narrower of two tries (a
 * thread interrupted between them would pair readings far apart). */
static void read_both(uint64_t *tick, int64_t *ns)
{
    uint64_t best_width = UINT64_MAX;
    for (int i = 0; i < 2; i++) {
        uint64_t before = ticks();
        int64_t at = system_ns();
        uint64_t width = ticks() - before;
        if (i == 0 || width < best_width) {
            best_width = width;
            *tick = before + width / 2;
            *ns = at;
        }
    }
}

/* Once per process: the counter or the system's call, and while the
 * counter's rate is measured, the clock. */
static int64_t decide(void)
{
    int expected = UNDECIDED;
    if (kernel_uses_counter()) {
        uint64_t tick;
        int64_t ns;
        read_both(&tick, &ns);
        atomic_store(&first_tick, tick);
        atomic_store(&first_ns, ns);
        atomic_compare_exchange_strong(&way, &expected, MEASURING);
        return ns;
    }
    atomic_compare_exchange_strong(&way, &expected, SYSTEM);
    return system_ns();
}

/* While the rate is measured: the clock, and once MEASURE_NS have passed,
 * the rate (in doubles: their 53 bits are plenty for a rate, and a span
 * of seconds in 32.32 fixed point would not fit 64 bits). */
static int64_t measure(void)
{
    int64_t ns = system_ns();
    if (ns - atomic_load(&first_ns) < MEASURE_NS)
        return ns;
    uint64_t tick;
    read_both(&tick, &ns);
    double span = (double)(ns - atomic_load(&first_ns));
    double counted = (double)(tick - atomic_load(&first_tick));
    /* Nanoseconds per tick in 32.32 fixed point: a counter of 250 MHz or
     * more (4 ns a tick or less) keeps an anchor's product within 64 bits;
     * a slower one, or one that did not move, is not used. */
    double rate = counted > 0 ? span / counted * 4294967296.0 : 0;
    int expected = MEASURING;
    if (!(rate >= 1.0 && rate <= 4.0 * 4294967296.0)) {
        atomic_compare_exchange_strong(&way, &expected, SYSTEM);
        return ns;
    }
    atomic_store(&ns_per_tick_32, (uint64_t)rate);
    atomic_store(&anchor_ticks, (uint64_t)((double)ANCHOR_NS * 4294967296.0 / rate));
    atomic_compare_exchange_strong(&way, &expected, COUNTER);
    return ns;
}

/* A reading that is never before this thread's last. */
static int64_t kept(int64_t ns)
{
    if (ns < here.last_ns)
        ns = here.last_ns;
    here.last_ns = ns;
    return ns;
}

/* Every reading but the counter's from an anchor: kept out of line, so
 * that the common reading saves no registers. */
__attribute__((noinline)) static int64_t other_reading(int w)
{
    if (w == COUNTER) {
        /* The thread's first reading, a millisecond on, or a counter that
         * went back: anchored again. */
        read_both(&here.anchor_tick, &here.anchor_ns);
        return kept(here.anchor_ns);
    }
    if (w == SYSTEM)
        return kept(system_ns());
    return kept(w == UNDECIDED ? decide() : measure());
}

int64_t amp__clock_ns(void)
{
    int w = atomic_load_explicit(&way, memory_order_acquire);
    if (w == COUNTER) {
        uint64_t elapsed = ticks() - here.anchor_tick;
        if (elapsed < atomic_load_explicit(&anchor_ticks, memory_order_relaxed)) {
            uint64_t rate = atomic_load_explicit(&ns_per_tick_32, memory_order_relaxed);
            return kept(here.anchor_ns + (int64_t)((elapsed * rate) >> 32));
        }
    }
    return other_reading(w);
}

const char *amp__clock_way(void)
{
    return atomic_load(&way) == COUNTER ? "tsc" : "clock_gettime";
}

void amp__test_clock_source_file(const char *path)
{
    clocksource_file = path;
    atomic_store(&way, UNDECIDED);
    here = (thread_clock){0, 0, 0};
}
