/*
 * runtime/core/probe.h - timing probes: the host time of each step of a
 * path, for measurement only. Compiled in with cmake -DAMP_TIMING_PROBES=ON;
 * off by default, and then every probe is nothing at all.
 *
 * A path marks its start (AMP__PROBE_START) and the end of each step
 * (AMP__PROBE("what")). Each probe sums the time since the mark before it
 * and counts its passes; at exit the probes are printed on stderr in the
 * order first passed, with their passes and nanoseconds per pass, and the
 * sum of those that every pass of the path passed. Each probe reads the
 * clock once (20 to 50 ns), which its step includes. The sums are plain
 * counters: time one thread at a time (bench/dispatch.c does).
 */
#ifndef AMP_CORE_PROBE_H
#define AMP_CORE_PROBE_H

#if defined(AMP_TIMING_PROBES) && AMP_TIMING_PROBES

#include <stdint.h>
#include <stdio.h>

typedef struct probe_site {
    const char *what;
    double ns;
    uint64_t passes;
    struct probe_site *next; /* in the order first passed */
} probe_site;

/* The path starts now. */
void amp__probe_start(void);

/* A step of the path ends now: its time since the last mark goes to site. */
void amp__probe_pass(probe_site *site);

/* The probes passed so far, as they are printed at exit. */
void amp__probe_print(FILE *out);

#define AMP__PROBE_START() amp__probe_start()
#define AMP__PROBE(what)                                                                           \
    do {                                                                                           \
        static probe_site probe_site_ = {what, 0, 0, NULL};                                        \
        amp__probe_pass(&probe_site_);                                                             \
    } while (0)

#else

#define AMP__PROBE_START() ((void)0)
#define AMP__PROBE(what) ((void)0)

#endif

#endif
