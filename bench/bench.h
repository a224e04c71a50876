/*
 * bench/bench.h - what the benchmark's sections share: timing, statistics,
 * Markdown and CSV output, and the same device opened through raw OpenCL
 * for the baselines.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdio.h>

#define CL_TARGET_OPENCL_VERSION 120
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <amp/amp.h>

/* Options every section sees. */
typedef struct bench_options {
    const char *out_dir; /* where the CSV files go */
    int repeat;          /* timed runs per measurement */
    int quick;           /* smaller sizes, for a smoke test */
    unsigned kernels;    /* the SGEMM kernels of the progression to measure: bit k-1 for kernel k */
    int nsizes;          /* the SGEMM sizes of --sizes, or 0 for the device's table */
    int sizes[16][3];    /* M, N, K of each */
    const char *self;    /* this program, to run it again as a child */
    const char *dump_dir; /* AMP_DUMP_KERNELS of this process: generated kernels */
    amp_accelerator *acc;
    amp_accelerator_view *av;
    amp_accelerator_info info;
} bench_options;

/* Seconds on a monotonic clock. */
double bench_now(void);

/* How long a product runs untimed before it is timed, in seconds: on a
 * CPU device, longer than OpenBLAS's threads spin after their last call
 * (2^28 cycles, about 0.1 s: OPENBLAS_THREAD_TIMEOUT), which would
 * otherwise take the cores from what is timed next, and long enough for
 * the threads of PoCL's pthread device to settle on separate cores: after
 * a pause, the first 30 to 50 ms of a 1024 x 1024 product took 1.5x to 2x
 * as long per run on the 2-core machine, with both of its workers on one
 * core. On a GPU 0: one run. The SGEMM benchmark and the tuner both. */
double bench_warm_seconds(const amp_accelerator_info *info);

/* Median and minimum of n samples (sorts them). */
double bench_median(double *samples, int n);
double bench_min(const double *samples, int n);
/* The median (q[1]) and quartiles (q[0], q[2]) of the n ratios a[i] / b[i]:
 * blocks of two sides timed in turns, compared block by block; 0s when n is
 * 0 or there is no memory. */
void bench_ratio_quartiles(const double *a, const double *b, int n, double q[3]);

/* The SGEMM sizes of a list such as "1024,1000x2000x500" into sizes: n
 * alone stands for n x n x n. Returns how many, or -1 for a list that is
 * not 1 to max sizes, each side from 1 to 65536. */
int bench_parse_sizes(const char *text, int (*sizes)[3], int max);

/* Stop with the status's name and the library's message when a call fails. */
void bench_check(amp_status status, const char *what);

/* Open a CSV file in the output directory and write its header line.
 * Returns NULL (after a message) when it cannot be written. */
FILE *bench_csv_open(const bench_options *o, const char *name, const char *header);

/* The raw OpenCL device that the library's accelerator stands for, found by
 * platform and device name, with a context and an in-order queue of our
 * own. Returns 0 and fills *out, or -1 after a message. */
typedef struct bench_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} bench_cl;
int bench_cl_open(const amp_accelerator_info *info, bench_cl *out);
void bench_cl_close(bench_cl *cl);

/* The sections, each printing Markdown tables and writing its CSV. */
void bench_matmul(const bench_options *o);
void bench_tile_average(const bench_options *o);
/* timeline_side: also the launch with the timeline recording, in turns
 * with it off (--only timeline). The timeline is stopped after, but the
 * queues the process makes later profile, as under AMP_TIMELINE. */
void bench_dispatch(const bench_options *o, int timeline_side);
void bench_compile(const bench_options *o);
int bench_compile_child(void); /* the re-executed process of bench_compile */
void bench_laziness(const bench_options *o);
void bench_transfers(const bench_options *o);
/* The transfers section's overlap alone: an upload into one array while a
 * kernel works on another (with AMP_TIMELINE set, the timeline that shows
 * the two side by side: bench/timeline-overlap.py). */
void bench_overlap(const bench_options *o);

/* The tiny kernel of the dispatch benchmark: v(i) += 1 (dispatch_tiny.c), on
 * av (NULL: the default view). */
amp_status bench_tiny_kernel(amp_accelerator_view *av, amp_extent domain, amp_array_view *v);

/* What the tuner (tuner.c) does. */
typedef struct bench_tune_options {
    int n_large, n_small; /* the sizes it tunes at; n_small 0: no smaller tiles */
    int repeat;           /* runs per measurement, the median counts */
    int dry_run;          /* measure and print, store nothing */
    int all;              /* the generated family rather than the usual candidates */
    const char *list;     /* or these: "staged,ty,tx,rm,nv,vw,bk;..." */
    const char *explore;  /* sizes to explore the best candidates at, splits and all; "auto":
                           * sgemm_tuning_explore_sizes' for the device; NULL: none */
    int explore_top;      /* how many of the best to explore */
    const char *csv_path; /* every measurement as CSV, or NULL */
} bench_tune_options;

/* Measure kernel 6's candidates on the accelerator, print tables, and
 * store the best for the device unless o->dry_run. Returns 0 on success. */
int bench_tune(amp_accelerator *acc, amp_accelerator_view *av, const bench_tune_options *o);

#endif
