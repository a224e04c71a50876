/*
 * bench/dispatch.c - what a parallel_for_each costs on top of OpenCL: the
 * same tiny kernel launched through the library (on a kernel-cache hit)
 * and through a raw clEnqueueNDRangeKernel on the same device.
 *
 * "The same kernel" literally: the raw side builds the source the runtime
 * generated (dumped through AMP_DUMP_KERNELS) and passes the arguments the
 * generated kernel declares: the view's buffer, offset and extent, then
 * the domain. Every side launches 1024 threads in groups of 256, as the
 * runtime chooses for this extent. Six sides:
 *   amp         - amp_parallel_for_each over the extent, known to the
 *                 program as the raw side knows its global size;
 *   amp, getter - the same, with the extent read from the view each time
 *                 (amp_array_view_get_extent, as samples write it): a
 *                 second call into the library, with its lock;
 *   raw         - a raw launch, on a context and queue of its own, as a
 *                 program without the library would make them;
 *   raw + args  - the same, setting its two arguments before each launch,
 *                 as a program must when the data changes;
 *   raw, library's queue - a raw launch in the library's own context and
 *                 on its default queue: the driver's cost there, without
 *                 the library's steps;
 *   raw, event each - a raw launch on a profiling queue of its own that
 *                 asks for the kernel's event, whose status and two times
 *                 are read and which is released after the block: what
 *                 timing every kernel on the device costs the driver (the
 *                 floor of AMP_PROFILE's and the timeline's device times);
 *   amp, timeline - (with --only timeline) amp_parallel_for_each while
 *                 the timeline records, on a view of its own made after
 *                 the timeline started (so its queue profiles, as every
 *                 queue does under AMP_TIMELINE), its recording paused
 *                 between its blocks: what AMP_TIMELINE costs a launch,
 *                 against the amp side in the same process, block by
 *                 block. Separate runs with and without AMP_TIMELINE
 *                 differ by the machine's moment as much as by the
 *                 timeline.
 * Two ways:
 *   pipelined  - launches back to back, one wait at the end of a block;
 *   wait each  - a launch and a wait (clFinish) each time.
 *
 * How the time is taken, and why. On the GPU machine the time of 20,000
 * launches moved by a fifth between rounds a second apart, and the ratio
 * of the two sides' medians by 0.1 between runs of one binary: a round
 * measured whatever the machine did then. So the sides take turns in
 * short blocks, in a rotating order, each block after one untimed launch
 * on its side's queue (the first launch after another queue was used
 * costs more). Blocks next to each other see the same moment of the
 * machine, so the ratio is taken block by block, and the figure is the
 * median of those ratios over many blocks, with its quartiles: how steady
 * the comparison was. The time per launch of each side is the median over
 * its blocks.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "core/testing.h"

#define ELEMS 1024
#define GROUP 256
#define SIDES 7
#define MAX_BLOCKS 400

enum { AMP_SIDE, RAW, RAW_ARGS, RAW_LIB, AMP_GETTER, RAW_EVENTS, AMP_TIMELINE_ON };

/* The most launches of a block (pipelined blocks are the longest). */
#define MAX_PER_BLOCK 2000

/* The generated source of the tiny kernel, and its kernel name. */
static char *find_generated(const char *dir, char *name, size_t size)
{
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return NULL;
    char *source = NULL;
    struct dirent *e;
    while (!source && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (strncmp(e->d_name, "amp_dispatch_tiny_", 18) != 0 || len < 4 || len - 3 >= size ||
            strcmp(e->d_name + len - 3, ".cl") != 0)
            continue;
        snprintf(name, size, "%.*s", (int)(len - 3), e->d_name);
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        source = n > 0 ? malloc((size_t)n + 1) : NULL;
        if (source && fread(source, 1, (size_t)n, f) == (size_t)n) {
            source[n] = '\0';
        } else {
            free(source);
            source = NULL;
        }
        fclose(f);
    }
    closedir(d);
    return source;
}

typedef struct raw_kernel {
    bench_cl cl;
    cl_program program;
    cl_kernel kernel;
    cl_mem buffer;
    long launches;
    cl_event *events; /* the event side's, one a launch of a block */
} raw_kernel;

/* The generated kernel's two arguments: the view's buffer, and the
 * launch's values (amp_launch_values in the kernel's source): the view's
 * offset and extent (32-bit for a small view), and the domain. */
static cl_int set_args(raw_kernel *r)
{
    struct {
        cl_int offset, extent, domain;
    } values = {0, ELEMS, ELEMS};
    cl_int rc = clSetKernelArg(r->kernel, 0, sizeof r->buffer, &r->buffer);
    if (rc == CL_SUCCESS)
        rc = clSetKernelArg(r->kernel, 1, sizeof values, &values);
    return rc;
}

enum { OWN_QUEUE, LIBRARY_QUEUE, PROFILED_QUEUE };

/* The raw side's kernel and buffer, on `where`: a context and queue of its
 * own; the library's context and default queue; or a context of its own
 * with a profiling queue, whose launches each ask for their event. */
static int raw_open(const bench_options *o, const char *source, const char *name, int where,
                    raw_kernel *r)
{
    memset(r, 0, sizeof *r);
    if (where == LIBRARY_QUEUE) {
        amp_accelerator_view *av = NULL;
        bench_check(amp_accelerator_get_default_view(NULL, &av), "default view");
        test_cl_objects cl = amp__test_cl_of_view(av);
        r->cl.device = cl.device;
        r->cl.context = cl.context;
        r->cl.queue = cl.queue;
        clRetainContext(r->cl.context);
        clRetainCommandQueue(r->cl.queue);
    } else if (bench_cl_open(&o->info, &r->cl) != 0)
        return -1;
    cl_int rc = CL_SUCCESS;
    if (where == PROFILED_QUEUE) {
        clReleaseCommandQueue(r->cl.queue);
        r->cl.queue = clCreateCommandQueue(r->cl.context, r->cl.device, CL_QUEUE_PROFILING_ENABLE,
                                           &rc);
        if (rc != CL_SUCCESS) {
            fprintf(stderr, "raw OpenCL: no profiling queue: error %d\n", rc);
            return -1;
        }
        r->events = calloc(MAX_PER_BLOCK, sizeof *r->events);
        if (!r->events) {
            fprintf(stderr, "raw OpenCL: out of memory for the events of a block\n");
            return -1;
        }
    }
    r->program = clCreateProgramWithSource(r->cl.context, 1, &source, NULL, &rc);
    if (rc == CL_SUCCESS)
        rc = clBuildProgram(r->program, 1, &r->cl.device, "", NULL, NULL);
    if (rc == CL_SUCCESS)
        r->kernel = clCreateKernel(r->program, name, &rc);
    cl_uint nargs = 0;
    if (rc == CL_SUCCESS)
        rc = clGetKernelInfo(r->kernel, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (rc == CL_SUCCESS && nargs != 2) {
        fprintf(stderr,
                "raw OpenCL: %s has %u parameters; expected a buffer and the launch's"
                " values\n",
                name, nargs);
        return -1;
    }
    float zeros[ELEMS] = {0};
    if (rc == CL_SUCCESS)
        r->buffer = clCreateBuffer(r->cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   sizeof zeros, zeros, &rc);
    if (rc == CL_SUCCESS)
        rc = set_args(r);
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "raw OpenCL: building %s: error %d\n", name, rc);
        return -1;
    }
    return 0;
}

static void raw_close(raw_kernel *r)
{
    free(r->events);
    if (r->buffer)
        clReleaseMemObject(r->buffer);
    if (r->kernel)
        clReleaseKernel(r->kernel);
    if (r->program)
        clReleaseProgram(r->program);
    bench_cl_close(&r->cl);
}

/* Whether every element of the raw side's buffer counts its launches. */
static int raw_counted(raw_kernel *r)
{
    float back[ELEMS];
    if (clEnqueueReadBuffer(r->cl.queue, r->buffer, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL) !=
        CL_SUCCESS)
        return 0;
    return back[0] == (float)r->launches && back[ELEMS - 1] == (float)r->launches;
}

/* The event side's events of a block: each one's status and two times read,
 * as a profiler reads them, and released. */
static void read_events(raw_kernel *r, int n)
{
    for (int i = 0; i < n; i++) {
        cl_int status = CL_QUEUED;
        cl_ulong start = 0, end = 0;
        if (clGetEventInfo(r->events[i], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           NULL) != CL_SUCCESS ||
            status != CL_COMPLETE ||
            clGetEventProfilingInfo(r->events[i], CL_PROFILING_COMMAND_START, sizeof start, &start,
                                    NULL) != CL_SUCCESS ||
            clGetEventProfilingInfo(r->events[i], CL_PROFILING_COMMAND_END, sizeof end, &end,
                                    NULL) != CL_SUCCESS ||
            end < start) {
            fprintf(stderr, "raw OpenCL: a kernel's event has no times\n");
            exit(EXIT_FAILURE);
        }
        clReleaseEvent(r->events[i]);
    }
}

/* Seconds per launch over n launches; wait_each: clFinish after each;
 * with_args: set the two arguments before each launch too, as a program
 * that launches a kernel on changing data must (the library does). */
static double raw_round(raw_kernel *r, int n, int wait_each, int with_args)
{
    size_t global = ELEMS, local = GROUP;
    if (n > MAX_PER_BLOCK) {
        fprintf(stderr, "raw OpenCL: a block of %d launches; at most %d\n", n, MAX_PER_BLOCK);
        exit(EXIT_FAILURE);
    }
    double t0 = bench_now();
    for (int i = 0; i < n; i++) {
        if (with_args && set_args(r) != CL_SUCCESS) {
            fprintf(stderr, "raw OpenCL: clSetKernelArg failed\n");
            exit(EXIT_FAILURE);
        }
        if (clEnqueueNDRangeKernel(r->cl.queue, r->kernel, 1, NULL, &global, &local, 0, NULL,
                                   r->events ? &r->events[i] : NULL) != CL_SUCCESS) {
            fprintf(stderr, "raw OpenCL: clEnqueueNDRangeKernel failed\n");
            exit(EXIT_FAILURE);
        }
        if (wait_each)
            clFinish(r->cl.queue);
    }
    clFinish(r->cl.queue);
    if (r->events)
        read_events(r, n);
    r->launches += n;
    return (bench_now() - t0) / n;
}

/* The launches of a library's side on av (NULL: the default view, as
 * AMP_PARALLEL_FOR_EACH launches) and their view of data. */
typedef struct amp_kernel_side {
    amp_accelerator_view *av;
    amp_accelerator_view *wait_av; /* av, or the default view for NULL */
    amp_array_view *v;
    long launches;
} amp_kernel_side;

/* getter: the extent read from the view before each launch. */
static double amp_round(amp_kernel_side *a, int n, int wait_each, int getter)
{
    amp_extent domain = amp_extent_1d(ELEMS);
    double t0 = bench_now();
    for (int i = 0; i < n; i++) {
        if (getter)
            domain = amp_array_view_get_extent(a->v);
        bench_check(bench_tiny_kernel(a->av, domain, a->v), "tiny kernel");
        if (wait_each)
            bench_check(amp_accelerator_view_wait(a->wait_av), "wait");
    }
    bench_check(amp_accelerator_view_wait(a->wait_av), "wait");
    a->launches += n;
    return (bench_now() - t0) / n;
}

/* The timeline's blocks: recording only while they run. */
static double timeline_round(amp_kernel_side *a, int n, int wait_each)
{
    bench_check(amp_timeline_start(NULL), "timeline start");
    double t = amp_round(a, n, wait_each, 0);
    amp__test_timeline_pause();
    return t;
}

typedef struct sides {
    amp_kernel_side amp;
    amp_kernel_side timeline; /* .v NULL: not measured */
    raw_kernel own, lib, evt; /* on a context of its own; the library's; with events */
} sides;

/* One side's block: seconds per launch of n launches. */
static double side_round(sides *s, int side, int n, int wait_each)
{
    switch (side) {
    case AMP_SIDE:
    case AMP_GETTER: return amp_round(&s->amp, n, wait_each, side == AMP_GETTER);
    case AMP_TIMELINE_ON: return timeline_round(&s->timeline, n, wait_each);
    case RAW: return raw_round(&s->own, n, wait_each, 0);
    case RAW_ARGS: return raw_round(&s->own, n, wait_each, 1);
    case RAW_EVENTS: return raw_round(&s->evt, n, wait_each, 0);
    case RAW_LIB:
    default: return raw_round(&s->lib, n, wait_each, 0);
    }
}

/* Whether side is measured: the timeline's only when asked for. */
static int measured(const sides *s, int side)
{
    return side != AMP_TIMELINE_ON || s->timeline.v != NULL;
}

/* blocks blocks of n launches of every side, the sides taking turns in a
 * rotating order, each block after one untimed launch of its side; the
 * seconds per launch go to t[side][block]. */
static void take_turns(sides *s, int blocks, int n, int wait_each, double t[SIDES][MAX_BLOCKS])
{
    for (int b = 0; b < blocks; b++)
        for (int k = 0; k < SIDES; k++) {
            int side = (b + k) % SIDES;
            if (!measured(s, side))
                continue;
            side_round(s, side, 1, 1);
            t[side][b] = side_round(s, side, n, wait_each);
        }
}

/* The timeline's file: some 100 MB of no use after the run. The library
 * writes it as the process ends, so it is removed by a handler that runs
 * after the library's: registered before the timeline starts. */
static char timeline_path[4200];

static void remove_timeline_file(void)
{
    remove(timeline_path);
}

/* The timeline's side: the timeline started, its view made after the
 * start (so that the view's queue profiles), the recording paused until
 * the side's blocks. Under AMP_TIMELINE it says why the side is left out,
 * and leaves a->v NULL. */
static void timeline_open(const bench_options *o, float *host, amp_kernel_side *a)
{
    if (amp_timeline_is_enabled()) {
        printf(
            "Not measured: amp with the timeline against amp without it, in turns: AMP_TIMELINE\n"
            "is set, so the timeline records on every side.\n\n");
        return;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(timeline_path, sizeof timeline_path, "%s/amp-bench-timeline-%ld.json",
             tmp && *tmp ? tmp : "/tmp", (long)getpid());
    if (atexit(remove_timeline_file) != 0) {
        printf("Not measured: amp with the timeline: no handler to remove its file at exit.\n\n");
        return;
    }
    bench_check(amp_timeline_start(timeline_path), "timeline start");
    bench_check(amp_accelerator_create_view(o->acc, AMP_QUEUING_AUTOMATIC, &a->av), "view");
    a->wait_av = a->av;
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_1d(ELEMS), host, &a->v), "view");
    amp__test_timeline_pause();
}

/* The side's handles. Its recording is paused since its last block, and
 * stays so: amp_timeline_stop() would write the file now, and the library
 * writes it again at exit (the device times read at amp_shutdown), twice
 * some 100 MB for nothing. */
static void timeline_close(amp_kernel_side *a)
{
    if (!a->v)
        return;
    bench_check(amp_array_view_release(a->v), "release");
    bench_check(amp_accelerator_view_release(a->av), "release");
}

static void close_sides(sides *s)
{
    raw_close(&s->own);
    raw_close(&s->lib);
    raw_close(&s->evt);
    timeline_close(&s->timeline);
    bench_check(amp_array_view_release(s->amp.v), "release");
}

/* Whether every element of a library side's data counts its launches. */
static int amp_counted(amp_kernel_side *a, const float *host)
{
    if (!a->v)
        return 1;
    bench_check(amp_array_view_synchronize(a->v), "synchronize");
    return host[0] == (float)a->launches && host[ELEMS - 1] == (float)a->launches;
}

void bench_dispatch(const bench_options *o, int timeline_side)
{
    printf("\n## Dispatch overhead: a tiny kernel (%d threads, v(i) += 1)\n\n", ELEMS);
    static float host[ELEMS], timeline_host[ELEMS];
    memset(host, 0, sizeof host);
    memset(timeline_host, 0, sizeof timeline_host);
    sides s = {.amp = {.wait_av = o->av}};
    bench_check(amp_array_view_create(AMP_FLOAT, amp_extent_1d(ELEMS), host, &s.amp.v), "view");
    /* Compile, upload and dump the generated source; later calls are cache hits. */
    bench_check(bench_tiny_kernel(NULL, amp_extent_1d(ELEMS), s.amp.v), "tiny kernel");
    bench_check(amp_accelerator_view_wait(o->av), "wait");
    s.amp.launches = 1;

    char name[256];
    char *source = find_generated(o->dump_dir, name, sizeof name);
    if (!source || raw_open(o, source, name, OWN_QUEUE, &s.own) != 0 ||
        raw_open(o, source, name, LIBRARY_QUEUE, &s.lib) != 0 ||
        raw_open(o, source, name, PROFILED_QUEUE, &s.evt) != 0) {
        printf("Not measured: the generated kernel could not be %s.\n",
               source ? "built through raw OpenCL" : "found (AMP_DUMP_KERNELS)");
        free(source);
        close_sides(&s);
        return;
    }
    free(source);
    if (timeline_side)
        timeline_open(o, timeline_host, &s.timeline);

    /* Blocks of about 10 ms pipelined, 25 launches with a wait each. */
    static const char *mode_names[2] = {"pipelined", "wait each"};
    int blocks[2] = {o->quick ? 4 : 61, o->quick ? 4 : 161};
    int per_block[2] = {o->quick ? 100 : 2000, 25};
    static double t[2][SIDES][MAX_BLOCKS];
    /* A round of each first, untimed: queues and threads warm. */
    for (int side = 0; side < SIDES; side++)
        if (measured(&s, side))
            side_round(&s, side, 100, 0);
    for (int m = 0; m < 2; m++)
        take_turns(&s, blocks[m], per_block[m], m == 1, t[m]);

    /* Every side did what it was asked: every element counts its launches. */
    int ok = amp_counted(&s.amp, host) && amp_counted(&s.timeline, timeline_host) &&
             raw_counted(&s.own) && raw_counted(&s.lib) && raw_counted(&s.evt);

    FILE *csv = bench_csv_open(o, "dispatch.csv",
                               "device,mode,launches,amp_us_median,raw_us_median,amp_us_best,"
                               "raw_us_best,ratio_median,raw_args_us_median,raw_args_us_best,"
                               "ratio_q1,ratio_q3,raw_lib_us_median,raw_lib_us_best,"
                               "ratio_lib_median,amp_getter_us_median,amp_getter_us_best,"
                               "raw_events_us_median,raw_events_us_best,amp_timeline_us_median,"
                               "amp_timeline_us_best,timeline_ratio_median,timeline_ratio_q1,"
                               "timeline_ratio_q3");
    printf("- microseconds per launch, the median over blocks (best block in brackets); the\n"
           "  sides take turns block by block (pipelined: %d blocks of %d launches, one wait at\n"
           "  the end of each; with a wait each: %d blocks of %d)\n"
           "- amp / raw: the median of the block-by-block ratios, with its quartiles\n"
           "- raw: a context and queue of its own; library's queue: the library's context and\n"
           "  default queue, without its steps; amp, getter: the extent read with\n"
           "  amp_array_view_get_extent before each launch; raw, event each: a profiling queue,\n"
           "  each launch's event read (status, start, end) and released after the block\n"
           "- amp, timeline (--only timeline): the timeline recording during the side's blocks\n"
           "  only, on a view made after it started; timeline on / off: its block-by-block\n"
           "  ratios to amp's, the median with its quartiles\n"
           "- results %s: every element counts its launches\n\n",
           blocks[0], per_block[0], blocks[1], per_block[1], ok ? "checked" : "WRONG");
    printf("| mode | amp_parallel_for_each | raw clEnqueueNDRangeKernel | amp / raw (quartiles) | "
           "raw, clSetKernelArg x4 each time | raw, library's queue | amp / raw, library's "
           "queue | amp, getter | raw, event each | amp, timeline | timeline on / off "
           "(quartiles) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int m = 0; m < 2; m++) {
        int n = blocks[m];
        double q[3], ql[3], qt[3] = {0, 0, 0};
        bench_ratio_quartiles(t[m][AMP_SIDE], t[m][RAW], n, q);
        bench_ratio_quartiles(t[m][AMP_SIDE], t[m][RAW_LIB], n, ql);
        int timeline = measured(&s, AMP_TIMELINE_ON);
        if (timeline)
            bench_ratio_quartiles(t[m][AMP_TIMELINE_ON], t[m][AMP_SIDE], n, qt);
        /* After the ratios: the median sorts a side's blocks. */
        double best[SIDES], med[SIDES];
        for (int k = 0; k < SIDES; k++) {
            best[k] = measured(&s, k) ? bench_min(t[m][k], n) * 1e6 : 0;
            med[k] = measured(&s, k) ? bench_median(t[m][k], n) * 1e6 : 0;
        }
        char cell[64] = "-", ratio[64] = "-";
        if (timeline) {
            snprintf(cell, sizeof cell, "%.2f (%.2f)", med[AMP_TIMELINE_ON], best[AMP_TIMELINE_ON]);
            snprintf(ratio, sizeof ratio, "%.3f (%.3f to %.3f)", qt[1], qt[0], qt[2]);
        }
        printf("| %s | %.2f (%.2f) | %.2f (%.2f) | %.3f (%.3f to %.3f) | %.2f (%.2f) | %.2f "
               "(%.2f) | %.3f | %.2f (%.2f) | %.2f (%.2f) | %s | %s |\n",
               mode_names[m], med[AMP_SIDE], best[AMP_SIDE], med[RAW], best[RAW], q[1], q[0], q[2],
               med[RAW_ARGS], best[RAW_ARGS], med[RAW_LIB], best[RAW_LIB], ql[1], med[AMP_GETTER],
               best[AMP_GETTER], med[RAW_EVENTS], best[RAW_EVENTS], cell, ratio);
        if (csv) {
            fprintf(csv,
                    "\"%s\",%s,%d,%.3f,%.3f,%.3f,%.3f,%.4f,%.3f,%.3f,%.4f,%.4f,%.3f,%.3f,%.4f,%.3f,"
                    "%.3f,%.3f,%.3f,",
                    o->info.description, mode_names[m], n * per_block[m], med[AMP_SIDE], med[RAW],
                    best[AMP_SIDE], best[RAW], q[1], med[RAW_ARGS], best[RAW_ARGS], q[0], q[2],
                    med[RAW_LIB], best[RAW_LIB], ql[1], med[AMP_GETTER], best[AMP_GETTER],
                    med[RAW_EVENTS], best[RAW_EVENTS]);
            if (timeline)
                fprintf(csv, "%.3f,%.3f,%.4f,%.4f,%.4f\n", med[AMP_TIMELINE_ON],
                        best[AMP_TIMELINE_ON], qt[1], qt[0], qt[2]);
            else
                fprintf(csv, ",,,,\n");
        }
    }
    if (csv)
        fclose(csv);
    close_sides(&s);
}
