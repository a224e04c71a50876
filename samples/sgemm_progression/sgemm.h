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
 * staged = 0 reads the panels straight from device memory, which on a CPU
 * is already cached (PoCL). sgemm_tune.c holds the defaults, the
 * candidates the tuner tries, and the file where a device's best is kept.
 */
typedef struct sgemm_params {
    int staged; /* 1: panels through tile_static memory; 0: read directly */
    int ty, tx; /* threads per tile: rows, columns */
    int rm;     /* rows of C per thread (a multiple of 4 when staged) */
    int nv, vw; /* per thread: nv vectors of vw columns (vw 1, 2, 4, 8 or 16) */
    int bk;     /* the depth of one staged step; 1 when not staged */
} sgemm_params;

/* Device memory that kernel 6 keeps between calls: A and B repacked into
 * panels, in views without host memory (amp_array_view_create_extent).
 * Start it zeroed ({0}); release it with sgemm_workspace_release. */
typedef struct sgemm_workspace {
    amp_array_view *ap, *bp; /* the packed panels, on the device only */
    amp_extent a_extent, b_extent;
} sgemm_workspace;

void sgemm_workspace_release(sgemm_workspace *ws);

/* C = A * B with the parameters p (sgemm_params_check must accept them). */
amp_status sgemm_6_tuned(const sgemm_operands *op, const sgemm_params *p, sgemm_workspace *ws);

/* ---- Parameters for kernel 6 (sgemm_tune.c) ---- */

/*
 * What a device was tuned to: one configuration for large products and one
 * for small ones, where large tiles would leave much of a GPU idle (a
 * 1000 x 1000 C is only 64 tiles of 128 x 128). Products whose M * N is
 * below small_below^2 use small; small_below = 0 means never.
 */
typedef struct sgemm_tuning {
    sgemm_params large, small;
    int small_below;
} sgemm_tuning;

/* The configuration of t for an M x N product. */
const sgemm_params *sgemm_tuning_pick(const sgemm_tuning *t, int M, int N);

/* Good parameters for a device that was never tuned: CPUs read panels
 * directly with float16 vectors, GPUs stage them in tile_static memory. */
sgemm_tuning sgemm_tuning_default(const amp_accelerator_info *info);

/* NULL when p can run on the device, else why not. */
const char *sgemm_params_check(const sgemm_params *p, const amp_accelerator_info *info);

/* The parameters as one line, "staged 16x16 threads, 8 rows x 2 float4, bk 16". */
void sgemm_params_format(const sgemm_params *p, char *buf, size_t size);

/* The configurations the tuner measures on this device; *count is set. */
const sgemm_params *sgemm_params_candidates(const amp_accelerator_info *info, int *count);

/* The file that holds the device's tuned parameters:
 * ${AMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/amp}/tune-<device>.txt,
 * with every character of the device name other than [A-Za-z0-9._-] made
 * '_'. Returns 0 when no directory is known (no variable is set). */
int sgemm_tune_path(const amp_accelerator_info *info, char *buf, size_t size);

/* Read the device's tuning into *t. Returns 1 when the file was there and
 * held parameters the device accepts; 0 otherwise, with *t set to the
 * defaults. */
int sgemm_tune_load(const amp_accelerator_info *info, sgemm_tuning *t);

/* Store t as the device's tuning; note is written into the file as a
 * comment (what was measured). Returns 0 on success, -1 (errno set) on
 * failure. */
int sgemm_tune_save(const amp_accelerator_info *info, const sgemm_tuning *t, const char *note);

#endif
