/*
 * A heat stencil across MPI ranks, each rank on its own accelerator.
 *
 *   mpirun -np 2 build/samples/mpi_stencil [--check] [--rows R] [--cols C] [--steps S]
 *
 * The grid (R x C, default 4096 x 4096) is cut into blocks of rows, one per
 * rank; each step every cell moves toward the mean of its four neighbours
 * (Jacobi), the top edge held at 100 and the bottom at 0, the sides
 * insulated. A rank keeps its block with one halo row above and below, in
 * page-locked host memory (amp_host_alloc) under array views, so that its
 * accelerator reads and writes it at the speed of the link:
 *
 *   1. the kernel computes the block's next state on the accelerator;
 *   2. only the block's first and last rows come to the host (a
 *      synchronize of a section of one row each): the rest stays there;
 *   3. MPI sends those rows to the neighbours straight from that memory,
 *      and receives theirs straight into the halo rows: no copy of our own;
 *   4. a refresh of the halo rows' sections says the host wrote them, and
 *      the next kernel uploads those two rows and nothing else.
 *
 * Each rank takes the accelerator of its local rank on the machine
 * (OMPI_COMM_WORLD_LOCAL_RANK, or MPI's shared-memory split elsewhere)
 * among every accelerator of the default's kind: one GPU per rank, or one
 * part of the CPU per rank under AMP_SPLIT_CPU=N. Rank 0 then runs the
 * whole grid alone, on its own accelerator, with the same kernel, and the
 * two results must be equal bit for bit. It prints the time per step, as
 * the slowest rank saw it, and the one-rank run's.
 *
 * --check runs a small grid whose rows do not divide by the ranks, and
 * prints only whether the result was right: the sample's test.
 */
#define _POSIX_C_SOURCE 200809L

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define TOP 100.0f
#define BOTTOM 0.0f

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One step: rows 1 .. rows of next from cur (rows + 2 rows, the halos
 * included). */
static amp_status step(amp_accelerator_view *av, amp_array_view *cur, amp_array_view *next,
                       int rows, int cols)
{
    return AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_2d(rows, cols), idx, AMP_CAPTURE(cur, next, cols), {
        int r = idx[0] + 1, c = idx[1];
        float here = cur(r, c);
        float left = c > 0 ? cur(r, c - 1) : here;
        float right = c + 1 < cols ? cur(r, c + 1) : here;
        next(r, c) = here + 0.2f * (cur(r - 1, c) + cur(r + 1, c) + left + right - 4.0f * here);
    });
}

/* A block of rows with its two halo rows, in page-locked host memory, and
 * the views of it: the whole, and one row each of the edges that move. */
typedef struct block {
    int rows, cols;
    float *host;
    amp_array_view *all, *first, *last, *above, *below;
} block;

/* The starting state, written on the host (which the views are told). */
static void block_fill(block *b, int first_row, int top_rank, int bottom_rank)
{
    int rows = b->rows, cols = b->cols;
    for (int r = 0; r < rows + 2; r++)
        for (int c = 0; c < cols; c++) {
            int g = first_row + r - 1; /* the row of the whole grid */
            float x = (float)((g * 7 + c * 13) % 101) * 0.5f;
            if (r == 0)
                x = top_rank ? TOP : 0.0f;
            if (r == rows + 1)
                x = bottom_rank ? BOTTOM : 0.0f;
            b->host[(size_t)r * cols + c] = x;
        }
    if (b->all)
        check(amp_array_view_refresh(b->all));
}

static void block_make(block *b, amp_accelerator_view *av, int first_row, int rows, int cols,
                       int top_rank, int bottom_rank)
{
    size_t n = (size_t)(rows + 2) * cols;
    b->rows = rows;
    b->cols = cols;
    b->all = NULL;
    check(amp_host_alloc(n * sizeof *b->host, av, (void **)&b->host));
    block_fill(b, first_row, top_rank, bottom_rank);
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(rows + 2, cols), b->host, &b->all));
    amp_extent row = amp_extent_2d(1, cols);
    check(amp_array_view_section(b->all, amp_index_2d(1, 0), row, &b->first));
    check(amp_array_view_section(b->all, amp_index_2d(rows, 0), row, &b->last));
    check(amp_array_view_section(b->all, amp_index_2d(0, 0), row, &b->above));
    check(amp_array_view_section(b->all, amp_index_2d(rows + 1, 0), row, &b->below));
}

static void block_free(block *b)
{
    check(amp_array_view_release(b->first));
    check(amp_array_view_release(b->last));
    check(amp_array_view_release(b->above));
    check(amp_array_view_release(b->below));
    check(amp_array_view_release(b->all));
    check(amp_host_free(b->host));
}

/* The halos of b from the neighbours (MPI_PROC_NULL at the grid's edges),
 * through the page-locked rows themselves. */
static void exchange(block *b, int up, int down)
{
    float *first = b->host + b->cols, *last = b->host + (size_t)b->rows * b->cols;
    float *above = b->host, *below = b->host + (size_t)(b->rows + 1) * b->cols;
    if (up != MPI_PROC_NULL)
        check(amp_array_view_synchronize(b->first));
    if (down != MPI_PROC_NULL)
        check(amp_array_view_synchronize(b->last));
    MPI_Sendrecv(first, b->cols, MPI_FLOAT, up, 0, below, b->cols, MPI_FLOAT, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(last, b->cols, MPI_FLOAT, down, 1, above, b->cols, MPI_FLOAT, up, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (up != MPI_PROC_NULL)
        check(amp_array_view_refresh(b->above));
    if (down != MPI_PROC_NULL)
        check(amp_array_view_refresh(b->below));
}

/* steps steps over the pair of blocks; the result is in pair[steps % 2]. */
static void run(amp_accelerator_view *av, block pair[2], int steps, int up, int down)
{
    exchange(&pair[0], up, down);
    for (int s = 0; s < steps; s++) {
        block *cur = &pair[s % 2], *next = &pair[(s + 1) % 2];
        check(step(av, cur->all, next->all, cur->rows, cur->cols));
        exchange(next, up, down);
    }
}

/* The accelerator of this process's rank on its machine. */
static amp_accelerator_view *my_accelerator(int *local, size_t *of)
{
    const char *env = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    if (env) {
        *local = atoi(env);
    } else {
        MPI_Comm node;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
        MPI_Comm_rank(node, local);
        MPI_Comm_free(&node);
    }
    amp_accelerator_set *every;
    amp_accelerator_view *av;
    check(amp_accelerator_set_create(NULL, 0, NULL, &every));
    *of = amp_accelerator_set_size(every);
    check(amp_accelerator_set_get_view(every, (size_t)*local % *of, &av));
    check(amp_accelerator_set_release(every)); /* a default view: the library's */
    return av;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int rows = 4096, cols = 4096, steps = 100, check_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) {
            check_only = 1;
            rows = 131;
            cols = 70;
            steps = 40;
        } else if (strcmp(argv[i], "--rows") == 0 && i + 1 < argc) {
            rows = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--cols") == 0 && i + 1 < argc) {
            cols = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            steps = atoi(argv[++i]);
        } else {
            if (rank == 0)
                fprintf(stderr, "usage: %s [--check] [--rows R] [--cols C] [--steps S]\n",
                        argv[0]);
            MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
        }
    }
    if (rows < ranks || cols < 1 || steps < 1) {
        if (rank == 0)
            fprintf(stderr, "error: %d rows for %d ranks, %d columns, %d steps\n", rows, ranks,
                    cols, steps);
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
    }

    int local;
    size_t accelerators;
    amp_accelerator_view *av = my_accelerator(&local, &accelerators);
    amp_accelerator_info info;
    check(amp_accelerator_get_info(amp_accelerator_view_get_accelerator(av), &info));
    if (!check_only)
        printf("rank %d (local rank %d): %s, accelerator %zu of %zu\n", rank, local,
               info.description, (size_t)local % accelerators + 1, accelerators);
    fflush(stdout);

    /* This rank's rows: as even a share as the rows allow. */
    int mine = rows / ranks + (rank < rows % ranks);
    int first_row = rank * (rows / ranks) + (rank < rows % ranks ? rank : rows % ranks);
    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank + 1 < ranks ? rank + 1 : MPI_PROC_NULL;
    block pair[2];
    for (int k = 0; k < 2; k++)
        block_make(&pair[k], av, first_row, mine, cols, up == MPI_PROC_NULL, down == MPI_PROC_NULL);

    /* Two steps to compile the kernel and move the blocks; then from the
     * start again, timed. */
    run(av, pair, 2, up, down);
    check(amp_array_view_synchronize(pair[0].all));
    for (int k = 0; k < 2; k++)
        block_fill(&pair[k], first_row, up == MPI_PROC_NULL, down == MPI_PROC_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now();
    run(av, pair, steps, up, down);
    block *result = &pair[steps % 2];
    check(amp_array_view_synchronize(result->all));
    double mine_time = now() - t0, slowest = 0;
    MPI_Reduce(&mine_time, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* The whole grid on rank 0: each rank's rows, in order. */
    int *counts = NULL, *offsets = NULL;
    float *whole = NULL;
    if (rank == 0) {
        counts = malloc((size_t)ranks * sizeof *counts);
        offsets = malloc((size_t)ranks * sizeof *offsets);
        whole = malloc((size_t)rows * cols * sizeof *whole);
        if (!counts || !offsets || !whole) {
            fprintf(stderr, "error: out of host memory\n");
            MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE);
        }
        for (int r = 0, at = 0; r < ranks; r++) {
            counts[r] = (rows / ranks + (r < rows % ranks)) * cols;
            offsets[r] = at;
            at += counts[r];
        }
    }
    MPI_Gatherv(result->host + cols, mine * cols, MPI_FLOAT, whole, counts, offsets, MPI_FLOAT, 0,
                MPI_COMM_WORLD);

    int right = 1;
    if (rank == 0) {
        /* One rank alone: the whole grid, on this rank's accelerator. */
        block alone[2];
        for (int k = 0; k < 2; k++)
            block_make(&alone[k], av, 0, rows, cols, 1, 1);
        double t1 = now();
        run(av, alone, steps, MPI_PROC_NULL, MPI_PROC_NULL);
        check(amp_array_view_synchronize(alone[steps % 2].all));
        double one_time = now() - t1;
        right = memcmp(whole, alone[steps % 2].host + cols, (size_t)rows * cols * sizeof *whole) == 0;
        printf("Heat stencil, %d x %d, %d steps, %d rank%s: %s one rank's result, bit for bit\n",
               rows, cols, steps, ranks, ranks == 1 ? "" : "s", right ? "equal to" : "NOT equal to");
        if (!check_only)
            printf("  %d rank%s: %.3f ms per step; 1 rank (rank 0 alone): %.3f ms per step\n",
                   ranks, ranks == 1 ? "" : "s", slowest / steps * 1e3, one_time / steps * 1e3);
        for (int k = 0; k < 2; k++)
            block_free(&alone[k]);
    }
    MPI_Bcast(&right, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int k = 0; k < 2; k++)
        block_free(&pair[k]);
    free(counts);
    free(offsets);
    free(whole);
    check(amp_shutdown());
    MPI_Finalize();
    return right ? EXIT_SUCCESS : EXIT_FAILURE;
}
