/*
 * runtime/core/probe.c - timing probes (probe.h): compiled only with
 * cmake -DAMP_TIMING_PROBES=ON.
 */
#include "core/probe.h"

#include <stdlib.h>
#include <time.h>

static probe_site *first, **last = &first;
static double mark;
static int printing;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void print_at_exit(void)
{
    amp__probe_print(stderr);
}

void amp__probe_start(void)
{
    if (!printing) {
        printing = 1;
        atexit(print_at_exit);
    }
    mark = now_ns();
}

void amp__probe_pass(probe_site *site)
{
    double t = now_ns();
    site->ns += t - mark;
    mark = t;
    if (site->passes++ == 0) {
        *last = site;
        last = &site->next;
    }
}

void amp__probe_print(FILE *out)
{
    if (!first)
        return;
    /* The passes of the path: those of its first probe. */
    uint64_t passes = first->passes;
    double every = 0;
    fprintf(out, "\n[timing probes] %llu passes; ns per pass of each probe:\n",
            (unsigned long long)passes);
    for (const probe_site *p = first; p; p = p->next) {
        fprintf(out, "[timing probes] %-60s %10llu %10.1f\n", p->what,
                (unsigned long long)p->passes, p->ns / (double)p->passes);
        if (p->passes == passes)
            every += p->ns / (double)p->passes;
    }
    fprintf(out, "[timing probes] %-60s %10llu %10.1f\n", "the probes every pass passed",
            (unsigned long long)passes, every);
}
