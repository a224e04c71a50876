/*
 * samples/sgemm_progression/sgemm.h - the SGEMM teaching progression: six
 * kernels for C = A * B in single precision, each in its own file, each one
 * step faster than the one before.
 *
 * Matrices are row-major, as C arrays are: A is M x K, B is K x N, C is
 * M x N. Every kernel works for any M, N and K >= 1, tile multiples or not.
 *
 *   1 sgemm_1_naive.c             one thread per element of C
 *   2 sgemm_2_tiles.c             16 x 16 tiles of A and B in tile_static memory
 *   3 sgemm_3_work_per_thread.c   each thread computes 8 elements of a column
 *   4 sgemm_4_vector_loads.c      float4 loads and float4 arithmetic
 *   5 sgemm_5_register_blocking.c each thread computes an 8 x 8 block from registers
 *   6 sgemm_6_tuned.c             packed panels, per-device parameters (sgemm_tune.c)
 *
 * Each runs on any accelerator view (sgemm_N_on), and any of them across a
 * set of accelerators by blocks of rows of C (sgemm_set.c).
 */
#ifndef SGEMM_H
#define SGEMM_H

#include <stddef.h>

#include <amp/amp.h>

/* The operands of one product. a and b should be const views
 * (amp_array_view_create_const): kernels 4 and 6 read them with vloadN
 * through the address of an element, which the runtime counts as a write
 * on a view that is not const. */
typedef struct sgemm_operands {
    amp_array_view *a; /* M x K */
    amp_array_view *b; /* K x N */
    amp_array_view *c; /* M x N, written */
    int M, N, K;
} sgemm_operands;

/* Each kernel on the accelerator view av (NULL: the default view), and in
 * the form without a view, on the default view. */
amp_status sgemm_1_naive_on(amp_accelerator_view *av, const sgemm_operands *op);
amp_status sgemm_2_tiles_on(amp_accelerator_view *av, const sgemm_operands *op);
amp_status sgemm_3_work_per_thread_on(amp_accelerator_view *av, const sgemm_operands *op);
amp_status sgemm_4_vector_loads_on(amp_accelerator_view *av, const sgemm_operands *op);
amp_status sgemm_5_register_blocking_on(amp_accelerator_view *av, const sgemm_operands *op);
amp_status sgemm_1_naive(const sgemm_operands *op);
amp_status sgemm_2_tiles(const sgemm_operands *op);
amp_status sgemm_3_work_per_thread(const sgemm_operands *op);
amp_status sgemm_4_vector_loads(const sgemm_operands *op);
amp_status sgemm_5_register_blocking(const sgemm_operands *op);

/* ---- Kernel 6: the tuned best ---- */

/*
 * The parameters of kernel 6. A tile of ty x tx threads computes a block of
 * ty*rm rows by tx*nv*vw columns of C; each thread holds rm x (nv * vw)
 * sums in registers. staged = 1 copies each bk-deep step of the panels into
 * tile_static memory first, so that the threads of a tile share it (GPUs);
 * staged = 2 does so into two buffers in turn, one barrier per step;
 * staged = 0 reads the panels straight from device memory, which on a CPU
 * is already cached (PoCL). sgemm_tune.c holds the defaults, the
 * candidates the tuner tries, and the file where a device's best is kept.
 */
typedef struct sgemm_params {
    int staged; /* 1, 2: panels through tile_static memory, 1 or 2 buffers; 0: read directly */
    int ty, tx; /* threads per tile: rows, columns */
    int rm;     /* rows of C per thread (a multiple of 4 when staged) */
    int nv, vw; /* per thread: nv vectors of vw columns (vw 2, 4, 8 or 16) */
    int bk;     /* the depth of one staged step; 1 when not staged */
} sgemm_params;

/* How kernel 6 computes one product: its parameters, and into how many
 * parts K is split (1: not split). Each part is a tile of its own, and a
 * last kernel adds the parts up. */
typedef struct sgemm_plan {
    sgemm_params p;
    int splits;
} sgemm_plan;

/* Device memory that kernel 6 keeps between calls: A and B repacked into
 * panels, and the partial products of a split K, in views without host
 * memory (amp_array_view_create_extent). Start it zeroed ({0}); release it
 * with sgemm_workspace_release. */
typedef struct sgemm_workspace {
    amp_array_view *ap, *bp; /* the packed panels, on the device only */
    amp_array_view *part;    /* splits x M x N partial products */
    amp_extent a_extent, b_extent, part_extent;
} sgemm_workspace;

void sgemm_workspace_release(sgemm_workspace *ws);

/* On a CPU (staged = 0) the tiles go across groups of column panels, as
 * many as have their B panels in this many bytes, before the next rows of
 * A (sgemm_6_tuned.c). */
#define SGEMM_CPU_GROUP_BYTES (512 << 10)

/* C = A * B as plan says (sgemm_params_check must accept plan->p), on the
 * accelerator view av (NULL: the default view), or on the default view. */
amp_status sgemm_6_tuned_on(amp_accelerator_view *av, const sgemm_operands *op,
                            const sgemm_plan *plan, sgemm_workspace *ws);
amp_status sgemm_6_tuned(const sgemm_operands *op, const sgemm_plan *plan, sgemm_workspace *ws);


/* ---- Parameters for kernel 6 (sgemm_tune.c) ---- */

/* The plan that measured fastest at one size (sgemm_tune --explore). */
typedef struct sgemm_size_plan {
    int M, N, K;
    sgemm_plan plan;
    double gflops;
} sgemm_size_plan;

#define SGEMM_MAX_PLANS 32

/*
 * What a device was tuned to: one configuration for large products and one
 * with smaller tiles, each with the speed the tuner measured (GFLOP/s; 0
 * when not measured), the device's compute units, and the plans measured
 * fastest at some sizes. sgemm_tuning_pick takes a measured plan for a
 * product near its size, and otherwise chooses between the two
 * configurations, and whether to split K, by a model.
 */
typedef struct sgemm_tuning {
    sgemm_params large, small;
    double large_gflops, small_gflops;
    unsigned compute_units;
    int nplans;
    sgemm_size_plan plans[SGEMM_MAX_PLANS];
} sgemm_tuning;

/*
 * The plan for an M x N x K product on the tuned device. A plan measured at
 * a size whose M, N and K are each within SGEMM_PLAN_REACH of the
 * product's is taken as it is (the nearest, when several are): near sizes
 * can want different plans (1000 and 1024 on an H100) for reasons no model
 * of waves sees, such as how the tiles fall on the edges. Otherwise, for
 * each of the two configurations and each split of K into 1 to SGEMM_MAX_SPLITS parts
 * (each at least SGEMM_MIN_PART deep), a predicted time, and the least
 * wins. The compute units run the tiles in waves, one tile each; a wave
 * takes a tile's multiply-adds at the configuration's measured speed, and
 * a last wave that is partly empty costs as much as a full one. A split
 * makes more, shorter tiles, so that the waves come out fuller, and adds
 * the partial products: written, then read back and summed, which is
 * counted as moving their bytes at SGEMM_BALANCE floating-point operations
 * per byte (about what a GPU's or a CPU's arithmetic does in the time its
 * memory moves a byte).
 */
#define SGEMM_PLAN_REACH 1.125
#define SGEMM_MAX_SPLITS 16
#define SGEMM_MIN_PART 256
#define SGEMM_BALANCE 16.0
sgemm_plan sgemm_tuning_pick(const sgemm_tuning *t, int M, int N, int K);

/* The measured plan sgemm_tuning_pick takes for an M x N x K product, or
 * NULL when it takes the model's. */
const sgemm_size_plan *sgemm_tuning_measured(const sgemm_tuning *t, int M, int N, int K);

/* The sizes n x n x n at which the tuner measures plans unless told which
 * (sgemm_tune --explore), as "1000,1024,...": those of SGEMM_EXPLORE_SIZES
 * where the large configuration's tiles fill fewer than
 * SGEMM_EXPLORE_WAVES waves of the compute units. There a partly empty
 * last wave is a large share of the time, and the model's choice between
 * smaller tiles and parts of K turns on differences smaller than those
 * between runs (1000^3 on an H100 went from 0.90x to 0.86x cuBLAS when a
 * retuning measured the smaller tiles 1% slower); elsewhere the model's
 * waves are full and its choice holds. Returns how many sizes it wrote
 * (0 for a CPU, whose tiles are one thread's); buf gets "" when none or
 * when they do not fit in size. */
#define SGEMM_EXPLORE_SIZES {1000, 1024, 1250, 1500, 1750, 2048, 2049, 3000}
#define SGEMM_EXPLORE_WAVES 5
int sgemm_tuning_explore_sizes(const sgemm_params *large, unsigned compute_units, char *buf,
                               size_t size);

/* Good parameters for a device that was never tuned: CPUs read panels
 * directly, with float16 vectors where the device compiles for AVX-512 and
 * float8 otherwise; GPUs stage them in tile_static memory. */
sgemm_tuning sgemm_tuning_default(const amp_accelerator_info *info);

/* The x86 instruction set a CPU device compiles for, as the LLVM CPU in its
 * name says: PoCL names its device "pthread-<cpu>-<model>" (PoCL 3) or
 * "cpu-<cpu>-<model>", where <cpu> is what it compiles for, not
 * necessarily the CPU it runs on ("pthread-haswell-..." on an AVX-512 CPU
 * with POCL_KERNELLIB_NAME=avx2). */
typedef enum sgemm_isa {
    SGEMM_ISA_UNKNOWN = 0, /* the name does not say */
    SGEMM_ISA_AVX = 1,     /* 16 registers of 8 floats, no multiply-add */
    SGEMM_ISA_AVX2 = 2,    /* 16 registers of 8 floats */
    SGEMM_ISA_AVX512 = 3   /* 32 registers of 16 floats */
} sgemm_isa;
sgemm_isa sgemm_cpu_isa(const char *device_name);

/* NULL when p can run on the device, else why not. */
const char *sgemm_params_check(const sgemm_params *p, const amp_accelerator_info *info);

/* The parameters as one line, "staged x2 16x16 threads, 8 rows x 2 float4, bk 16". */
void sgemm_params_format(const sgemm_params *p, char *buf, size_t size);

/* The configurations the tuner measures on this device; *count is set. */
const sgemm_params *sgemm_params_candidates(const amp_accelerator_info *info, int *count);

/* The file that holds the device's tuned parameters:
 * ${AMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/amp}/tune-<device>.txt,
 * with every character of the device name other than [A-Za-z0-9._-] made
 * '_'; a part of a CPU split in parts (AMP_SPLIT_CPU, "NAME (part 1 of
 * 2)") has the whole CPU's file. Returns 0 when no directory is known (no
 * variable is set). */
int sgemm_tune_path(const amp_accelerator_info *info, char *buf, size_t size);

/* Where kernel 6's tuning came from (sgemm_tune_load). */
typedef struct sgemm_tuning_source {
    char path[1500];    /* the file it was read from; "" for the defaults */
    char refused[2100]; /* "" or "FILE was not used: why", a file that was there */
} sgemm_tuning_source;

/* Read the device's tuning into *t: its file in the cache directory
 * (sgemm_tune_path), or where there is none or it cannot be used, a file
 * of the same name that was measured on such a device and kept with the
 * sources (samples/sgemm_progression/measured/). Returns 1 when a file was
 * read that holds parameters the device accepts (measured plans it cannot
 * run are left out); 0 otherwise, with *t set to the defaults. A file that
 * is not a regular file, cannot be read, holds no line the reader knows,
 * or holds values the device cannot run is not used; from (when not NULL)
 * says which file was read and which was not used, and why. */
int sgemm_tune_load(const amp_accelerator_info *info, sgemm_tuning *t, sgemm_tuning_source *from);

/* Store t as the device's tuning; note is written into the file as a
 * comment (what was measured). Returns 0 on success, -1 (errno set) on
 * failure. */
int sgemm_tune_save(const amp_accelerator_info *info, const sgemm_tuning *t, const char *note);

/* ---- Across a set of accelerators (sgemm_set.c) ---- */

/*
 * The kernels write C at indices they compute, which the runtime cannot
 * prove apart, so a launch of one over a set runs whole on one view. They
 * split by blocks of rows instead: view k of the set computes rows of C
 * from the same rows of A and the whole of B, through sections of A and C
 * (amp_accelerator_set_partition gives the rows, in proportion to the
 * set's weights). Each view's block stays on its accelerator, B on every
 * one, so a product repeated with the same data moves nothing, and a read
 * of C on the host gathers each block from where it is.
 */

/* Kernel run_on (sgemm_1_naive_on ... sgemm_5_register_blocking_on)
 * across the set. */
amp_status sgemm_rows_on_set(amp_accelerator_set *set, const sgemm_operands *op,
                             amp_status (*run_on)(amp_accelerator_view *av,
                                                  const sgemm_operands *op));

/* Kernel 6 across the set: tunings and ws hold one entry per view of the
 * set, in its order (the workspaces zeroed at first), and each view's block
 * runs with the plan its tuning picks for that block. */
amp_status sgemm_6_tuned_on_set(amp_accelerator_set *set, const sgemm_operands *op,
                                const sgemm_tuning *tunings, sgemm_workspace *ws);

#endif
