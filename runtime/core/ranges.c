/*
 * runtime/core/ranges.c - sets of byte ranges, and boxes.
 */
#include "core/ranges.h"

#include <stdlib.h>
#include <string.h>

int64_t amp__rg_box_bytes(const rg_box *b)
{
    return b->rows[0] * b->rows[1] * b->width;
}

int amp__rg_box_contiguous(const rg_box *b)
{
    int64_t n = b->rows[1] * b->width;
    return (b->rows[1] == 1 || b->pitch[1] == b->width) && (b->rows[0] == 1 || b->pitch[0] == n);
}

rg_box amp__rg_box_linear(int64_t offset, int64_t n)
{
    rg_box b = {offset, {1, 1}, {n, n}, n};
    return b;
}

/* memmove of count elements; none is a no-op even on a NULL array (which
 * memmove itself does not allow). */
static void move_items(int64_t *dst, const int64_t *src, size_t count)
{
    if (count > 0)
        memmove(dst, src, count * sizeof *dst);
}

static int reserve(rg_set *s, size_t n)
{
    if (n <= s->capacity)
        return 1;
    size_t cap = s->capacity ? s->capacity * 2 : 4;
    while (cap < n)
        cap *= 2;
    int64_t *lo = realloc(s->lo, cap * sizeof *lo);
    if (!lo)
        return 0;
    s->lo = lo;
    int64_t *hi = realloc(s->hi, cap * sizeof *hi);
    if (!hi)
        return 0;
    s->hi = hi;
    s->capacity = cap;
    return 1;
}

int amp__rg_reserve(rg_set *s, size_t n)
{
    return reserve(s, n);
}

/* The first range whose end is at or after x. */
static size_t first_ending_at_or_after(const rg_set *s, int64_t x)
{
    size_t a = 0, b = s->count;
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (s->hi[m] < x)
            a = m + 1;
        else
            b = m;
    }
    return a;
}

int amp__rg_add(rg_set *s, int64_t lo, int64_t hi)
{
    if (lo >= hi)
        return 1;
    /* Ranges that touch or overlap [lo, hi) merge with it: i..j-1. */
    size_t i = first_ending_at_or_after(s, lo);
    size_t j = i;
    while (j < s->count && s->lo[j] <= hi)
        j++;
    if (i == j) {
        if (!reserve(s, s->count + 1))
            return 0;
        move_items(s->lo + i + 1, s->lo + i, s->count - i);
        move_items(s->hi + i + 1, s->hi + i, s->count - i);
        s->lo[i] = lo;
        s->hi[i] = hi;
        s->count++;
        return 1;
    }
    int64_t nlo = s->lo[i] < lo ? s->lo[i] : lo;
    int64_t nhi = s->hi[j - 1] > hi ? s->hi[j - 1] : hi;
    s->lo[i] = nlo;
    s->hi[i] = nhi;
    move_items(s->lo + i + 1, s->lo + j, s->count - j);
    move_items(s->hi + i + 1, s->hi + j, s->count - j);
    s->count -= j - i - 1;
    return 1;
}

int amp__rg_remove(rg_set *s, int64_t lo, int64_t hi)
{
    if (lo >= hi || s->count == 0)
        return 1;
    size_t i = first_ending_at_or_after(s, lo + 1); /* first range with hi > lo */
    if (i < s->count && s->lo[i] < lo && s->hi[i] > hi) {
        /* [lo, hi) is inside one range: split it in two. */
        if (!reserve(s, s->count + 1))
            return 0;
        move_items(s->lo + i + 1, s->lo + i, s->count - i);
        move_items(s->hi + i + 1, s->hi + i, s->count - i);
        s->count++;
        s->hi[i] = lo;
        s->lo[i + 1] = hi;
        return 1;
    }
    if (i < s->count && s->lo[i] < lo) {
        s->hi[i] = lo; /* keep its left part */
        i++;
    }
    size_t j = i;
    while (j < s->count && s->hi[j] <= hi)
        j++; /* wholly inside: dropped */
    if (j < s->count && s->lo[j] < hi)
        s->lo[j] = hi; /* keep its right part */
    move_items(s->lo + i, s->lo + j, s->count - j);
    move_items(s->hi + i, s->hi + j, s->count - j);
    s->count -= j - i;
    return 1;
}

typedef int (*row_fn)(rg_set *s, int64_t lo, int64_t hi);

static int each_row(rg_set *s, const rg_box *b, row_fn fn)
{
    /* Contiguous rows are one range. */
    if (b->rows[1] == 1 || b->pitch[1] == b->width) {
        int64_t n = b->rows[1] * b->width;
        if (b->rows[0] == 1 || b->pitch[0] == n)
            return fn(s, b->offset, b->offset + b->rows[0] * n);
        for (int64_t i = 0; i < b->rows[0]; i++)
            if (!fn(s, b->offset + i * b->pitch[0], b->offset + i * b->pitch[0] + n))
                return 0;
        return 1;
    }
    for (int64_t i = 0; i < b->rows[0]; i++)
        for (int64_t r = 0; r < b->rows[1]; r++) {
            int64_t lo = b->offset + i * b->pitch[0] + r * b->pitch[1];
            if (!fn(s, lo, lo + b->width))
                return 0;
        }
    return 1;
}

int amp__rg_add_box(rg_set *s, const rg_box *b)
{
    return each_row(s, b, amp__rg_add);
}

int amp__rg_remove_box(rg_set *s, const rg_box *b)
{
    return each_row(s, b, amp__rg_remove);
}

typedef struct visit {
    const rg_set *s;
    rg_range_fn fn;
    void *user;
    int stop;
} visit;

/* Ranges of the set within [lo, hi). */
static int visit_row(visit *v, int64_t lo, int64_t hi)
{
    const rg_set *s = v->s;
    for (size_t i = first_ending_at_or_after(s, lo + 1); i < s->count && s->lo[i] < hi; i++) {
        int64_t a = s->lo[i] > lo ? s->lo[i] : lo;
        int64_t b = s->hi[i] < hi ? s->hi[i] : hi;
        if (a < b && (v->stop = v->fn(a, b, v->user)) != 0)
            return 0;
    }
    return 1;
}

int amp__rg_each_in_box(const rg_set *s, const rg_box *b, rg_range_fn fn, void *user)
{
    visit v = {s, fn, user, 0};
    if (s->count == 0)
        return 0;
    if (b->rows[1] == 1 || b->pitch[1] == b->width) {
        int64_t n = b->rows[1] * b->width;
        if (b->rows[0] == 1 || b->pitch[0] == n) {
            visit_row(&v, b->offset, b->offset + b->rows[0] * n);
            return v.stop;
        }
        for (int64_t i = 0; i < b->rows[0]; i++)
            if (!visit_row(&v, b->offset + i * b->pitch[0], b->offset + i * b->pitch[0] + n))
                return v.stop;
        return 0;
    }
    for (int64_t i = 0; i < b->rows[0]; i++)
        for (int64_t r = 0; r < b->rows[1]; r++) {
            int64_t lo = b->offset + i * b->pitch[0] + r * b->pitch[1];
            if (!visit_row(&v, lo, lo + b->width))
                return v.stop;
        }
    return 0;
}

static int count_bytes(int64_t lo, int64_t hi, void *user)
{
    *(int64_t *)user += hi - lo;
    return 0;
}

int64_t amp__rg_box_overlap(const rg_set *s, const rg_box *b)
{
    int64_t n = 0;
    amp__rg_each_in_box(s, b, count_bytes, &n);
    return n;
}

static int remove_range(int64_t lo, int64_t hi, void *user)
{
    return amp__rg_remove(user, lo, hi) ? 0 : 1;
}

int amp__rg_remove_in_box(rg_set *s, const rg_set *which, const rg_box *b)
{
    return amp__rg_each_in_box(which, b, remove_range, s) == 0;
}

void amp__rg_clear(rg_set *s)
{
    s->count = 0;
}

void amp__rg_free(rg_set *s)
{
    free(s->lo);
    free(s->hi);
    memset(s, 0, sizeof *s);
}

/* ---- Shapes of any rank as boxes ---- */

void amp__rg_plan(rg_plan *p, int rank, const int *dims, int64_t elem, int nlayouts,
                  const int64_t *offsets, const int64_t *const *strides)
{
    memset(p, 0, sizeof *p);
    for (int l = 0; l < nlayouts; l++)
        p->offset[l] = offsets[l] * elem;
    /* Level 0 is the width: contiguous bytes, one element at least. */
    p->levels = 1;
    p->size[0] = 1;
    for (int l = 0; l < nlayouts; l++)
        p->pitch[l][0] = elem;
    for (int d = rank - 1; d >= 0; d--) {
        if (dims[d] == 1)
            continue; /* a dimension of one index does not change the shape */
        int top = p->levels - 1;
        int joins = 1;
        for (int l = 0; l < nlayouts; l++)
            joins &= strides[l][d] * elem == p->pitch[l][top] * p->size[top];
        if (joins) {
            p->size[top] *= dims[d];
        } else {
            p->size[p->levels] = dims[d];
            for (int l = 0; l < nlayouts; l++)
                p->pitch[l][p->levels] = strides[l][d] * elem;
            p->levels++;
        }
    }
}

int64_t amp__rg_plan_count(const rg_plan *p)
{
    int64_t n = 1;
    for (int v = 3; v < p->levels; v++)
        n *= p->size[v];
    return n;
}

rg_box amp__rg_plan_box(const rg_plan *p, int layout, int64_t k)
{
    const int64_t *pitch = p->pitch[layout];
    rg_box b;
    b.offset = p->offset[layout];
    /* Levels past the third are counted by k, the fourth fastest. */
    for (int v = 3; v < p->levels; v++) {
        b.offset += k % p->size[v] * pitch[v];
        k /= p->size[v];
    }
    b.width = p->size[0] * pitch[0];
    b.rows[1] = p->levels > 1 ? p->size[1] : 1;
    b.pitch[1] = p->levels > 1 ? pitch[1] : b.width;
    b.rows[0] = p->levels > 2 ? p->size[2] : 1;
    b.pitch[0] = p->levels > 2 ? pitch[2] : b.pitch[1] * b.rows[1];
    return b;
}
