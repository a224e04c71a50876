/*
 * Conway's Game of Life, one generation per tiled parallel_for_each: each
 * 16 x 16 tile copies its cells and a one-cell halo around them into
 * tile_static memory, waits at the barrier, and counts every cell's eight
 * neighbours from there. Without the tile, each cell would be read nine
 * times from device memory; with it, about 1.3 times.
 *
 * This program was ported from the usual C++ AMP stencil pattern using only
 * the project's README.md and docs/ (docs/tutorial.md lists what that took).
 *
 * The grid is 50 x 70 cells, a size that is a multiple of no tile: the
 * domain is padded to whole tiles, and cells outside the grid are dead.
 * Two views take turns as the source and the destination. The destination
 * is discarded before each generation, since the kernel writes every cell
 * of it: it is never uploaded. Every 50 generations the host synchronizes,
 * counts the living cells, and compares the grid with the same generations
 * computed on the CPU.
 */
#include <stdio.h>
#include <string.h>

#include <amp/amp.h>

#include "../common/sample_check.h"

#define ROWS 50
#define COLS 70
#define GENERATIONS 200
#define REPORT_EVERY 50

static const int TS = 16;

/* One generation on the device: src -> dst. */
static void step(amp_array_view *src, amp_array_view *dst)
{
    amp_tiled_extent domain =
        amp_tiled_extent_pad(amp_extent_tile_2d(amp_array_view_get_extent(src), TS, TS));
    check(amp_array_view_discard_data(dst));
    check(AMP_PARALLEL_FOR_EACH(domain, t_idx, AMP_CAPTURE(src, dst, AMP_CONST(TS)), {
        // The tile's cells and a halo of one cell on each side; the
        // threads load it in steps of the tile's size, so each loads one
        // to four cells. Cells outside the grid are dead.
        tile_static int cells[TS + 2][TS + 2];
        for (int i = t_idx.local[0]; i < TS + 2; i += TS) {
            for (int j = t_idx.local[1]; j < TS + 2; j += TS) {
                int row = t_idx.tile_origin[0] + i - 1;
                int col = t_idx.tile_origin[1] + j - 1;
                int inside = row >= 0 && row < src_extent[0] && col >= 0 && col < src_extent[1];
                cells[i][j] = inside ? src(row, col) : 0;
            }
        }
        t_idx.barrier.wait();

        // Threads of the padding took part in the loading; they write nothing.
        int row = t_idx.global[0];
        int col = t_idx.global[1];
        if (row < dst_extent[0] && col < dst_extent[1]) {
            int i = t_idx.local[0] + 1;
            int j = t_idx.local[1] + 1;
            int neighbours = cells[i - 1][j - 1] + cells[i - 1][j] + cells[i - 1][j + 1]
                           + cells[i][j - 1] + cells[i][j + 1]
                           + cells[i + 1][j - 1] + cells[i + 1][j] + cells[i + 1][j + 1];
            dst(row, col) = neighbours == 3 || (cells[i][j] && neighbours == 2);
        }
    }));
}

/* One generation on the CPU, with the same rules. */
static void cpu_step(const int *src, int *dst)
{
    for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLS; c++) {
            int neighbours = 0;
            for (int dr = -1; dr <= 1; dr++)
                for (int dc = -1; dc <= 1; dc++)
                    if ((dr || dc) && r + dr >= 0 && r + dr < ROWS && c + dc >= 0 && c + dc < COLS)
                        neighbours += src[(r + dr) * COLS + c + dc];
            dst[r * COLS + c] = neighbours == 3 || (src[r * COLS + c] && neighbours == 2);
        }
    }
}

static int population(const int *grid)
{
    int alive = 0;
    for (int k = 0; k < ROWS * COLS; k++)
        alive += grid[k];
    return alive;
}

/* A pattern of '#' and '.' rows, placed with its corner at (row, col). */
static void place(int *grid, int row, int col, const char *const *pattern, int lines)
{
    for (int r = 0; r < lines; r++)
        for (int c = 0; pattern[r][c]; c++)
            grid[(row + r) * COLS + col + c] = pattern[r][c] == '#';
}

static int grid_a[ROWS * COLS], grid_b[ROWS * COLS];
static int cpu_a[ROWS * COLS], cpu_b[ROWS * COLS];

int main(void)
{
    static const char *const glider[] = {".#.", "..#", "###"};
    static const char *const r_pentomino[] = {".##", "##.", ".#."};
    place(grid_a, 2, 2, glider, 3);
    place(grid_a, 24, 34, r_pentomino, 3);
    memcpy(cpu_a, grid_a, sizeof grid_a);

    amp_array_view *src, *dst;
    check(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), grid_a, &src));
    check(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), grid_b, &dst));
    int *cpu_src = cpu_a, *cpu_dst = cpu_b;
    amp_transfer_reset_stats();

    printf("Game of Life, %d x %d cells, tiles of %d x %d\n", ROWS, COLS, TS, TS);
    printf("generation   0: %3d alive\n", population(grid_a));
    for (int generation = 1; generation <= GENERATIONS; generation++) {
        step(src, dst);
        amp_array_view *swap = src;
        src = dst;
        dst = swap;
        cpu_step(cpu_src, cpu_dst);
        int *cpu_swap = cpu_src;
        cpu_src = cpu_dst;
        cpu_dst = cpu_swap;

        if (generation % REPORT_EVERY == 0) {
            const void *cells;
            check(amp_array_view_data_const(src, &cells));
            int same = memcmp(cells, cpu_src, sizeof grid_a) == 0;
            printf("generation %3d: %3d alive, %s the CPU's grid\n", generation,
                   population(cells), same ? "same as" : "DIFFERENT FROM");
            if (!same)
                return 1;
        }
    }

    // One upload (the first grid), one download per report: nothing else.
    amp_transfer_stats moved;
    check(amp_transfer_get_stats(&moved));
    printf("transfers: %llu uploads, %llu downloads of %d bytes\n",
           (unsigned long long)moved.uploads, (unsigned long long)moved.downloads,
           (int)(ROWS * COLS * sizeof(int)));

    check(amp_array_view_release(src));
    check(amp_array_view_release(dst));
    return 0;
}
