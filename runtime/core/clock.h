/*
 * runtime/core/clock.h - the host's monotonic clock, read cheaply: the
 * clock of the timeline's records.
 *
 * Its readings are CLOCK_MONOTONIC's nanoseconds. Where Linux keeps that
 * clock by the CPU's time-stamp counter (its clocksource is "tsc"), the
 * counter is read instead of calling clock_gettime, and turned into the
 * clock's nanoseconds by a rate measured against it; each thread takes
 * clock_gettime's reading again once a millisecond has passed since it
 * last did, so that a reading stays within a few nanoseconds of the
 * clock's. Anywhere else it is clock_gettime. Each thread's readings never
 * go back.
 *
 * Any thread, no lock.
 */
#ifndef AMP_CORE_CLOCK_H
#define AMP_CORE_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC now, in nanoseconds. */
int64_t amp__clock_ns(void);

/* How the clock is read: "tsc" or "clock_gettime" ("clock_gettime" too
 * while the counter's rate is being measured, the first 20 ms). */
const char *amp__clock_way(void);

#endif
