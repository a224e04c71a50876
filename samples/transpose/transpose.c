/*
 * The C++ AMP matrix transpose through a tile_static tile, in C, on a
 * matrix whose sides are not multiples of the tile: 1000 x 700, 16 x 16
 * tiles. C++ AMP requires a tiled extent to divide into whole tiles; its
 * tiled_extent::pad() and truncate() are the two ways around that, and this
 * program uses each:
 *
 *   transpose_tiled_pad       rounds the extent up to 1008 x 704. Threads
 *                             past the matrix still load the tile and meet
 *                             at the barrier; only the threads inside it
 *                             write.
 *   transpose_tiled_truncate  rounds the extent down to 992 x 688 and
 *                             transposes that part with tiles; two untiled
 *                             kernels transpose the strips left over.
 *
 * Each result is checked against a plain transpose on the CPU.
 */
#include <stdio.h>
#include <stdlib.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define ROWS 1000
#define COLS 700

static const int TILE_SIZE = 16;

// Tile by tile: each thread reads one element of A into the tile, and after
// the barrier writes one element of the tile to At. Reads along rows of A
// and writes along rows of At are both contiguous; the tile is what turns
// the one into the other.
void transpose_tiled_pad(amp_array_view *A, amp_array_view *At)
{
    amp_extent e = amp_array_view_get_extent(A);
    int rows = e.dims[0];
    int cols = e.dims[1];
    amp_tiled_extent padded = amp_tiled_extent_pad(amp_extent_tile_2d(e, TILE_SIZE, TILE_SIZE));
    printf("padded extent: %d x %d\n", padded.extent.dims[0], padded.extent.dims[1]);

    check(AMP_PARALLEL_FOR_EACH(padded, t_idx, AMP_CAPTURE(A, At, rows, cols, AMP_CONST(TILE_SIZE)), {
        tile_static float t1[TILE_SIZE][TILE_SIZE];
        // Store the element transposed: t1[c][r] holds A(row r, column c)
        // of this tile. A thread past the matrix is guarded: what it reads
        // is unspecified, and lands where no thread reads it back.
        t1[t_idx.local[1]][t_idx.local[0]] = A(t_idx.global);
        t_idx.barrier.wait();

        // The part of this tile inside the matrix: rows_here x cols_here
        // elements of A, cols_here x rows_here elements of At.
        int rows_here = min(TILE_SIZE, rows - t_idx.tile_origin[0]);
        int cols_here = min(TILE_SIZE, cols - t_idx.tile_origin[1]);

        // Only the threads inside the matrix can write: the runtime drops
        // the writes of the others. There are exactly as many of them as
        // elements to write, so number them in order and let the k-th write
        // the k-th element of the transposed tile. In a whole tile that is
        // row local[0], column local[1], as in C++ AMP's even-size kernel.
        if (t_idx.global[0] < rows && t_idx.global[1] < cols) {
            int k = t_idx.local[0] * cols_here + t_idx.local[1];
            int r = k / rows_here;
            int c = k % rows_here;
            At(t_idx.tile_origin[1] + r, t_idx.tile_origin[0] + c) = t1[r][c];
        }
    }));
}

void transpose_tiled_truncate(amp_array_view *A, amp_array_view *At)
{
    amp_extent e = amp_array_view_get_extent(A);
    amp_tiled_extent truncated = amp_tiled_extent_truncate(amp_extent_tile_2d(e, TILE_SIZE, TILE_SIZE));
    int rows_done = truncated.extent.dims[0];
    int cols_done = truncated.extent.dims[1];
    printf("truncated extent: %d x %d\n", rows_done, cols_done);

    // Whole tiles only: no thread is past the matrix, so no guards.
    check(AMP_PARALLEL_FOR_EACH(truncated, t_idx, AMP_CAPTURE(A, At, AMP_CONST(TILE_SIZE)), {
        tile_static float t2[TILE_SIZE][TILE_SIZE];
        t2[t_idx.local[1]][t_idx.local[0]] = A(t_idx.global);
        t_idx.barrier.wait();
        At(t_idx.tile_origin[1] + t_idx.local[0], t_idx.tile_origin[0] + t_idx.local[1]) =
            t2[t_idx.local[0]][t_idx.local[1]];
    }));

    // What truncate() left out: the columns past cols_done (every row), then
    // the rows past rows_done (the columns before cols_done). These strips
    // are thin, so plain untiled kernels do them, one element per thread.
    int cols_left = e.dims[1] - cols_done;
    int rows_left = e.dims[0] - rows_done;
    printf("  then untiled: %d x %d on the right, %d x %d at the bottom\n", e.dims[0], cols_left,
           rows_left, cols_done);
    if (cols_left > 0) {
        check(AMP_PARALLEL_FOR_EACH(amp_extent_2d(e.dims[0], cols_left), idx,
                                    AMP_CAPTURE(A, At, cols_done), {
            At(cols_done + idx[1], idx[0]) = A(idx[0], cols_done + idx[1]);
        }));
    }
    if (rows_left > 0) {
        check(AMP_PARALLEL_FOR_EACH(amp_extent_2d(rows_left, cols_done), idx,
                                    AMP_CAPTURE(A, At, rows_done), {
            At(idx[1], rows_done + idx[0]) = A(rows_done + idx[0], idx[1]);
        }));
    }
}

// Run one transpose of A into a fresh At, print three of its elements and
// compare it with the CPU's transpose. At starts as -1 everywhere and is
// not discarded, so that an element no thread writes shows as a mismatch.
static int run_and_check(void (*transpose)(amp_array_view *, amp_array_view *), amp_array_view *A,
                         const float *expected)
{
    float *at = malloc(sizeof(float) * ROWS * COLS);
    if (!at) {
        fprintf(stderr, "out of memory\n");
        exit(EXIT_FAILURE);
    }
    for (int i = 0; i < ROWS * COLS; i++) {
        at[i] = -1.0f;
    }
    amp_array_view *At;
    check(amp_array_view_create(AMP_FLOAT, amp_extent_2d(COLS, ROWS), at, &At));

    transpose(A, At);

    check(amp_array_view_synchronize(At));
    printf("  At(1, 0) = %g, At(350, 500) = %g, At(%d, %d) = %g\n", at[1 * ROWS + 0],
           at[350 * ROWS + 500], COLS - 1, ROWS - 1, at[(COLS - 1) * ROWS + ROWS - 1]);
    int mismatches = 0;
    for (int i = 0; i < ROWS * COLS; i++) {
        mismatches += at[i] != expected[i];
    }
    printf("  matches the CPU: %s\n", mismatches == 0 ? "yes" : "no");

    check(amp_array_view_release(At));
    free(at);
    return mismatches == 0;
}

int main(void)
{
    float *a = malloc(sizeof(float) * ROWS * COLS);
    float *expected = malloc(sizeof(float) * ROWS * COLS);
    if (!a || !expected) {
        fprintf(stderr, "out of memory\n");
        return EXIT_FAILURE;
    }
    // A(i, j) = i * COLS + j: every element different, and exact in a float.
    for (int i = 0; i < ROWS; i++) {
        for (int j = 0; j < COLS; j++) {
            a[i * COLS + j] = (float)(i * COLS + j);
            expected[j * ROWS + i] = (float)(i * COLS + j);
        }
    }
    amp_array_view *A;
    check(amp_array_view_create_const(AMP_FLOAT, amp_extent_2d(ROWS, COLS), a, &A));

    printf("Transpose of a %d x %d matrix, %d x %d tiles\n", ROWS, COLS, TILE_SIZE, TILE_SIZE);
    int pad_ok = run_and_check(transpose_tiled_pad, A, expected);
    int truncate_ok = run_and_check(transpose_tiled_truncate, A, expected);

    check(amp_array_view_release(A));
    free(a);
    free(expected);
    return pad_ok && truncate_ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
