/*
 * tests/conformance/conf_restrict_amp.c - C++ AMP 1.2, chapter 2 (the
 * restrict(amp) functions a kernel calls, and the tile_static storage class
 * of their local variables) and section 4.5 (tile_barrier) as such
 * functions use them: a function declares tile_static variables and waits
 * at the tile's barrier, given the tiled_index or the barrier itself.
 *
 * Each test, and the section it comes from:
 *
 * tile_static_2_declared_in_a_restrict_amp_function
 *     2 tile_static arrays local to a restrict(amp) function, shared by the
 *     threads of a tile (a tile's inclusive scan, as AMD's radix sort has it)
 * tile_static_2_a_scalar_in_a_function_is_shared_by_the_tile
 *     2 a tile_static int of a function: one thread writes, all read
 * tile_static_2_one_variable_for_every_call_in_a_tile
 *     2 "its lifetime ... ends when the kernel function returns": two calls
 *     of one function in a tile see the same variable
 * tile_static_2_in_a_function_called_by_another
 *     2 a function that calls one with tile_static variables, from a kernel
 *     that calls both
 * tile_static_2_in_a_block_of_a_function
 *     2 tile_static declarations in a function's inner blocks, the same name
 *     in two of them
 * tile_static_2_two_functions_with_variables_of_one_name
 *     2 each function's variable is its own
 * tile_static_2_in_a_function_without_parameters
 *     2 f(void) with a tile_static variable
 * tile_static_2_of_a_struct_type_in_a_function
 *     2 tile_static of a registered struct type, in a function
 * tile_static_2_sized_by_a_constant_in_a_function
 *     2 a tile_static array sized by an AMP_CONST, in a function
 * tile_static_2_a_function_in_kernels_of_two_tile_shapes
 *     2 one function called by two kernels, each of its own tiles
 * tile_static_2_in_a_function_of_an_untiled_kernel_is_refused
 *     2 "a tile_static variable declared in a call graph rooted by a
 *     non-tiled parallel_for_each": refused before it is built
 * tile_barrier_4_5_3_wait_in_a_restrict_amp_function
 *     4.5.3 wait() through a tiled_index given to a function
 * tile_barrier_4_5_3_wait_through_a_tile_barrier_parameter
 *     4.5.3 wait() on a tile_barrier given to a function by const reference
 * tile_barrier_4_5_3_fenced_waits_in_a_function
 *     4.5.3 wait_with_tile_static_memory_fence(), wait_with_all_memory_fence()
 * tiled_index_4_4_given_by_const_reference
 *     4.4 a const tiled_index<D0, D1>& parameter, members and barrier
 * tile_static_2_in_a_function_a_kernel_file_calls
 *     2 a function with tile_static variables called from a kernel file
 * restrict_amp_2_digraphs_are_the_brackets_they_spell
 *     2 (and C++11 2.6) <: :> <% %> in restrict(amp) code
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "conf_util.h"

enum { T = 16, N = 64 };

/* The inclusive scan of one tile's values in tile_static memory, with the
 * tile's total, as AMD's radix sort has its Scan(). */
AMP_FUNCTION(int, tile_scan, (tiled_index<16> t_idx, int value), {
    tile_static int values[16];
    tile_static int total;
    int lid = t_idx.local[0];
    values[lid] = value;
    t_idx.barrier.wait();
    for (int offset = 1; offset < 16; offset *= 2) {
        int add = lid >= offset ? values[lid - offset] : 0;
        t_idx.barrier.wait();
        values[lid] += add;
        t_idx.barrier.wait();
    }
    if (lid == 15)
        total = values[15];
    t_idx.barrier.wait();
    return values[lid] * 1000 + total;
});

/* The scan of k + 1 in each tile of 16: (l + 1)(l + 2)/2 at local l, and
 * the tile's total, 136. */
static void tile_static_2_declared_in_a_restrict_amp_function(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, tile_scan), {
        v[t_idx] = tile_scan(t_idx, t_idx.local[0] + 1);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++) {
        int l = g % T;
        assert_int_equal(out[g], (l + 1) * (l + 2) / 2 * 1000 + 136);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* One thread of the tile sets a tile_static int; after the barrier every
 * thread reads it. */
AMP_FUNCTION(int, tile_first, (tiled_index<16> t_idx, int value), {
    tile_static int first;
    if (t_idx.local[0] == 0)
        first = value;
    t_idx.barrier.wait();
    int seen = first;
    t_idx.barrier.wait();
    return seen;
});

static void tile_static_2_a_scalar_in_a_function_is_shared_by_the_tile(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, tile_first), {
        v[t_idx] = tile_first(t_idx, t_idx.global[0] * 3 + 7);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], g / T * T * 3 + 7);
    assert_amp_ok(amp_array_view_release(v));
}

/* A function that adds to a tile_static counter it never clears: a second
 * call in the tile finds what the first left. */
AMP_FUNCTION(int, tile_count, (tiled_index<16> t_idx, int reset), {
    tile_static int count;
    if (reset && t_idx.local[0] == 0)
        count = 0;
    t_idx.barrier.wait();
    atomic_fetch_add(&count, 1);
    t_idx.barrier.wait();
    int seen = count;
    t_idx.barrier.wait();
    return seen;
});

static void tile_static_2_one_variable_for_every_call_in_a_tile(void **state)
{
    (void)state;
    static int out[N * 2];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(N, 2), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, tile_count), {
        int first = tile_count(t_idx, 1);
        int second = tile_count(t_idx, 0);
        v(t_idx.global[0], 0) = first;
        v(t_idx.global[0], 1) = second;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++) {
        int want[2] = {T, 2 * T};
        assert_ints(out + 2 * g, want, 2);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* tile_total calls tile_scan: the kernel calls both, and tile_scan's
 * variables are one pair, passed through tile_total. */
AMP_FUNCTION(int, tile_total, (tiled_index<16> t_idx, int value), {
    tile_static int twice;
    int total = tile_scan(t_idx, value) % 1000;
    if (t_idx.local[0] == 0)
        twice = 2 * total;
    t_idx.barrier.wait();
    return twice;
});

static void tile_static_2_in_a_function_called_by_another(void **state)
{
    (void)state;
    static int out[N * 2];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(N, 2), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, tile_scan, tile_total), {
        v(t_idx.global[0], 0) = tile_total(t_idx, 1);
        v(t_idx.global[0], 1) = tile_scan(t_idx, 2) / 1000;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++) {
        /* twice the tile's total of ones; the scan of twos */
        int want[2] = {2 * T, 2 * (g % T + 1)};
        assert_ints(out + 2 * g, want, 2);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* Two blocks of a function declare their own tile_static buffer. */
AMP_FUNCTION(int, reversed_twice, (tiled_index<16> t_idx, int value), {
    int l = t_idx.local[0];
    int result = 0;
    {
        tile_static int buffer[16];
        buffer[l] = value;
        t_idx.barrier.wait();
        result = buffer[15 - l];
    }
    {
        tile_static float buffer[16];
        buffer[l] = (float)result * 2.0f;
        t_idx.barrier.wait();
        result += (int)buffer[15 - l];
    }
    return result;
});

static void tile_static_2_in_a_block_of_a_function(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, reversed_twice), {
        v[t_idx] = reversed_twice(t_idx, t_idx.global[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++) {
        int tile = g / T * T, l = g % T;
        /* the first block reverses, the second reverses back, doubled */
        assert_int_equal(out[g], tile + (T - 1 - l) + 2 * (tile + l));
    }
    assert_amp_ok(amp_array_view_release(v));
}

AMP_FUNCTION(int, left_neighbour, (tiled_index<16> t_idx, int value), {
    tile_static int cells[16];
    cells[t_idx.local[0]] = value;
    t_idx.barrier.wait();
    int got = cells[(t_idx.local[0] + 15) % 16];
    t_idx.barrier.wait();
    return got;
});

AMP_FUNCTION(int, right_neighbour, (tiled_index<16> t_idx, int value), {
    tile_static int cells[16];
    cells[t_idx.local[0]] = value;
    t_idx.barrier.wait();
    int got = cells[(t_idx.local[0] + 1) % 16];
    t_idx.barrier.wait();
    return got;
});

/* Two functions each with a tile_static 'cells': if they shared one, the
 * second call would find the first's values. */
static void tile_static_2_two_functions_with_variables_of_one_name(void **state)
{
    (void)state;
    static int out[N * 2];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(N, 2), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, left_neighbour, right_neighbour), {
        int g = t_idx.global[0];
        int left = left_neighbour(t_idx, g);
        int right = right_neighbour(t_idx, -g);
        v(g, 0) = left;
        v(g, 1) = right;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++) {
        int tile = g / T * T, l = g % T;
        int want[2] = {tile + (l + T - 1) % T, -(tile + (l + 1) % T)};
        assert_ints(out + 2 * g, want, 2);
    }
    assert_amp_ok(amp_array_view_release(v));
}

/* A function without parameters has a tile_static array: (void) takes it
 * alone. */
AMP_FUNCTION(int, tile_static_bytes, (void), {
    tile_static int cells[4];
    return (int)sizeof cells;
});

static void tile_static_2_in_a_function_without_parameters(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, tile_static_bytes), {
        v[t_idx] = tile_static_bytes() + t_idx.global[0];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], g + 16);
    assert_amp_ok(amp_array_view_release(v));
}

AMP_STRUCT(pair, (int, low), (int, high));

/* A tile_static array of structs: each thread fills one, and reads its
 * neighbour's. */
AMP_FUNCTION(int, swap_pairs, (tiled_index<16> t_idx, int value), {
    tile_static pair pairs[16];
    pairs[t_idx.local[0]].low = value;
    pairs[t_idx.local[0]].high = value * 10;
    t_idx.barrier.wait();
    pair other = pairs[t_idx.local[0] ^ 1];
    return other.low + other.high;
});

static void tile_static_2_of_a_struct_type_in_a_function(void **state)
{
    (void)state;
    static int out[N];
    amp_elem_type pair_type;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(pair), &pair_type));
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, swap_pairs), {
        v[t_idx] = swap_pairs(t_idx, t_idx.global[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], 11 * (g ^ 1));
    assert_amp_ok(amp_array_view_release(v));
}

/* The array's size is an AMP_CONST the kernel captures. */
AMP_FUNCTION(int, mirrored, (tiled_index<16> t_idx, int value), {
    tile_static int cells[TILE];
    cells[t_idx.local[0]] = value;
    t_idx.barrier.wait();
    return cells[TILE - 1 - t_idx.local[0]];
});

static void tile_static_2_sized_by_a_constant_in_a_function(void **state)
{
    (void)state;
    enum { TILE = 16 };
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, AMP_CONST(TILE), mirrored), {
        v[t_idx] = mirrored(t_idx, t_idx.global[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], g / T * T + T - 1 - g % T);
    assert_amp_ok(amp_array_view_release(v));
}

/* The sum of a tile's values through a tile_static array of the largest
 * tile, whatever the kernel's tile. */
AMP_FUNCTION(int, tile_sum, (tiled_index<8> t_idx, int value), {
    tile_static int parts[8];
    parts[t_idx.local[0]] = value;
    t_idx.barrier.wait();
    int sum = 0;
    for (int k = 0; k < 8; k++)
        sum += parts[k];
    t_idx.barrier.wait();
    return sum;
});

/* One function in two kernels: each declares the function's variables. */
static void tile_static_2_a_function_in_kernels_of_two_tile_shapes(void **state)
{
    (void)state;
    static int a[N], b[N];
    amp_array_view *av, *bv;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), a, &av));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), b, &bv));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), 8), t_idx,
                                              AMP_CAPTURE(av, tile_sum), {
        av[t_idx] = tile_sum(t_idx, 1);
    }));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), 8), t_idx,
                                              AMP_CAPTURE(bv, tile_sum), {
        bv[t_idx] = tile_sum(t_idx, t_idx.tile[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(av));
    assert_amp_ok(amp_array_view_synchronize(bv));
    for (int g = 0; g < N; g++) {
        assert_int_equal(a[g], 8);
        assert_int_equal(b[g], 8 * (g / 8));
    }
    assert_amp_ok(amp_array_view_release(av));
    assert_amp_ok(amp_array_view_release(bv));
}

AMP_FUNCTION(int, counted, (int value), {
    tile_static int count;
    count = value;
    return count;
});

AMP_FUNCTION(int, counted_twice, (int value), { return 2 * counted(value); });

/* An untiled kernel has no tiles to share the variable: the call is
 * refused at its line, naming the variable, directly and through another
 * function. */
static void tile_static_2_in_a_function_of_an_untiled_kernel_is_refused(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v, counted),
                                           { v[idx] = counted(1); }),
                     AMP_ERROR_KERNEL_BUILD,
                     "counted uses tile_static memory ('count', declared in counted), which the"
                     " threads of a tile share: call it from a tiled kernel");
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx,
                                           AMP_CAPTURE(v, counted, counted_twice),
                                           { v[idx] = counted_twice(1); }),
                     AMP_ERROR_KERNEL_BUILD, "counted_twice uses tile_static memory ('count'");
    /* Nor in the kernel's own body, where a work-group of the runtime's
     * choosing would share it: a race that C++ AMP refuses too. */
    assert_amp_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v), {
        tile_static int shared[1];
        shared[0] = idx;
        v[idx] = shared[0];
    }),
                     AMP_ERROR_KERNEL_BUILD,
                     "tile_static shared in a kernel that is not tiled: tile_static memory is"
                     " shared by the threads of a tile, and this launch has no tiles");
    /* A tiled kernel calls both. */
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, counted, counted_twice), {
        v[t_idx] = t_idx.local[0] == 0 ? counted_twice(3) : 6;
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], 6);
    assert_amp_ok(amp_array_view_release(v));
}

/* Each thread's neighbour in the tile, exchanged through a view (global
 * memory) between waits in the function. */
AMP_FUNCTION(int, through_global, (tiled_index<16> t_idx, array_view<int, 1> scratch), {
    scratch[t_idx.global] = t_idx.global[0] * 2;
    t_idx.barrier.wait();
    return scratch[t_idx.tile_origin[0] + (t_idx.local[0] + 1) % 16];
});

static void tile_barrier_4_5_3_wait_in_a_restrict_amp_function(void **state)
{
    (void)state;
    static int out[N], scratch[N];
    amp_array_view *v, *s;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), scratch, &s));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, s, through_global), {
        v[t_idx] = through_global(t_idx, s);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], 2 * (g / T * T + (g % T + 1) % T));
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_array_view_release(s));
}

/* A function that takes the barrier alone, by const reference (C++ AMP's
 * wait() is const), and waits there for the kernel's threads. */
AMP_FUNCTION(void, meet, (const tile_barrier &b), { b.wait(); });

static void tile_barrier_4_5_3_wait_through_a_tile_barrier_parameter(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, meet), {
        tile_static int cells[16];
        cells[t_idx.local[0]] = t_idx.global[0];
        meet(t_idx.barrier);
        v[t_idx] = cells[15 - t_idx.local[0]];
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], g / T * T + T - 1 - g % T);
    assert_amp_ok(amp_array_view_release(v));
}

AMP_FUNCTION(int, fenced, (tiled_index<16> t_idx, tile_barrier b, int value), {
    tile_static int cells[16];
    cells[t_idx.local[0]] = value;
    b.wait_with_tile_static_memory_fence();
    int got = cells[(t_idx.local[0] + 3) % 16];
    t_idx.barrier.wait_with_all_memory_fence();
    return got;
});

static void tile_barrier_4_5_3_fenced_waits_in_a_function(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v, fenced), {
        v[t_idx] = fenced(t_idx, t_idx.barrier, 5 * t_idx.global[0]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], 5 * (g / T * T + (g % T + 3) % T));
    assert_amp_ok(amp_array_view_release(v));
}

/* The usual C++ AMP signature: const tiled_index<D0, D1>&. */
AMP_FUNCTION(int, transposed_in_tile, (const tiled_index<4, 4> &t_idx, int value), {
    tile_static int cells[4][4];
    cells[t_idx.local[0]][t_idx.local[1]] = value;
    t_idx.barrier.wait();
    return cells[t_idx.local[1]][t_idx.local[0]];
});

static void tiled_index_4_4_given_by_const_reference(void **state)
{
    (void)state;
    enum { R = 8, C = 8 };
    static int out[R * C];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(R, C), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(R, C), 4, 4), t_idx,
                                              AMP_CAPTURE(v, transposed_in_tile), {
        v[t_idx] = transposed_in_tile(t_idx, t_idx.global[0] * 100 + t_idx.global[1]);
    }));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) {
            int ti = i / 4 * 4 + j % 4, tj = j / 4 * 4 + i % 4;
            assert_int_equal(out[i * C + j], ti * 100 + tj);
        }
    assert_amp_ok(amp_array_view_release(v));
}

/* A kernel file's body calls a function with tile_static variables: the
 * kernel declares them for it, as a body in a macro does. */
static void tile_static_2_in_a_function_a_kernel_file_calls(void **state)
{
    (void)state;
    char dir[] = "/tmp/amp-conf-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/scan.cl", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("v[t_idx] = tile_scan(t_idx, 2);\n", f);
    fclose(f);
    amp_kernel_source *src;
    assert_amp_ok(amp_kernel_source_load(path, "t_idx", &src));
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(amp_parallel_for_each_tiled(NULL, amp_extent_tile_1d(amp_extent_1d(N), T), src,
                                              AMP_CAPTURE(v, tile_scan)));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], 2 * (g % T + 1) * 1000 + 2 * T);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_kernel_source_release(src));
    unlink(path);
    rmdir(dir);
}

/* C++'s digraphs, which C has too: <: :> are [ ], <% %> are { }. */
static void restrict_amp_2_digraphs_are_the_brackets_they_spell(void **state)
{
    (void)state;
    static int out[N];
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(N), T), t_idx,
                                              AMP_CAPTURE(v), <%
        tile_static int cells<:16:>;
        int pair<:2:> = <%t_idx.local<:0:>, 7%>;
        cells<:pair<:0:>:> = pair<:1:> * t_idx.global<:0:>;
        t_idx.barrier.wait();
        v<:t_idx.global:> = cells<:15 - t_idx.local<:0:>:>;
    %>));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int g = 0; g < N; g++)
        assert_int_equal(out[g], 7 * (g / T * T + T - 1 - g % T));
    assert_amp_ok(amp_array_view_release(v));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tile_static_2_declared_in_a_restrict_amp_function),
        cmocka_unit_test(tile_static_2_a_scalar_in_a_function_is_shared_by_the_tile),
        cmocka_unit_test(tile_static_2_one_variable_for_every_call_in_a_tile),
        cmocka_unit_test(tile_static_2_in_a_function_called_by_another),
        cmocka_unit_test(tile_static_2_in_a_block_of_a_function),
        cmocka_unit_test(tile_static_2_two_functions_with_variables_of_one_name),
        cmocka_unit_test(tile_static_2_in_a_function_without_parameters),
        cmocka_unit_test(tile_static_2_of_a_struct_type_in_a_function),
        cmocka_unit_test(tile_static_2_sized_by_a_constant_in_a_function),
        cmocka_unit_test(tile_static_2_a_function_in_kernels_of_two_tile_shapes),
        cmocka_unit_test(tile_static_2_in_a_function_of_an_untiled_kernel_is_refused),
        cmocka_unit_test(tile_barrier_4_5_3_wait_in_a_restrict_amp_function),
        cmocka_unit_test(tile_barrier_4_5_3_wait_through_a_tile_barrier_parameter),
        cmocka_unit_test(tile_barrier_4_5_3_fenced_waits_in_a_function),
        cmocka_unit_test(tiled_index_4_4_given_by_const_reference),
        cmocka_unit_test(tile_static_2_in_a_function_a_kernel_file_calls),
        cmocka_unit_test(restrict_amp_2_digraphs_are_the_brackets_they_spell),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
