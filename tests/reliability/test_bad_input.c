/*
 * tests/reliability/test_bad_input.c - every kind of bad input the public API can be
 * given, as one table.
 *
 * Each row names a case, a function that provokes it, the status the call
 * must return and a text its message (amp_last_error()) must contain. For
 * every row the runner also checks that the process is still alive (each
 * row is its own cmocka test, so a crash fails that row by name), that no
 * data was copied back to the host, and that the host memory given to views
 * is byte for byte what it was (each buffer has a canary copy).
 *
 * A row the library handles badly today (a crash, a wrong status, a message
 * that does not help) carries a note saying what goes wrong. It is reported
 * on stdout as KNOWN FAILURE and counts as skipped, so that the suite stays
 * green while the runtime is fixed; a noted row that is safe to run still
 * runs, and says so when it has started to pass. Rows whose failure is a
 * crash, a hang or undefined behaviour are reported and not run.
 *
 * Functions that return a value rather than a status (getters of NULL
 * handles, names of unknown codes) are rows too: they return AMP_OK when the
 * documented value came back, and have no message to check.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

/* What a value row returns when the value was not the documented one. */
#define WRONG_VALUE ((amp_status)1000)

/* ---- The fixture: host memory with canaries, and what a case made ---- */

#define N 64
#define MAX_TRACKED 8

typedef struct fixture {
    /* Host memory that cases wrap in views, and a copy of each to compare
     * with afterwards. */
    int ints[N];
    float floats[N];
    int grid[N];      /* 8x8 */
    int cube[N];      /* 4x4x4 */
    int konst[N];     /* wrapped by const views */
    double doubles[N / 2];
    unsigned char canary[6][N * sizeof(double)];

    /* Views a case made, released after the case; those a case may have
     * released itself (or that a bug may have released) are allowed to be
     * gone by then. */
    amp_array_view *views[MAX_TRACKED];
    int may_be_gone[MAX_TRACKED];
    int nviews;

    /* Arrays a case made, released after the case as its views are. */
    amp_array *arrays[MAX_TRACKED];
    int narrays;

    /* Textures a case made, released after the case too. */
    amp_texture *textures[MAX_TRACKED];
    int ntextures;

    /* A read-only mapping of zeros, for views larger than the device: the
     * process cannot write it, so the library cannot either. */
    void *mapped;
    size_t mapped_bytes;

    /* A folder for kernel files. */
    char dir[64];
    char path[128];

    /* A second text the message must hold, set by the case: the file and
     * line of a kernel that does not compile. */
    char also[192];

    /* What a value row found instead of the documented value. */
    char note[160];
} fixture;

static fixture F;

/* What the device is, asked once. Numbers only: the info's strings belong
 * to the library, and the rows about AMP_DEVICE restart it. */
static struct {
    uint64_t memory;     /* dedicated_memory */
    uint64_t max_alloc;  /* max_allocation (CL_DEVICE_MAX_MEM_ALLOC_SIZE) */
    uint64_t local_mem;  /* tile_static_size */
    size_t max_tile;     /* max_tile_size */
    int fp64;            /* supports_double */
    char *saved_device;  /* AMP_DEVICE as the test found it */
    char *saved_split;   /* AMP_SPLIT_CPU as the test found it */
} dev;

static void *buffers(int i, size_t *bytes)
{
    void *p[6] = {F.ints, F.floats, F.grid, F.cube, F.konst, F.doubles};
    size_t s[6] = {sizeof F.ints, sizeof F.floats, sizeof F.grid, sizeof F.cube, sizeof F.konst,
                   sizeof F.doubles};
    *bytes = s[i];
    return p[i];
}

static void fixture_fill(void)
{
    memset(&F, 0, sizeof F);
    for (int i = 0; i < N; i++) {
        F.ints[i] = 1000 + i;
        F.floats[i] = 0.5f * (float)i - 3.0f;
        F.grid[i] = -i;
        F.cube[i] = i * i;
        F.konst[i] = 7 * i;
    }
    for (int i = 0; i < N / 2; i++)
        F.doubles[i] = 1.0 / (i + 1);
    for (int i = 0; i < 6; i++) {
        size_t bytes;
        void *p = buffers(i, &bytes);
        memcpy(F.canary[i], p, bytes);
    }
}

static amp_array_view *track(amp_array_view *v, int may_be_gone)
{
    if (F.nviews == MAX_TRACKED)
        fail_msg("a case made more than %d views", MAX_TRACKED);
    F.views[F.nviews] = v;
    F.may_be_gone[F.nviews] = may_be_gone;
    F.nviews++;
    return v;
}

/* A view the case needs in order to provoke its failure: making it must
 * work, and it is released after the case. */
static amp_array_view *view_of(amp_elem_type type, amp_extent extent, void *data)
{
    amp_array_view *v = NULL;
    assert_amp_ok(amp_array_view_create(type, extent, data, &v));
    return track(v, 0);
}

static amp_array_view *const_view_of(amp_elem_type type, amp_extent extent, const void *data)
{
    amp_array_view *v = NULL;
    assert_amp_ok(amp_array_view_create_const(type, extent, data, &v));
    return track(v, 0);
}

/* The call a row is about, when it makes a view: a view it makes by
 * mistake is released after the case like any other. */
static amp_status create(int is_const, amp_elem_type type, amp_extent extent, void *data)
{
    amp_array_view *v = NULL;
    amp_status st = is_const ? amp_array_view_create_const(type, extent, data, &v)
                             : amp_array_view_create(type, extent, data, &v);
    if (v)
        track(v, 0);
    return st;
}

/* A view already released: a stale handle. */
static amp_array_view *released_view(void)
{
    amp_array_view *v = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), F.ints, &v));
    assert_amp_ok(amp_array_view_release(v));
    return v;
}

/* An array the case made (or that a call made by mistake), released after
 * the case. */
static amp_array *track_array(amp_array *a)
{
    if (F.narrays == MAX_TRACKED)
        fail_msg("a case made more than %d arrays", MAX_TRACKED);
    F.arrays[F.narrays++] = a;
    return a;
}

/* An array the case needs, on the default accelerator view. */
static amp_array *array_of(amp_elem_type type, amp_extent extent)
{
    amp_array *a = NULL;
    assert_amp_ok(amp_array_create(type, extent, NULL, &a));
    return track_array(a);
}

/* An array already released: a stale handle. */
static amp_array *released_array(void)
{
    amp_array *a = NULL;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(N), NULL, &a));
    assert_amp_ok(amp_array_release(a));
    return a;
}

/* A texture the case needs, on the default accelerator view, released after
 * the case: the ints (the floats for AMP_FLOAT) as N / channels elements of
 * the given channels. */
static amp_texture *texture_of(amp_elem_type type, int channels)
{
    amp_texture *t = NULL;
    const void *data = type == AMP_FLOAT ? (const void *)F.floats : (const void *)F.ints;
    assert_amp_ok(amp_texture_create(type, channels, amp_extent_1d(N / channels), data, NULL, &t));
    if (F.ntextures == MAX_TRACKED)
        fail_msg("a case made more than %d textures", MAX_TRACKED);
    F.textures[F.ntextures++] = t;
    return t;
}

/* A struct element type, registered once for the process (registering it
 * again gives the same type). */
AMP_STRUCT(pair, (int, a), (float, b));

static amp_elem_type pair_type(void)
{
    amp_elem_type t;
    assert_amp_ok(amp_struct_register(AMP_STRUCT_DESC(pair), &t));
    return t;
}

/* The message must also name this file at the given line. */
static void expect_line(int line)
{
    snprintf(F.also, sizeof F.also, "test_bad_input.c:%d:", line);
}

/* A read-only mapping of at least bytes zeros (/dev/zero, so that no
 * memory is committed). */
static void *zeros(size_t bytes)
{
    int fd = open("/dev/zero", O_RDONLY);
    if (fd < 0)
        fail_msg("cannot open /dev/zero");
    void *p = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        fail_msg("cannot map %zu bytes of /dev/zero", bytes);
    F.mapped = p;
    F.mapped_bytes = bytes;
    return p;
}

/* A kernel file in the case's own folder. */
static const char *kernel_file(const char *text)
{
    snprintf(F.dir, sizeof F.dir, "/tmp/amp_bad_input_XXXXXX");
    if (!mkdtemp(F.dir))
        fail_msg("cannot make a folder for a kernel file");
    snprintf(F.path, sizeof F.path, "%s/broken.cl", F.dir);
    FILE *file = fopen(F.path, "w");
    if (!file)
        fail_msg("cannot write %s", F.path);
    fputs(text, file);
    fclose(file);
    return F.path;
}

static int device_lacks_double(void)
{
    return !dev.fp64;
}

/* A tiled 1-D domain of one tile, for cases about what is inside it. */
static amp_tiled_extent one_tile(void)
{
    return amp_extent_tile_1d(amp_extent_1d(16), 16);
}

/* ==== NULL handles and pointers ==== */

static amp_status null_accelerator_count(void)
{
    return amp_accelerator_count(NULL);
}

static amp_status null_accelerator_get_out(void)
{
    return amp_accelerator_get(0, NULL);
}

static amp_status null_accelerator_get_default_out(void)
{
    return amp_accelerator_get_default(NULL);
}

static amp_status null_accelerator_info_acc(void)
{
    amp_accelerator_info info;
    return amp_accelerator_get_info(NULL, &info);
}

static amp_status null_accelerator_info_out(void)
{
    amp_accelerator *acc;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    return amp_accelerator_get_info(acc, NULL);
}

static amp_status null_default_view_out(void)
{
    return amp_accelerator_get_default_view(NULL, NULL);
}

static amp_status null_accelerator_view_wait(void)
{
    return amp_accelerator_view_wait(NULL);
}

static amp_status null_accelerator_of_view(void)
{
    return amp_accelerator_view_get_accelerator(NULL) == NULL ? AMP_OK : WRONG_VALUE;
}

static amp_status null_view_data_pointer(void)
{
    return create(0, AMP_INT, amp_extent_1d(N), NULL);
}

static amp_status null_view_out(void)
{
    return amp_array_view_create(AMP_INT, amp_extent_1d(N), F.ints, NULL);
}

static amp_status null_const_view_data_pointer(void)
{
    return create(1, AMP_INT, amp_extent_1d(N), NULL);
}

static amp_status null_const_view_out(void)
{
    return amp_array_view_create_const(AMP_INT, amp_extent_1d(N), F.konst, NULL);
}

/* A view of another scalar type than the host array's: the macro sees the
 * pointer's type. A double view of 64 floats would read 512 bytes of 256. */
static amp_status double_view_over_floats(void)
{
    amp_array_view *v = NULL;
    return amp_array_view_create(AMP_DOUBLE, amp_extent_1d(N), F.floats, &v);
}

static amp_status const_int_view_over_floats(void)
{
    amp_array_view *v = NULL;
    return amp_array_view_create_const(AMP_INT, amp_extent_1d(N), F.floats, &v);
}

static amp_status float_vector_view_over_doubles(void)
{
    amp_array_view *v = NULL;
    return amp_array_view_create(AMP_FLOAT_2, amp_extent_2d(4, 4), F.doubles, &v);
}

static amp_status null_view_synchronize(void)
{
    return amp_array_view_synchronize(NULL);
}

static amp_status null_view_data(void)
{
    void *p;
    return amp_array_view_data(NULL, &p);
}

static amp_status null_view_data_out(void)
{
    return amp_array_view_data(view_of(AMP_INT, amp_extent_1d(N), F.ints), NULL);
}

static amp_status null_view_data_const(void)
{
    const void *p;
    return amp_array_view_data_const(NULL, &p);
}

static amp_status null_view_data_const_out(void)
{
    return amp_array_view_data_const(view_of(AMP_INT, amp_extent_1d(N), F.ints), NULL);
}

static amp_status null_view_discard(void)
{
    return amp_array_view_discard_data(NULL);
}

static amp_status null_view_refresh(void)
{
    return amp_array_view_refresh(NULL);
}

static amp_status null_view_transfers(void)
{
    amp_transfer_stats s;
    return amp_array_view_get_transfers(NULL, &s);
}

static amp_status null_view_transfers_out(void)
{
    return amp_array_view_get_transfers(view_of(AMP_INT, amp_extent_1d(N), F.ints), NULL);
}

static amp_status null_process_transfers_out(void)
{
    return amp_transfer_get_stats(NULL);
}

static amp_status null_kernel_stats_out(void)
{
    return amp_kernel_get_stats(NULL);
}

static amp_status null_view_release_is_a_no_op(void)
{
    return amp_array_view_release(NULL);
}

static amp_status null_view_getters(void)
{
    if (amp_array_view_get_extent(NULL).rank != 0 || amp_array_view_get_type(NULL) != 0 ||
        amp_array_view_is_const(NULL) != 0) {
        snprintf(F.note, sizeof F.note, "a getter of a NULL view gave a nonzero value");
        return WRONG_VALUE;
    }
    return AMP_OK;
}

static amp_status null_kernel_file_path(void)
{
    amp_kernel_source *src = NULL;
    return amp_kernel_source_load(NULL, "idx", &src);
}

static amp_status null_kernel_file_index(void)
{
    amp_kernel_source *src = NULL;
    return amp_kernel_source_load("kernel.cl", NULL, &src);
}

static amp_status null_kernel_file_out(void)
{
    return amp_kernel_source_load("kernel.cl", "idx", NULL);
}

static amp_status null_kernel_source_release_is_a_no_op(void)
{
    amp_kernel_source_release(NULL);
    return AMP_OK;
}

static amp_status null_kernel(void)
{
    return amp_parallel_for_each(NULL, amp_extent_1d(4), NULL, AMP_NO_CAPTURE);
}

static amp_status null_kernel_tiled(void)
{
    return amp_parallel_for_each_tiled(NULL, one_tile(), NULL, AMP_NO_CAPTURE);
}

static amp_status null_kernel_body(void)
{
    amp_kernel_source k = {__FILE__, __LINE__, "i", NULL, 0, 0};
    return amp_parallel_for_each(NULL, amp_extent_1d(4), &k, AMP_NO_CAPTURE);
}

static amp_status null_kernel_index_name(void)
{
    amp_kernel_source k = {__FILE__, __LINE__, NULL, "{}", 2, 0};
    return amp_parallel_for_each(NULL, amp_extent_1d(4), &k, AMP_NO_CAPTURE);
}

static amp_status null_kernel_file_name(void)
{
    amp_kernel_source k = {NULL, 1, "i", "{ (void)i; }", 12, 0};
    return amp_parallel_for_each(NULL, amp_extent_1d(4), &k, AMP_NO_CAPTURE);
}

static amp_status null_view_captured(void)
{
    amp_array_view *nothing = NULL;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(nothing), { nothing(i[0]) = 1; });
}

static amp_status null_capture_items(void)
{
    amp_capture_list list = {2, NULL};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status null_capture_name(void)
{
    amp_capture c = {NULL, AMP_CAPTURE_SCALAR, AMP_INT, {.i = 1}};
    amp_capture_list list = {1, &c};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status null_function_source(void)
{
    amp_capture c = {"helper", AMP_CAPTURE_FUNCTION, (amp_elem_type)0, {.function = {"helper", NULL, NULL, 0, NULL}}};
    amp_capture_list list = {1, &c};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status null_set_default(void)
{
    return amp_accelerator_set_default(NULL);
}

static amp_status null_created_view_out(void)
{
    return amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, NULL);
}

static amp_status null_accelerator_view_release_is_a_no_op(void)
{
    return amp_accelerator_view_release(NULL);
}

static amp_status null_accelerator_view_getters(void)
{
    if (amp_accelerator_view_get_queuing_mode(NULL) != 0 ||
        amp_accelerator_view_is_default(NULL) != 0) {
        snprintf(F.note, sizeof F.note, "queuing mode %d, is_default %d",
                 (int)amp_accelerator_view_get_queuing_mode(NULL),
                 amp_accelerator_view_is_default(NULL));
        return WRONG_VALUE;
    }
    return AMP_OK;
}

static amp_status null_accelerator_view_flush(void)
{
    return amp_accelerator_view_flush(NULL);
}

static amp_status null_marker_view(void)
{
    amp_completion *c = NULL;
    return amp_accelerator_view_create_marker(NULL, &c);
}

static amp_status null_marker_out(void)
{
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    return amp_accelerator_view_create_marker(av, NULL);
}

static amp_status null_completion_wait(void)
{
    return amp_completion_wait(NULL);
}

static amp_status null_completion_is_done(void)
{
    int done;
    return amp_completion_is_done(NULL, &done);
}

static amp_status null_completion_is_done_out(void)
{
    amp_accelerator_view *av;
    amp_completion *c;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(amp_accelerator_view_create_marker(av, &c));
    amp_status st = amp_completion_is_done(c, NULL);
    assert_amp_ok(amp_completion_release(c));
    return st;
}

static amp_status null_completion_release_is_a_no_op(void)
{
    return amp_completion_release(NULL);
}

static amp_status null_extent_view_out(void)
{
    return amp_array_view_create_extent(AMP_INT, amp_extent_1d(N), NULL);
}

static amp_status null_section_view(void)
{
    amp_array_view *s = NULL;
    return amp_array_view_section(NULL, amp_index_1d(0), amp_extent_1d(4), &s);
}

static amp_status null_section_out(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return amp_array_view_section(v, amp_index_1d(0), amp_extent_1d(4), NULL);
}

static amp_status null_project_view(void)
{
    amp_array_view *row = NULL;
    return amp_array_view_project(NULL, 0, &row);
}

static amp_status null_project_out(void)
{
    amp_array_view *g = view_of(AMP_INT, amp_extent_2d(8, 8), F.grid);
    return amp_array_view_project(g, 0, NULL);
}

static amp_status null_view_as_view(void)
{
    amp_array_view *w = NULL;
    return amp_array_view_view_as(NULL, amp_extent_2d(8, 8), &w);
}

static amp_status null_view_as_out(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return amp_array_view_view_as(v, amp_extent_2d(8, 8), NULL);
}

static amp_status null_reinterpret_view(void)
{
    amp_array_view *w = NULL;
    return amp_array_view_reinterpret_as(NULL, AMP_FLOAT, &w);
}

static amp_status null_reinterpret_out(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return amp_array_view_reinterpret_as(v, AMP_FLOAT, NULL);
}

static amp_status null_synchronize_to_view(void)
{
    return amp_array_view_synchronize_to(NULL, NULL);
}

static amp_status null_synchronize_async_out(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return amp_array_view_synchronize_async(v, NULL);
}

/* An asynchronous operation checks its ends at the call, and starts only
 * when they are sound (amp/array.h). */
static amp_status null_synchronize_async_view(void)
{
    amp_completion *c = NULL;
    amp_status st = amp_array_view_synchronize_async(NULL, &c);
    if (st != AMP_OK)
        return st;
    return amp_completion_release(c);
}

static amp_status null_copy_async_out(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    amp_array *a = array_of(AMP_INT, amp_extent_1d(N));
    return amp_copy_async(amp_data_of(v), amp_data_of(a), NULL);
}

static amp_status null_copy_async_source(void)
{
    amp_array *a = array_of(AMP_INT, amp_extent_1d(N));
    amp_array_view *none = NULL;
    amp_completion *c = NULL;
    amp_status st = AMP_COPY_ASYNC(none, a, &c);
    if (st != AMP_OK)
        return st;
    return amp_completion_release(c);
}

static amp_status null_array_from_host_out(void)
{
    return amp_array_create_from_host(AMP_INT, amp_extent_1d(N), F.ints, NULL, NULL);
}

static amp_status null_array_from_view(void)
{
    amp_array *a = NULL;
    amp_status st = amp_array_create_from_view(NULL, NULL, &a);
    if (a)
        track_array(a);
    return st;
}

static amp_status null_array_from_view_out(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return amp_array_create_from_view(v, NULL, NULL);
}

static amp_status null_array_from_array(void)
{
    amp_array *a = NULL;
    amp_status st = amp_array_create_from_array(NULL, NULL, &a);
    if (a)
        track_array(a);
    return st;
}

static amp_status null_array_from_array_out(void)
{
    return amp_array_create_from_array(array_of(AMP_INT, amp_extent_1d(N)), NULL, NULL);
}

static amp_status null_array_release_is_a_no_op(void)
{
    return amp_array_release(NULL);
}

static amp_status null_array_getters(void)
{
    if (amp_array_get_extent(NULL).rank != 0 || amp_array_get_type(NULL) != 0 ||
        amp_array_get_accelerator_view(NULL) != NULL) {
        snprintf(F.note, sizeof F.note, "a getter of a NULL array gave a value");
        return WRONG_VALUE;
    }
    return AMP_OK;
}

static amp_status null_view_of_array(void)
{
    amp_array_view *v = NULL;
    amp_status st = amp_array_view_create_from_array(NULL, &v);
    if (v)
        track(v, 0);
    return st;
}

static amp_status null_view_of_array_out(void)
{
    return amp_array_view_create_from_array(array_of(AMP_INT, amp_extent_1d(N)), NULL);
}

static amp_status null_copy_source_array(void)
{
    amp_array *none = NULL;
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return AMP_COPY(none, v);
}

static amp_status null_copy_destination_view(void)
{
    amp_array *a = array_of(AMP_INT, amp_extent_1d(N));
    amp_array_view *none = NULL;
    return AMP_COPY(a, none);
}

static amp_status null_copy_source_host(void)
{
    const int *nowhere = NULL;
    return AMP_COPY(nowhere, array_of(AMP_INT, amp_extent_1d(N)));
}

static amp_status null_profile_count(void)
{
    return amp_profile_get_entries(NULL, 0, NULL);
}

static amp_status null_profile_entries(void)
{
    size_t count;
    return amp_profile_get_entries(NULL, 4, &count);
}

static amp_status null_struct_desc(void)
{
    amp_elem_type t;
    return amp_struct_register(NULL, &t);
}

static amp_status null_struct_out(void)
{
    return amp_struct_register(AMP_STRUCT_DESC(pair), NULL);
}

static const amp_struct_member int_and_float[2] = {{"int", "a", 0, 4, 0}, {"float", "b", 4, 4, 0}};

static amp_status null_struct_name(void)
{
    amp_struct_desc d = {NULL, 8, 2, int_and_float};
    amp_elem_type t;
    return amp_struct_register(&d, &t);
}

static amp_status null_struct_members(void)
{
    amp_struct_desc d = {"two", 8, 2, NULL};
    amp_elem_type t;
    return amp_struct_register(&d, &t);
}

static amp_status null_struct_member_name(void)
{
    static const amp_struct_member m[1] = {{"int", NULL, 0, 4, 0}};
    amp_struct_desc d = {"one", 4, 1, m};
    amp_elem_type t;
    return amp_struct_register(&d, &t);
}

static amp_status null_struct_member_type(void)
{
    static const amp_struct_member m[1] = {{NULL, "a", 0, 4, 0}};
    amp_struct_desc d = {"one", 4, 1, m};
    amp_elem_type t;
    return amp_struct_register(&d, &t);
}

static amp_status null_texture_data(void)
{
    amp_texture *t = NULL;
    return amp_texture_create_bits(AMP_INT, 1, amp_extent_1d(N), 32, NULL, sizeof F.ints, NULL,
                                   &t);
}

static amp_status null_texture_out(void)
{
    return amp_texture_create(AMP_INT, 1, amp_extent_1d(N), F.ints, NULL, NULL);
}

static amp_status null_texture_release_is_a_no_op(void)
{
    return amp_texture_release(NULL);
}

static amp_status null_texture_getters(void)
{
    if (amp_texture_get_extent(NULL).rank != 0 || amp_texture_get_type(NULL) != 0 ||
        amp_texture_get_channels(NULL) != 0 || amp_texture_get_bytes(NULL) != 0 ||
        amp_texture_get_accelerator_view(NULL) != NULL) {
        snprintf(F.note, sizeof F.note, "a getter of a NULL texture gave a value");
        return WRONG_VALUE;
    }
    return AMP_OK;
}

static amp_status null_texture_copy_to_host(void)
{
    return amp_texture_copy_to_host(NULL, F.ints, sizeof F.ints);
}

static amp_status null_texture_copy_to_host_dst(void)
{
    return amp_texture_copy_to_host(texture_of(AMP_INT, 1), NULL, sizeof F.ints);
}

static amp_status null_texture_copy_from_host(void)
{
    return amp_texture_copy_from_host(NULL, F.ints, sizeof F.ints);
}

static amp_status null_texture_copy_from_host_src(void)
{
    return amp_texture_copy_from_host(texture_of(AMP_INT, 1), NULL, sizeof F.ints);
}

static amp_status null_texture_transfers(void)
{
    amp_transfer_stats s;
    return amp_texture_get_transfers(NULL, &s);
}

static amp_status null_texture_transfers_out(void)
{
    return amp_texture_get_transfers(texture_of(AMP_INT, 1), NULL);
}

static amp_status null_texture_captured(void)
{
    amp_texture *none = NULL;
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(none, v),
                                 { v(i[0]) = none(i[0]); });
}

static amp_status null_texture_view_of(void)
{
    amp_texture_view *v = NULL;
    return amp_texture_view_create(NULL, AMP_TEXTURE_WRITE, &v);
}

static amp_status null_texture_view_out(void)
{
    return amp_texture_view_create(texture_of(AMP_INT, 1), AMP_TEXTURE_WRITE, NULL);
}

static amp_status texture_view_access_unknown(void)
{
    amp_texture_view *v = NULL;
    return amp_texture_view_create(texture_of(AMP_INT, 1), (amp_texture_access)7, &v);
}

static amp_status null_texture_copy_source(void)
{
    return amp_texture_copy(NULL, texture_of(AMP_INT, 1));
}

static amp_status null_texture_copy_destination(void)
{
    return amp_texture_copy(texture_of(AMP_INT, 1), NULL);
}

static amp_status null_texture_copy_to_end(void)
{
    return amp_texture_copy_to(texture_of(AMP_INT, 1), amp_data_of(NULL));
}

static amp_status null_texture_copy_from_array(void)
{
    return amp_texture_copy_from(amp_data_of((amp_array *)NULL), texture_of(AMP_INT, 1));
}

static amp_status null_texture_copy_async_out(void)
{
    amp_texture *t = texture_of(AMP_INT, 1);
    return amp_texture_copy_async(t, texture_of(AMP_INT, 1), NULL);
}

static amp_status texture_copy_section_outside(void)
{
    amp_texture *t = texture_of(AMP_INT, 1);
    return amp_texture_copy_section(t, amp_index_1d(0), texture_of(AMP_INT, 1), amp_index_1d(2),
                                    amp_extent_1d(N));
}

static int callback_calls;

static void count_callback(amp_status status, const char *message, void *user_data)
{
    (void)status;
    (void)message;
    (void)user_data;
    callback_calls++;
}

static amp_status null_error_callback_switches_it_off(void)
{
    callback_calls = 0;
    amp_set_error_callback(count_callback, NULL);
    amp_set_error_callback(NULL, NULL);
    (void)amp_accelerator_count(NULL);
    if (callback_calls != 0) {
        snprintf(F.note, sizeof F.note, "the callback was called %d times after NULL",
                 callback_calls);
        return WRONG_VALUE;
    }
    return AMP_OK;
}

/* ==== Zero, negative and out-of-range extents ==== */

static amp_status view_extent_1d_zero(void)
{
    return create(0, AMP_INT, amp_extent_1d(0), F.ints);
}

static amp_status view_extent_1d_negative(void)
{
    return create(0, AMP_INT, amp_extent_1d(-3), F.ints);
}

static amp_status view_extent_2d_zero(void)
{
    return create(0, AMP_INT, amp_extent_2d(8, 0), F.grid);
}

static amp_status view_extent_2d_negative(void)
{
    return create(0, AMP_INT, amp_extent_2d(-1, 8), F.grid);
}

static amp_status view_extent_3d_zero(void)
{
    return create(0, AMP_INT, amp_extent_3d(4, 4, 0), F.cube);
}

static amp_status view_extent_3d_negative(void)
{
    return create(0, AMP_INT, amp_extent_3d(4, -2, 4), F.cube);
}

static amp_status view_extent_rank_0(void)
{
    amp_extent e = {0, {4, 4, 4}};
    return create(0, AMP_INT, e, F.ints);
}

static amp_status view_extent_rank_9(void)
{
    amp_extent e = {9, {4, 4, 4}};
    return create(0, AMP_INT, e, F.ints);
}

/* amp_extent_nd() gives rank 0 for rank 9: the message says where the 0
 * the program never wrote comes from. */
static amp_status view_extent_nd_rank_9(void)
{
    const int dims[9] = {1, 1, 1, 1, 1, 1, 1, 1, 4};
    return create(0, AMP_INT, amp_extent_nd(9, dims), F.ints);
}

static amp_status view_extent_rank_negative(void)
{
    amp_extent e = {-1, {4, 4, 4}};
    return create(1, AMP_INT, e, F.konst);
}

static amp_status view_elements_overflow_64_bits(void)
{
    return create(0, AMP_INT, amp_extent_3d(INT_MAX, INT_MAX, INT_MAX), F.ints);
}

static amp_status view_bytes_overflow_size_t(void)
{
    /* 2^62 elements of 8 bytes: the element count fits, the bytes do not. */
    return create(0, AMP_DOUBLE, amp_extent_3d(1 << 21, 1 << 21, 1 << 20), F.doubles);
}

static amp_status domain_1d_zero(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(0), i, AMP_NO_CAPTURE, { (void)i; });
}

static amp_status domain_2d_negative(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_2d(3, -1), i, AMP_NO_CAPTURE, { (void)i; });
}

static amp_status domain_3d_zero(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_3d(0, 2, 2), i, AMP_NO_CAPTURE, { (void)i; });
}

static amp_status domain_rank_0(void)
{
    amp_extent e = {0, {1, 1, 1}};
    return AMP_PARALLEL_FOR_EACH(e, i, AMP_NO_CAPTURE, { (void)i; });
}

static amp_status domain_rank_9(void)
{
    amp_extent e = {9, {1, 1, 1, 1, 1, 1, 1, 1}};
    return AMP_PARALLEL_FOR_EACH(e, i, AMP_NO_CAPTURE, { (void)i; });
}

static amp_status tiled_domain_2d_zero(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(4, 0), 2, 2), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status tiled_domain_3d_negative(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_3d(2, 2, -4), 2, 2, 2), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status domain_over_2_to_the_64_threads(void)
{
    /* 2^93 threads: more than any device can index. */
    return AMP_PARALLEL_FOR_EACH(amp_extent_3d(INT_MAX, INT_MAX, INT_MAX), i, AMP_NO_CAPTURE,
                                 { (void)i; });
}

static amp_status domain_of_2_to_the_32_groups(void)
{
    /* 2^40 threads: within 64-bit addresses, but 2^32 groups of 256, past
     * what devices count (PoCL divided by zero, after AMP_OK). */
    return AMP_PARALLEL_FOR_EACH(amp_extent_2d(1 << 20, 1 << 20), i, AMP_NO_CAPTURE,
                                 { (void)i; });
}

/* ==== Rank mismatches ==== */

static amp_status rank_2_view_given_one_integer(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_2d(8, 8), F.grid);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i[0]) = 1; });
}

static amp_status rank_1_view_given_two_integers(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i[0], 0) = 1; });
}

static amp_status rank_3_view_given_two_integers(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_3d(4, 4, 4), F.cube);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0], 0) = 1; });
}

/* The three below guard the access so that, were they compiled, they would
 * touch nothing; the error must point at the line of the access. */
static amp_status rank_2_view_given_a_rank_1_index(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_2d(8, 8), F.grid);
    expect_line(__LINE__ + 3);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), {
        if (i[0] < 0)
            v(i) = 1;
    });
}

static amp_status rank_3_view_given_a_rank_2_index(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_3d(4, 4, 4), F.cube);
    expect_line(__LINE__ + 3);
    return AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), i, AMP_CAPTURE(v), {
        if (i[0] < 0)
            v(i) = 1;
    });
}

static amp_status view_given_a_float_index(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 3);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), {
        float q = 1.0f;
        v(q) = 1;
    });
}

static amp_status rank_1_view_given_a_rank_2_index(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 3);
    return AMP_PARALLEL_FOR_EACH(amp_extent_2d(4, 4), i, AMP_CAPTURE(v), {
        if (i[0] < 0)
            v(i) = 1;
    });
}

static amp_status tile_rank_1_on_extent_rank_2(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_2d(4, 4), 2), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status tile_rank_3_on_extent_rank_2(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_2d(4, 4), 2, 2, 1), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status padded_original_of_another_rank(void)
{
    amp_tiled_extent t = amp_extent_tile_2d(amp_extent_2d(4, 4), 2, 2);
    t.padded = 1;
    t.original = amp_extent_1d(3);
    return AMP_PARALLEL_FOR_EACH(t, q, AMP_NO_CAPTURE, { (void)q; });
}

static amp_status padded_original_larger_than_padded(void)
{
    amp_tiled_extent t = amp_extent_tile_1d(amp_extent_1d(8), 4);
    t.padded = 1;
    t.original = amp_extent_1d(9);
    return AMP_PARALLEL_FOR_EACH(t, q, AMP_NO_CAPTURE, { (void)q; });
}

static amp_status tiled_index_members_in_untiled_kernel(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0]) = i.local[0]; });
}

/* ==== Element types ==== */

static amp_status view_type_zero(void)
{
    return create(0, (amp_elem_type)0, amp_extent_1d(N), F.ints);
}

static amp_status view_type_past_the_last(void)
{
    return create(0, (amp_elem_type)(AMP_DOUBLE_4 + 1), amp_extent_1d(N), F.ints);
}

static amp_status view_type_texture_only(void)
{
    return create(0, AMP_UNORM, amp_extent_1d(N), F.ints);
}

static amp_status view_type_negative(void)
{
    return create(0, (amp_elem_type)-1, amp_extent_1d(N), F.ints);
}

static amp_status const_view_type_unknown(void)
{
    return create(1, (amp_elem_type)42, amp_extent_1d(N), F.konst);
}

static amp_status type_helpers_of_unknown_type(void)
{
    if (amp_elem_type_size((amp_elem_type)42) != 0 ||
        strcmp(amp_elem_type_name((amp_elem_type)42), "unknown") != 0) {
        snprintf(F.note, sizeof F.note, "size %zu, name \"%s\"",
                 amp_elem_type_size((amp_elem_type)42), amp_elem_type_name((amp_elem_type)42));
        return WRONG_VALUE;
    }
    return AMP_OK;
}

static amp_status names_of_unknown_codes(void)
{
    if (strcmp(amp_status_name((amp_status)42), "AMP_STATUS_UNKNOWN") != 0 ||
        strcmp(amp_transfer_reason_name((amp_transfer_reason)42), "unknown") != 0) {
        snprintf(F.note, sizeof F.note, "\"%s\", \"%s\"", amp_status_name((amp_status)42),
                 amp_transfer_reason_name((amp_transfer_reason)42));
        return WRONG_VALUE;
    }
    return AMP_OK;
}

static amp_status same_memory_larger_view(void)
{
    view_of(AMP_INT, amp_extent_1d(N / 2), F.ints);
    return create(0, AMP_INT, amp_extent_1d(N), F.ints);
}

static amp_status capture_long(void)
{
    long wide = 5;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(wide), { (void)i; });
}

static amp_status capture_pointer(void)
{
    int *ptr = F.ints;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(ptr), { (void)i; });
}

static amp_status capture_size_t(void)
{
    size_t count = 4;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(count), { (void)i; });
}

static amp_status capture_long_double(void)
{
    long double precise = 0.5L;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(precise), { (void)i; });
}

static amp_status capture_char(void)
{
    char letter = 'x';
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(letter), { (void)i; });
}

static amp_status capture_struct(void)
{
    struct {
        int a, b;
    } pair = {1, 2};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(pair), { (void)i; });
}

static amp_status capture_of_unknown_kind(void)
{
    amp_capture c = {"n", (amp_capture_kind)99, AMP_INT, {.i = 1}};
    amp_capture_list list = {1, &c};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status scalar_capture_of_unknown_type(void)
{
    amp_capture c = {"n", AMP_CAPTURE_SCALAR, (amp_elem_type)0, {.i = 1}};
    amp_capture_list list = {1, &c};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status double_view_without_fp64(void)
{
    amp_array_view *d = view_of(AMP_DOUBLE, amp_extent_1d(N / 2), F.doubles);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(d), { d(i[0]) = 1; });
}

static amp_status double_scalar_without_fp64(void)
{
    double scale = 2.0;
    amp_array_view *v = view_of(AMP_FLOAT, amp_extent_1d(N), F.floats);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v, scale),
                                 { v(i[0]) = (float)scale; });
}

static amp_status double_in_body_without_fp64(void)
{
    amp_array_view *v = view_of(AMP_FLOAT, amp_extent_1d(N), F.floats);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v),
                                 { double x = 0.5; v(i[0]) = (float)x; });
}

/* Element types that do not fit their use in a kernel: the build stops at
 * the user's line. */

static amp_status member_of_an_int_view(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0]).a = 1; });
}

static amp_status member_the_struct_lacks(void)
{
    /* Two ints are one pair's bytes. */
    amp_array_view *p = view_of(pair_type(), amp_extent_1d(N / 2), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(p), { p(i[0]).c = 1; });
}

static amp_status int_stored_into_a_struct_element(void)
{
    amp_array_view *p = view_of(pair_type(), amp_extent_1d(N / 2), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(p), { p(i[0]) = 1; });
}

static amp_status struct_element_stored_into_an_int_view(void)
{
    amp_array_view *p = const_view_of(pair_type(), amp_extent_1d(N / 2), F.konst);
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(p, v), { v(i[0]) = p(i[0]); });
}

static amp_status atomic_on_a_double_view(void)
{
    amp_array_view *d = view_of(AMP_DOUBLE, amp_extent_1d(N / 2), F.doubles);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(d), { atomic_fetch_add(&d(i[0]), 1.0); });
}

static amp_status atomic_on_a_float_member(void)
{
    amp_array_view *p = view_of(pair_type(), amp_extent_1d(N / 2), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(p), { atomic_fetch_add(&p(i[0]).b, 1.0f); });
}

static amp_status atomic_on_a_struct_element(void)
{
    amp_array_view *p = view_of(pair_type(), amp_extent_1d(N / 2), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(p), { atomic_fetch_add(&p(i[0]), 1); });
}

static amp_status exchange_on_a_double_view(void)
{
    amp_array_view *d = view_of(AMP_DOUBLE, amp_extent_1d(N / 2), F.doubles);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(d), { atomic_exchange(&d(i[0]), 1.0); });
}

static amp_status compare_exchange_on_a_float_view(void)
{
    amp_array_view *f = view_of(AMP_FLOAT, amp_extent_1d(N), F.floats);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(f), { float e = 0; atomic_compare_exchange(&f(i[0]), &e, 1.0f); });
}

static amp_status sample_of_an_int_texture(void)
{
    amp_texture *t = texture_of(AMP_INT, 1);
    amp_array_view *f = view_of(AMP_FLOAT, amp_extent_1d(N), F.floats);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(t, f), { f(i[0]) = amp_sample(t, 0.5f); });
}

static amp_status two_channel_texel_read_as_an_int(void)
{
    amp_texture *t = texture_of(AMP_INT, 2);
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(t, v), { v(i[0]) = t(i[0]); });
}

static amp_status channel_of_a_one_channel_texture(void)
{
    amp_texture *t = texture_of(AMP_INT, 1);
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(t, v), { v(i[0]) = t(i[0]).y; });
}

static int device_has_fp64(void)
{
    return dev.fp64;
}

/* ==== Tiles ==== */

static amp_status tile_not_dividing_1d(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(10), 4), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status tile_not_dividing_2d(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(8, 6), 2, 4), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status tile_not_dividing_3d(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_3d(amp_extent_3d(4, 4, 5), 2, 2, 2), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status tile_dimension_zero(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_2d(amp_extent_2d(4, 4), 2, 0), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status tile_dimension_negative(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(4), -2), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

/* The smallest power of two over the device's threads per tile. */
static int over_max_tile(void)
{
    int n = 1;
    while ((size_t)n <= dev.max_tile)
        n *= 2;
    return n;
}

static amp_status tile_over_work_group_limit_1d(void)
{
    int n = over_max_tile();
    return AMP_PARALLEL_FOR_EACH(amp_extent_tile_1d(amp_extent_1d(n), n), t,
                                 AMP_NO_CAPTURE, { (void)t; });
}

static amp_status tile_over_work_group_limit_3d(void)
{
    /* Each side within the limit, their product over it. */
    int side = 1;
    while ((size_t)side * (size_t)side * (size_t)side <= dev.max_tile)
        side *= 2;
    return AMP_PARALLEL_FOR_EACH(
        amp_extent_tile_3d(amp_extent_3d(side, side, side), side, side, side), t, AMP_NO_CAPTURE,
        { (void)t; });
}

static amp_status tile_static_over_local_memory(void)
{
    /* Twice the device's tile_static memory, read back so that the compiler
     * cannot drop the array. */
    const long long WORDS = (long long)(dev.local_mem / sizeof(float)) * 2;
    amp_array_view *out = view_of(AMP_FLOAT, amp_extent_1d(16), F.floats);
    return AMP_PARALLEL_FOR_EACH(one_tile(), t, AMP_CAPTURE(out, AMP_CONST(WORDS)), {
        tile_static float big[WORDS];
        big[t.local[0]] = 1.0f;
        t.barrier.wait();
        out(t.global[0]) = big[WORDS - 1 - t.local[0]];
    });
}

/* ==== Kernels that do not compile ==== */

/* Each kernel that must not compile is written on the line after
 * expect_line(), in one piece, so that the message must name that line. */

static amp_status build_undeclared_identifier(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0]) = undeclared_name + 1; });
}

static amp_status build_syntax_error(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0]) = 1 +; });
}

static amp_status build_write_to_const_view(void)
{
    amp_array_view *k = const_view_of(AMP_INT, amp_extent_1d(N), F.konst);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(k), { k(i[0]) = 1; });
}

static amp_status build_undefined_function(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i[0]) = no_such_function(i[0]); });
}

static amp_status build_atomic_on_float(void)
{
    amp_array_view *v = view_of(AMP_FLOAT, amp_extent_1d(N), F.floats);
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { atomic_fetch_add(&v(i[0]), 1.0f); });
}

static amp_status build_negative_array_bound(void)
{
    const int LEN = -1;
    expect_line(__LINE__ + 1);
    return AMP_PARALLEL_FOR_EACH(one_tile(), t, AMP_CAPTURE(AMP_CONST(LEN)), { tile_static int a[LEN]; a[0] = t.local[0]; });
}

static amp_status build_call_site_file_unreadable(void)
{
    /* The call site's file cannot be read: the message still names it. */
    amp_kernel_source k = {"moved_away.c", 7, "i", "{ undeclared_x = 1; }", 21, 0};
    return amp_parallel_for_each(NULL, amp_extent_1d(4), &k, AMP_NO_CAPTURE);
}

static amp_status build_error_in_kernel_file(void)
{
    /* The mistake is on line 3 of the file. */
    const char *path =
        kernel_file("// a kernel file\nint x = idx[0];\nout(x) = x + not_declared_here;\n");
    amp_kernel_source *src = NULL;
    assert_amp_ok(amp_kernel_source_load(path, "idx", &src));
    amp_array_view *out = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    snprintf(F.also, sizeof F.also, "%s:3:", path);
    amp_status st = amp_parallel_for_each(NULL, amp_extent_1d(4), src, AMP_CAPTURE(out));
    amp_kernel_source_release(src);
    return st;
}

static amp_status kernel_file_missing(void)
{
    amp_kernel_source *src = NULL;
    return amp_kernel_source_load("/nonexistent/kernel.cl", "idx", &src);
}

static amp_status kernel_file_is_a_folder(void)
{
    kernel_file("{}");
    amp_kernel_source *src = NULL;
    amp_status st = amp_kernel_source_load(F.dir, "idx", &src);
    amp_kernel_source_release(src);
    return st;
}

/* ==== Handles: released, foreign or made up, and used after amp_shutdown ==== */

/* An address nothing is mapped at: a library that read it would crash. */
#define MADE_UP ((void *)(uintptr_t)0x40)

static amp_completion *a_marker(void)
{
    amp_accelerator_view *av;
    amp_completion *c = NULL;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(amp_accelerator_view_create_marker(av, &c));
    return c;
}

static amp_status completion_released_twice(void)
{
    amp_completion *c = a_marker();
    assert_amp_ok(amp_completion_release(c));
    return amp_completion_release(c);
}

static amp_status completion_waited_on_after_release(void)
{
    amp_completion *c = NULL;
    assert_amp_ok(amp_array_view_synchronize_async(view_of(AMP_INT, amp_extent_1d(N), F.ints), &c));
    assert_amp_ok(amp_completion_release(c));
    return amp_completion_wait(c);
}

static amp_status completion_made_up(void)
{
    int done = 0;
    return amp_completion_is_done((amp_completion *)MADE_UP, &done);
}

static amp_status completion_of_another_kind(void)
{
    int done = 0;
    return amp_completion_is_done((amp_completion *)(void *)view_of(AMP_INT, amp_extent_1d(N),
                                                                    F.ints),
                                  &done);
}

static amp_status kernel_source_released_twice(void)
{
    amp_kernel_source *src = NULL;
    assert_amp_ok(amp_kernel_source_load(kernel_file("v(i) = 1;\n"), "i", &src));
    assert_amp_ok(amp_kernel_source_release(src));
    return amp_kernel_source_release(src);
}

static amp_status kernel_source_literal_released(void)
{
    return amp_kernel_source_release((amp_kernel_source *)AMP_KERNEL_SOURCE(i, { (void)i; }));
}

static amp_status released_kernel_source_dispatched(void)
{
    amp_kernel_source *src = NULL;
    assert_amp_ok(amp_kernel_source_load(kernel_file("v(i) = 1;\n"), "i", &src));
    assert_amp_ok(amp_kernel_source_release(src));
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return amp_parallel_for_each(NULL, amp_extent_1d(N), src, AMP_CAPTURE(v));
}

static amp_status accelerator_info_of_made_up(void)
{
    amp_accelerator_info info;
    return amp_accelerator_get_info((const amp_accelerator *)MADE_UP, &info);
}

static amp_status accelerator_info_after_shutdown(void)
{
    amp_accelerator *acc;
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_default(&acc));
    assert_amp_ok(amp_shutdown());
    return amp_accelerator_get_info(acc, &info);
}

static amp_status accelerator_view_released_twice(void)
{
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    assert_amp_ok(amp_accelerator_view_release(av));
    return amp_accelerator_view_release(av);
}

static amp_status array_copied_to_host_after_shutdown(void)
{
    /* The array holds other values than F.ints: the canary check after the
     * case finds any byte the copy wrote. */
    amp_array *a = NULL;
    assert_amp_ok(amp_array_create_from_host(AMP_INT, amp_extent_1d(N), F.grid, NULL, &a));
    track_array(a);
    assert_amp_ok(amp_shutdown());
    return AMP_COPY(a, F.ints);
}

static amp_status view_of_array_synchronized_after_shutdown(void)
{
    amp_array *a = array_of(AMP_INT, amp_extent_1d(N));
    amp_array_view *v = NULL;
    assert_amp_ok(amp_array_view_create_from_array(a, &v));
    track(v, 0);
    assert_amp_ok(amp_shutdown());
    return amp_array_view_synchronize(v);
}

static amp_status kernel_file_dev_zero(void)
{
    amp_kernel_source *src = NULL;
    return amp_kernel_source_load("/dev/zero", "idx", &src);
}

static amp_status kernel_file_fifo(void)
{
    kernel_file("");
    unlink(F.path);
    if (mkfifo(F.path, 0600) != 0)
        fail_msg("cannot make a FIFO at %s", F.path);
    amp_kernel_source *src = NULL;
    return amp_kernel_source_load(F.path, "idx", &src);
}

static amp_status kernel_file_too_large(void)
{
    kernel_file("");
    if (truncate(F.path, (off_t)64 * 1024 * 1024) != 0) /* sparse: no disk used */
        fail_msg("cannot grow %s", F.path);
    amp_kernel_source *src = NULL;
    return amp_kernel_source_load(F.path, "idx", &src);
}

/* ==== Allocations larger than the device ==== */

static amp_status view_larger_than_device_memory(void)
{
    /* One row of 4096 ints more than the device's memory. */
    int rows = (int)(dev.memory / (4096 * sizeof(int))) + 1;
    void *mem = zeros((size_t)rows * 4096 * sizeof(int));
    amp_array_view *huge = NULL;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(rows, 4096), mem, &huge));
    track(huge, 0);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(huge),
                                 { int x = huge(0, i[0]); (void)x; });
}

static int device_has_smaller_max_allocation(void)
{
    return dev.max_alloc < dev.memory;
}

static amp_status view_larger_than_max_allocation(void)
{
    /* Under the device's memory, over its largest single allocation. */
    int rows = (int)(dev.max_alloc / (4096 * sizeof(int))) + 1;
    void *mem = zeros((size_t)rows * 4096 * sizeof(int));
    amp_array_view *big = NULL;
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_2d(rows, 4096), mem, &big));
    track(big, 0);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(big),
                                 { int x = big(0, i[0]); (void)x; });
}

/* ==== Use after release, double release ==== */

static amp_status double_release(void)
{
    return amp_array_view_release(released_view());
}

static amp_status synchronize_released(void)
{
    return amp_array_view_synchronize(released_view());
}

static amp_status data_of_released(void)
{
    void *p;
    return amp_array_view_data(released_view(), &p);
}

static amp_status data_const_of_released(void)
{
    const void *p;
    return amp_array_view_data_const(released_view(), &p);
}

static amp_status discard_released(void)
{
    return amp_array_view_discard_data(released_view());
}

static amp_status refresh_released(void)
{
    return amp_array_view_refresh(released_view());
}

static amp_status transfers_of_released(void)
{
    amp_transfer_stats s;
    return amp_array_view_get_transfers(released_view(), &s);
}

static amp_status capture_released(void)
{
    amp_array_view *gone = released_view();
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(gone), { gone(i[0]) = 1; });
}

static amp_status capture_released_tiled(void)
{
    amp_array_view *gone = released_view();
    return AMP_PARALLEL_FOR_EACH(one_tile(), t, AMP_CAPTURE(gone),
                                 { gone(t.global[0]) = 1; });
}

static amp_status release_never_created(void)
{
    /* Any address that is not a view: it is looked up, never read. */
    return amp_array_view_release((amp_array_view *)(void *)F.ints);
}

static amp_status capture_never_created(void)
{
    amp_array_view *fake = (amp_array_view *)(void *)F.ints;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(fake), { fake(i[0]) = 1; });
}

static amp_status release_stale_handle_after_address_reuse(void)
{
    /* Views made after one was released must never take its address (with
     * glibc's allocator the next view of the same size would): the stale
     * handle would name the new view, and release it. Many views come and
     * go here, and the one made last must survive the stale release. */
    amp_array_view *stale = NULL, *fresh = NULL;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), F.ints, &stale));
    assert_amp_ok(amp_array_view_release(stale));
    for (int tries = 0; tries < 1000; tries++) {
        assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), F.floats, &fresh));
        if (fresh == stale)
            fail_msg("view %d after the release took the released view's address", tries + 1);
        assert_amp_ok(amp_array_view_release(fresh));
    }
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), F.floats, &fresh));
    track(fresh, 0);
    return amp_array_view_release(stale);
}

static amp_status getters_of_released(void)
{
    /* A released handle answers as a NULL one does. */
    amp_array_view *gone = released_view();
    if (amp_array_view_get_extent(gone).rank != 0 || amp_array_view_get_type(gone) != 0 ||
        amp_array_view_is_const(gone) != 0) {
        snprintf(F.note, sizeof F.note, "a getter of a released view gave a nonzero value");
        return WRONG_VALUE;
    }
    return AMP_OK;
}

static amp_status writable_data_of_const_view(void)
{
    void *p = NULL;
    return amp_array_view_data(const_view_of(AMP_INT, amp_extent_1d(N), F.konst), &p);
}

/* ==== Captures ==== */

#define HOST_MACRO 8
static amp_status capture_host_macro(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(HOST_MACRO), { (void)i; });
}

static amp_status capture_scalar_twice(void)
{
    int n = 1;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(n, n), { (void)i; });
}

static amp_status capture_view_twice(void)
{
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v, v), { v(i[0]) = 1; });
}

static amp_status too_many_captures(void)
{
    static char names[AMP_MAX_CAPTURES + 1][8];
    amp_capture items[AMP_MAX_CAPTURES + 1];
    for (int i = 0; i <= AMP_MAX_CAPTURES; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i);
        items[i] = (amp_capture){names[i], AMP_CAPTURE_SCALAR, AMP_INT, {.i = i}};
    }
    amp_capture_list list = {AMP_MAX_CAPTURES + 1, items};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status negative_capture_count(void)
{
    amp_capture c = {"n", AMP_CAPTURE_SCALAR, AMP_INT, {.i = 1}};
    amp_capture_list list = {-1, &c};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status capture_expression(void)
{
    int n = 1;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(n + 1), { (void)i; });
}

static amp_status capture_array_element(void)
{
    int arr[2] = {1, 2};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(arr[0]), { (void)i; });
}

static amp_status capture_named_like_a_keyword(void)
{
    amp_capture c = {"int", AMP_CAPTURE_SCALAR, AMP_INT, {.i = 1}};
    amp_capture_list list = {1, &c};
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, list, { (void)i; });
}

static amp_status capture_named_like_the_index(void)
{
    int i = 3;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(i), { (void)i[0]; });
}

/* ==== Index names ==== */

static amp_status index_name(const char *name)
{
    amp_kernel_source k = {__FILE__, __LINE__, name, "{ }", 3, 0};
    return amp_parallel_for_each(NULL, amp_extent_1d(4), &k, AMP_NO_CAPTURE);
}

static amp_status index_name_empty(void)
{
    return index_name("");
}

static amp_status index_name_starting_with_a_digit(void)
{
    return index_name("1i");
}

static amp_status index_name_with_a_space(void)
{
    return index_name("t idx");
}

static amp_status index_name_an_expression(void)
{
    return index_name("idx[0]");
}

static amp_status index_name_a_keyword(void)
{
    return index_name("int");
}

static amp_status index_name_bad_tiled(void)
{
    amp_kernel_source k = {__FILE__, __LINE__, "t-idx", "{ }", 3, 0};
    return amp_parallel_for_each_tiled(NULL, one_tile(), &k, AMP_NO_CAPTURE);
}

static amp_status index_name_bad_for_kernel_file(void)
{
    amp_kernel_source *src = NULL;
    return amp_kernel_source_load("kernel.cl", "9lives", &src);
}

/* ==== AMP_CONST misuse ==== */

static amp_status const_of_a_literal(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(AMP_CONST(4)), { (void)i; });
}

static amp_status const_of_an_expression(void)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(AMP_CONST(HOST_MACRO * 2)),
                                 { (void)i; });
}

static amp_status const_named_like_a_scalar(void)
{
    int n = 1;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(n, AMP_CONST(n)), { (void)i; });
}

static amp_status const_named_like_the_index(void)
{
    const int i = 3;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(AMP_CONST(i)), { (void)i[0]; });
}

/* ==== amp_tiled_extent_pad and _truncate on bad input ==== */

/* Pad or truncate a tiled extent they cannot round whole, and run over the
 * result: the parallel_for_each reports what is wrong. Where nothing can be
 * rounded (the ranks are wrong, or every dimension is bad) the tiled extent
 * must come back as it was; a zero tile leaves only its own dimension. */
static amp_status run_rounded(amp_tiled_extent before, int pad, int unchanged)
{
    amp_tiled_extent t = pad ? amp_tiled_extent_pad(before) : amp_tiled_extent_truncate(before);
    if (unchanged && (!amp_extent_equal(t.extent, before.extent) || t.padded)) {
        snprintf(F.note, sizeof F.note, "%s changed an extent it cannot round",
                 pad ? "pad" : "truncate");
        return WRONG_VALUE;
    }
    return AMP_PARALLEL_FOR_EACH(t, q, AMP_NO_CAPTURE, { (void)q; });
}

static amp_status pad_tile_rank_mismatch(void)
{
    return run_rounded(amp_extent_tile_1d(amp_extent_2d(5, 5), 2), 1, 1);
}

static amp_status pad_tile_zero(void)
{
    return run_rounded(amp_extent_tile_2d(amp_extent_2d(5, 5), 2, 0), 1, 0);
}

static amp_status pad_extent_negative(void)
{
    return run_rounded(amp_extent_tile_1d(amp_extent_1d(-4), 4), 1, 1);
}

static amp_status pad_rank_4(void)
{
    amp_tiled_extent t = {{4, {4, 4, 4, 4}}, 4, {2, 2, 2}, 0, {0, {0}}};
    return run_rounded(t, 1, 1);
}

static amp_status pad_past_int_max(void)
{
    amp_tiled_extent t = amp_tiled_extent_pad(amp_extent_tile_1d(amp_extent_1d(INT_MAX), 1024));
    return AMP_PARALLEL_FOR_EACH(t, q, AMP_NO_CAPTURE, { (void)q; });
}

static amp_status truncate_tile_zero(void)
{
    return run_rounded(amp_extent_tile_1d(amp_extent_1d(5), 0), 0, 1);
}

static amp_status truncate_tile_rank_mismatch(void)
{
    return run_rounded(amp_extent_tile_2d(amp_extent_3d(4, 4, 4), 2, 2), 0, 1);
}

static amp_status truncate_below_one_tile(void)
{
    amp_tiled_extent t = amp_tiled_extent_truncate(amp_extent_tile_2d(amp_extent_2d(3, 8), 4, 4));
    return AMP_PARALLEL_FOR_EACH(t, q, AMP_NO_CAPTURE, { (void)q; });
}

/* ==== Accelerators ==== */

static amp_status accelerator_index_past_the_end(void)
{
    size_t n = 0;
    amp_accelerator *acc = NULL;
    assert_amp_ok(amp_accelerator_count(&n));
    return amp_accelerator_get(n, &acc);
}

static amp_status accelerator_index_huge(void)
{
    amp_accelerator *acc = NULL;
    return amp_accelerator_get(SIZE_MAX, &acc);
}

/* The default is chosen once: start afresh under the given AMP_DEVICE,
 * then put the environment back as the test found it. */
static amp_status default_under(const char *device)
{
    setenv("AMP_DEVICE", device, 1);
    amp_shutdown();
    amp_accelerator *acc = NULL;
    amp_status st = amp_accelerator_get_default(&acc);
    if (dev.saved_device)
        setenv("AMP_DEVICE", dev.saved_device, 1);
    else
        unsetenv("AMP_DEVICE");
    return st;
}

static amp_status device_name_matching_none(void)
{
    return default_under("no-such-device");
}

static amp_status device_index_out_of_range(void)
{
    return default_under("99");
}

/* ==== Sections out of range ==== */

/* The call a row is about, when it derives a view from another: a view it
 * makes by mistake is released after the case. */
static amp_status derived(amp_status st, amp_array_view *out)
{
    if (out)
        track(out, 0);
    return st;
}

static amp_status section_of(amp_array_view *v, amp_index origin, amp_extent extent)
{
    amp_array_view *s = NULL;
    return derived(amp_array_view_section(v, origin, extent, &s), s);
}

static amp_status section_origin_negative(void)
{
    return section_of(view_of(AMP_INT, amp_extent_1d(N), F.ints), amp_index_1d(-1),
                      amp_extent_1d(4));
}

static amp_status section_past_the_end_1d(void)
{
    return section_of(view_of(AMP_INT, amp_extent_1d(N), F.ints), amp_index_1d(60),
                      amp_extent_1d(8));
}

static amp_status section_past_the_end_2d(void)
{
    /* Rows 2..5 fit; columns 5..8 do not. */
    return section_of(view_of(AMP_INT, amp_extent_2d(8, 8), F.grid), amp_index_2d(2, 5),
                      amp_extent_2d(4, 4));
}

static amp_status section_past_the_end_3d(void)
{
    return section_of(view_of(AMP_INT, amp_extent_3d(4, 4, 4), F.cube), amp_index_3d(0, 1, 3),
                      amp_extent_3d(4, 2, 2));
}

static amp_status section_origin_near_int_max(void)
{
    /* origin + extent passes INT_MAX: the bound is checked without
     * overflowing. */
    return section_of(view_of(AMP_INT, amp_extent_1d(N), F.ints), amp_index_1d(INT_MAX),
                      amp_extent_1d(2));
}

static amp_status section_origin_of_another_rank(void)
{
    return section_of(view_of(AMP_INT, amp_extent_2d(8, 8), F.grid), amp_index_1d(0),
                      amp_extent_2d(2, 2));
}

static amp_status section_extent_of_another_rank(void)
{
    return section_of(view_of(AMP_INT, amp_extent_2d(8, 8), F.grid), amp_index_2d(0, 0),
                      amp_extent_3d(2, 2, 1));
}

static amp_status section_extent_zero(void)
{
    return section_of(view_of(AMP_INT, amp_extent_1d(N), F.ints), amp_index_1d(0),
                      amp_extent_1d(0));
}

static amp_status section_extent_negative(void)
{
    return section_of(view_of(AMP_INT, amp_extent_2d(8, 8), F.grid), amp_index_2d(0, 0),
                      amp_extent_2d(2, -2));
}

static amp_status section_of_released(void)
{
    return section_of(released_view(), amp_index_1d(0), amp_extent_1d(4));
}

static amp_status section_of_section_past_its_end(void)
{
    /* Elements 18..25 are inside the view, but outside the section of 16
     * from 8 that the call is given. */
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    amp_array_view *s = NULL;
    assert_amp_ok(amp_array_view_section(v, amp_index_1d(8), amp_extent_1d(16), &s));
    track(s, 0);
    return section_of(s, amp_index_1d(10), amp_extent_1d(8));
}

static amp_status project_index_negative(void)
{
    amp_array_view *row = NULL;
    return derived(amp_array_view_project(view_of(AMP_INT, amp_extent_2d(8, 8), F.grid), -1, &row),
                   row);
}

static amp_status project_past_leading_dimension(void)
{
    amp_array_view *plane = NULL;
    return derived(
        amp_array_view_project(view_of(AMP_INT, amp_extent_3d(4, 4, 4), F.cube), 4, &plane),
        plane);
}

static amp_status project_rank_1(void)
{
    amp_array_view *none = NULL;
    return derived(amp_array_view_project(view_of(AMP_INT, amp_extent_1d(N), F.ints), 0, &none),
                   none);
}

static amp_status view_as_other_element_count(void)
{
    amp_array_view *w = NULL;
    return derived(
        amp_array_view_view_as(view_of(AMP_INT, amp_extent_1d(N), F.ints), amp_extent_2d(8, 7), &w),
        w);
}

static amp_status view_as_part_of_each_row(void)
{
    /* The left half of an 8x8 grid: four elements, then a gap of four. */
    amp_array_view *v = view_of(AMP_INT, amp_extent_2d(8, 8), F.grid);
    amp_array_view *half = NULL, *w = NULL;
    assert_amp_ok(amp_array_view_section(v, amp_index_2d(0, 0), amp_extent_2d(8, 4), &half));
    track(half, 0);
    return derived(amp_array_view_view_as(half, amp_extent_1d(32), &w), w);
}

static amp_status reinterpret_size_not_dividing(void)
{
    /* 63 ints, 252 bytes: not a whole number of doubles. */
    amp_array_view *d = NULL;
    return derived(amp_array_view_reinterpret_as(view_of(AMP_INT, amp_extent_1d(N - 1), F.ints),
                                                 AMP_DOUBLE, &d),
                   d);
}

static amp_status reinterpret_rank_2(void)
{
    amp_array_view *f = NULL;
    return derived(amp_array_view_reinterpret_as(view_of(AMP_INT, amp_extent_2d(8, 8), F.grid),
                                                 AMP_FLOAT, &f),
                   f);
}

static amp_status reinterpret_offset_not_whole(void)
{
    /* Two ints from element 1: 8 bytes, a whole double, but from byte 4. */
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    amp_array_view *s = NULL, *d = NULL;
    assert_amp_ok(amp_array_view_section(v, amp_index_1d(1), amp_extent_1d(2), &s));
    track(s, 0);
    return derived(amp_array_view_reinterpret_as(s, AMP_DOUBLE, &d), d);
}

static amp_status reinterpret_as_unknown_type(void)
{
    amp_array_view *u = NULL;
    return derived(amp_array_view_reinterpret_as(view_of(AMP_INT, amp_extent_1d(N), F.ints),
                                                 (amp_elem_type)42, &u),
                   u);
}

/* ==== Arrays given where a view is expected ==== */

/* The call a row is about, when it makes an array: one it makes by
 * mistake is released after the case. */
static amp_status made(amp_status st, amp_array *out)
{
    if (out)
        track_array(out);
    return st;
}

static amp_status array_extent_zero(void)
{
    amp_array *a = NULL;
    return made(amp_array_create(AMP_INT, amp_extent_1d(0), NULL, &a), a);
}

static amp_status array_extent_negative(void)
{
    amp_array *a = NULL;
    return made(amp_array_create(AMP_FLOAT, amp_extent_2d(4, -4), NULL, &a), a);
}

static amp_status array_type_unknown(void)
{
    amp_array *a = NULL;
    return made(amp_array_create((amp_elem_type)42, amp_extent_1d(N), NULL, &a), a);
}

static amp_status array_null_out(void)
{
    return amp_array_create(AMP_INT, amp_extent_1d(N), NULL, NULL);
}

static amp_status array_from_null_host_data(void)
{
    amp_array *a = NULL;
    return made(amp_array_create_from_host(AMP_INT, amp_extent_1d(N), NULL, NULL, &a), a);
}

static amp_status array_from_released_view(void)
{
    amp_array *a = NULL;
    return made(amp_array_create_from_view(released_view(), NULL, &a), a);
}

static amp_status array_double_release(void)
{
    return amp_array_release(released_array());
}

static amp_status view_of_released_array(void)
{
    amp_array_view *v = NULL;
    amp_status st = amp_array_view_create_from_array(released_array(), &v);
    if (v)
        track(v, 0);
    return st;
}

static amp_status copy_extents_differ(void)
{
    /* As many elements, in another shape. */
    amp_array *a = array_of(AMP_INT, amp_extent_2d(8, 8));
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    return AMP_COPY(a, v);
}

static amp_status copy_extent_with_dims_past_its_rank(void)
{
    /* Not bad input: dimensions past an extent's rank are no part of it,
     * so a rank-1 view of 64 whose extent holds other numbers there has
     * the array's extent. */
    amp_extent loose = {1, {N, 5, 5}};
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    amp_array_view *w = NULL;
    assert_amp_ok(amp_array_view_view_as(v, loose, &w));
    track(w, 0);
    return AMP_COPY(w, array_of(AMP_INT, amp_extent_1d(N)));
}

static amp_status copy_element_sizes_differ(void)
{
    amp_array *a = array_of(AMP_INT, amp_extent_1d(N / 2));
    amp_array_view *d = view_of(AMP_DOUBLE, amp_extent_1d(N / 2), F.doubles);
    return AMP_COPY(a, d);
}

/* The same size, another type: the bits of an int are no float of its
 * value. */
static amp_status copy_element_types_differ(void)
{
    amp_array_view *s = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    amp_array *d = array_of(AMP_FLOAT, amp_extent_1d(N));
    return AMP_COPY(s, d);
}

static amp_status copy_from_released_array(void)
{
    amp_array *gone = released_array();
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    snprintf(F.also, sizeof F.also, "amp_copy: the source array %p", (void *)gone);
    return AMP_COPY(gone, v);
}

static amp_status copy_into_released_array(void)
{
    amp_array *gone = released_array();
    amp_array_view *v = view_of(AMP_INT, amp_extent_1d(N), F.ints);
    snprintf(F.also, sizeof F.also, "amp_copy: the destination array %p", (void *)gone);
    return AMP_COPY(v, gone);
}

static amp_status copy_array_into_null_host(void)
{
    amp_array *a = array_of(AMP_INT, amp_extent_1d(N));
    int *nowhere = NULL;
    return AMP_COPY(a, nowhere);
}

static amp_status capture_released_array(void)
{
    amp_array *gone = released_array();
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(gone), { gone(i[0]) = 1; });
}

static amp_status capture_null_array(void)
{
    amp_array *none = NULL;
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(none), { none(i[0]) = 1; });
}

/* Split the CPU device in two (AMP_SPLIT_CPU=2, read when the library
 * starts) and find the two parts; returns how many were found. */
static int split_cpu(amp_accelerator *part[2])
{
    setenv("AMP_SPLIT_CPU", "2", 1);
    amp_shutdown();
    size_t n = 0;
    int found = 0;
    if (amp_accelerator_count(&n) != AMP_OK)
        return 0;
    for (size_t i = 0; i < n && found < 2; i++) {
        amp_accelerator *acc;
        amp_accelerator_info info;
        if (amp_accelerator_get(i, &acc) != AMP_OK ||
            amp_accelerator_get_info(acc, &info) != AMP_OK)
            return found;
        if (info.is_emulated && strrchr(info.device_path, '.'))
            part[found++] = acc;
    }
    return found;
}

/* Put AMP_SPLIT_CPU back as the test found it, and start afresh. */
static void unsplit_cpu(void)
{
    if (dev.saved_split)
        setenv("AMP_SPLIT_CPU", dev.saved_split, 1);
    else
        unsetenv("AMP_SPLIT_CPU");
    amp_shutdown();
}

static int cpu_splits_in_two(void)
{
    amp_accelerator *part[2];
    int found = split_cpu(part);
    unsplit_cpu();
    return found == 2;
}

static amp_status array_on_another_accelerator(void)
{
    amp_accelerator *part[2];
    amp_accelerator_view *on1, *on2;
    amp_accelerator_info a, b;
    if (split_cpu(part) != 2)
        fail_msg("the CPU device did not split in two");
    assert_amp_ok(amp_accelerator_get_info(part[0], &a));
    assert_amp_ok(amp_accelerator_get_info(part[1], &b));
    assert_amp_ok(amp_accelerator_get_default_view(part[0], &on1));
    assert_amp_ok(amp_accelerator_get_default_view(part[1], &on2));
    /* The message must name both accelerators (the info's strings last
     * only until the restart below). */
    snprintf(F.also, sizeof F.also,
             "array 'arr' lives on %s (%s), and this kernel runs on a view of %s (%s)",
             a.description, a.device_path, b.description, b.device_path);
    amp_array *arr = NULL;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(N), on1, &arr));
    amp_status st = AMP_PARALLEL_FOR_EACH_ON(on2, amp_extent_1d(N), i, AMP_CAPTURE(arr),
                                             { arr(i[0]) = 1; });
    /* Calls that succeed leave the message as it is. */
    assert_amp_ok(amp_array_release(arr));
    unsplit_cpu();
    return st;
}

/* ---- The table ---- */

typedef struct bad_case {
    const char *name;
    const char *category;
    amp_status (*provoke)(void);
    amp_status expected;
    const char *message;      /* in amp_last_error(); NULL for a value row */
    int (*applies)(void);     /* NULL, or 0 when the row does not apply to this device */
    const char *known;        /* what the library does wrong today, or NULL */
    int unsafe;               /* a known failure that crashes, hangs or is undefined */
} bad_case;

#define IA AMP_ERROR_INVALID_ARGUMENT
#define ICD AMP_ERROR_INVALID_COMPUTE_DOMAIN
#define KB AMP_ERROR_KERNEL_BUILD
#define DL AMP_ERROR_DEVICE_LIMIT
#define OOM AMP_ERROR_OUT_OF_MEMORY

#define ROW(cat, fn, st, msg) {#fn, cat, fn, st, msg, NULL, NULL, 0}
#define ROW_IF(cat, fn, st, msg, applies) {#fn, cat, fn, st, msg, applies, NULL, 0}
#define KNOWN(cat, fn, st, msg, what) {#fn, cat, fn, st, msg, NULL, what, 0}
#define KNOWN_UNSAFE(cat, fn, st, msg, what) {#fn, cat, fn, st, msg, NULL, what, 1}

static const bad_case table[] = {
    /* NULL handles and pointers, for every public function that takes one. */
    ROW("null", null_accelerator_count, IA, "count is NULL"),
    ROW("null", null_accelerator_get_out, IA, "amp_accelerator_get: out is NULL"),
    ROW("null", null_accelerator_get_default_out, IA, "amp_accelerator_get_default: out is NULL"),
    ROW("null", null_accelerator_info_acc, IA, "amp_accelerator_get_info: the accelerator is NULL"),
    ROW("null", null_accelerator_info_out, IA, "amp_accelerator_get_info: info is NULL"),
    ROW("null", null_default_view_out, IA, "amp_accelerator_get_default_view: out is NULL"),
    ROW("null", null_accelerator_view_wait, IA, "view is NULL"),
    ROW("null", null_accelerator_of_view, AMP_OK, NULL),
    ROW("null", null_view_data_pointer, IA, "amp_array_view_create: data is NULL"),
    ROW("null", null_view_out, IA, "amp_array_view_create: out is NULL"),
    ROW("value", double_view_over_floats, IA,
        "data points to float, and the view's elements are double (8 bytes each): it would read"
        " and write the array as double, past its end"),
    ROW("value", const_int_view_over_floats, IA,
        "amp_array_view_create_const: data points to float, and the view's elements are int"),
    ROW("value", float_vector_view_over_doubles, IA,
        "data points to double, and the view's elements are float_2"),
    ROW("null", null_const_view_data_pointer, IA, "amp_array_view_create_const: data is NULL"),
    ROW("null", null_const_view_out, IA, "amp_array_view_create_const: out is NULL"),
    ROW("null", null_view_synchronize, IA, "amp_array_view_synchronize: the view is NULL"),
    ROW("null", null_view_data, IA, "amp_array_view_data: the view is NULL"),
    ROW("null", null_view_data_out, IA, "amp_array_view_data: out is NULL"),
    ROW("null", null_view_data_const, IA, "amp_array_view_data_const: the view is NULL"),
    ROW("null", null_view_data_const_out, IA, "amp_array_view_data_const: out is NULL"),
    ROW("null", null_view_discard, IA, "amp_array_view_discard_data: the view is NULL"),
    ROW("null", null_view_refresh, IA, "amp_array_view_refresh: the view is NULL"),
    ROW("null", null_view_transfers, IA, "amp_array_view_get_transfers: the view is NULL"),
    ROW("null", null_view_transfers_out, IA, "amp_array_view_get_transfers: out is NULL"),
    ROW("null", null_process_transfers_out, IA, "amp_transfer_get_stats: out is NULL"),
    ROW("null", null_kernel_stats_out, IA, "amp_kernel_get_stats: out is NULL"),
    ROW("null", null_view_release_is_a_no_op, AMP_OK, NULL),
    ROW("null", null_view_getters, AMP_OK, NULL),
    ROW("null", null_kernel_file_path, IA, "must not be NULL"),
    ROW("null", null_kernel_file_index, IA, "must not be NULL"),
    ROW("null", null_kernel_file_out, IA, "amp_kernel_source_load: out is NULL"),
    ROW("null", null_kernel_source_release_is_a_no_op, AMP_OK, NULL),
    ROW("null", null_kernel, IA, "the kernel source is NULL"),
    ROW("null", null_kernel_tiled, IA, "the kernel source is NULL"),
    ROW("null", null_kernel_body, IA, "the kernel source is NULL"),
    ROW("null", null_kernel_index_name, IA, "the kernel source is NULL"),
    ROW("null", null_kernel_file_name, IA, "the kernel source is NULL"),
    ROW("null", null_view_captured, IA, "view 'nothing' is NULL"),
    ROW("null", null_capture_items, IA, "2 captures; a kernel takes 0 to 32"),
    ROW("null", null_capture_name, IA, "capture '(null)' is not a variable name"),
    ROW("null", null_function_source, IA, "function 'helper' has no source"),
    ROW("null", null_set_default, IA, "amp_accelerator_set_default: the accelerator is NULL"),
    ROW("null", null_created_view_out, IA, "amp_accelerator_create_view: out is NULL"),
    ROW("null", null_accelerator_view_release_is_a_no_op, AMP_OK, NULL),
    ROW("null", null_accelerator_view_getters, AMP_OK, NULL),
    ROW("null", null_accelerator_view_flush, IA, "amp_accelerator_view_flush: the accelerator view is NULL"),
    ROW("null", null_marker_view, IA, "amp_accelerator_view_create_marker: the accelerator view is NULL"),
    ROW("null", null_marker_out, IA, "amp_accelerator_view_create_marker: out is NULL"),
    ROW("null", null_completion_wait, IA, "amp_completion_wait: the completion is NULL"),
    ROW("null", null_completion_is_done, IA, "amp_completion_is_done: the completion is NULL"),
    ROW("null", null_completion_is_done_out, IA, "amp_completion_is_done: done is NULL"),
    ROW("null", null_completion_release_is_a_no_op, AMP_OK, NULL),
    ROW("null", null_extent_view_out, IA, "amp_array_view_create_extent: out is NULL"),
    ROW("null", null_section_view, IA, "amp_array_view_section: the view is NULL"),
    ROW("null", null_section_out, IA, "amp_array_view_section: out is NULL"),
    ROW("null", null_project_view, IA, "amp_array_view_project: the view is NULL"),
    ROW("null", null_project_out, IA, "amp_array_view_project: out is NULL"),
    ROW("null", null_view_as_view, IA, "amp_array_view_view_as: the view is NULL"),
    ROW("null", null_view_as_out, IA, "amp_array_view_view_as: out is NULL"),
    ROW("null", null_reinterpret_view, IA, "amp_array_view_reinterpret_as: the view is NULL"),
    ROW("null", null_reinterpret_out, IA, "amp_array_view_reinterpret_as: out is NULL"),
    ROW("null", null_synchronize_to_view, IA, "amp_array_view_synchronize_to: the view is NULL"),
    ROW("null", null_synchronize_async_out, IA, "amp_array_view_synchronize_async: out is NULL"),
    ROW("null", null_synchronize_async_view, IA, "amp_array_view_synchronize_async: the view is NULL"),
    ROW("null", null_copy_async_out, IA, "amp_copy_async: out is NULL"),
    ROW("null", null_copy_async_source, IA, "amp_copy_async: the source view is NULL"),
    ROW("null", null_array_from_host_out, IA, "amp_array_create_from_host: out is NULL"),
    ROW("null", null_array_from_view, IA, "amp_array_create_from_view: the view is NULL"),
    ROW("null", null_array_from_view_out, IA, "amp_array_create_from_view: out is NULL"),
    ROW("null", null_array_from_array, IA, "amp_array_create_from_array: the array is NULL"),
    ROW("null", null_array_from_array_out, IA, "amp_array_create_from_array: out is NULL"),
    ROW("null", null_array_release_is_a_no_op, AMP_OK, NULL),
    ROW("null", null_array_getters, AMP_OK, NULL),
    ROW("null", null_view_of_array, IA, "amp_array_view_create_from_array: the array is NULL"),
    ROW("null", null_view_of_array_out, IA, "amp_array_view_create_from_array: out is NULL"),
    ROW("null", null_copy_source_array, IA, "amp_copy: the source array is NULL"),
    ROW("null", null_copy_destination_view, IA, "amp_copy: the destination view is NULL"),
    ROW("null", null_copy_source_host, IA, "amp_copy: the source host pointer is NULL"),
    ROW("null", null_profile_count, IA, "amp_profile_get_entries: count is NULL"),
    ROW("null", null_profile_entries, IA, "amp_profile_get_entries: entries is NULL"),
    ROW("null", null_struct_desc, IA, "amp_struct_register: desc is NULL"),
    ROW("null", null_struct_out, IA, "amp_struct_register: out is NULL"),
    ROW("null", null_struct_name, IA, "amp_struct_register: desc->name is NULL"),
    ROW("null", null_struct_members, IA,
        "amp_struct_register: struct two has 2 members, and desc->members is NULL"),
    ROW("null", null_struct_member_name, IA,
        "amp_struct_register: member 0 of struct one has a NULL name"),
    ROW("null", null_struct_member_type, IA,
        "amp_struct_register: member 'a' of struct one has a NULL type"),
    ROW("null", null_texture_data, IA, "amp_texture_create_bits: data is NULL"),
    ROW("null", null_texture_out, IA, "amp_texture_create: out is NULL"),
    ROW("null", null_texture_release_is_a_no_op, AMP_OK, NULL),
    ROW("null", null_texture_getters, AMP_OK, NULL),
    ROW("null", null_texture_copy_to_host, IA, "amp_texture_copy_to_host: the texture is NULL"),
    ROW("null", null_texture_copy_to_host_dst, IA,
        "amp_texture_copy_to_host: the host pointer is NULL"),
    ROW("null", null_texture_copy_from_host, IA, "amp_texture_copy_from_host: the texture is NULL"),
    ROW("null", null_texture_copy_from_host_src, IA,
        "amp_texture_copy_from_host: the host pointer is NULL"),
    ROW("null", null_texture_transfers, IA, "amp_texture_get_transfers: the texture is NULL"),
    ROW("null", null_texture_transfers_out, IA, "amp_texture_get_transfers: out is NULL"),
    ROW("null", null_texture_captured, IA, "texture 'none' is NULL"),
    ROW("null", null_texture_view_of, IA, "amp_texture_view_create: the texture is NULL"),
    ROW("null", null_texture_view_out, IA, "amp_texture_view_create: out is NULL"),
    ROW("type", texture_view_access_unknown, IA, "access 7 is not one of AMP_TEXTURE_READ"),
    ROW("null", null_texture_copy_source, IA, "amp_texture_copy: the source texture is NULL"),
    ROW("null", null_texture_copy_destination, IA,
        "amp_texture_copy: the destination texture is NULL"),
    ROW("null", null_texture_copy_to_end, IA,
        "amp_texture_copy_to: the destination host pointer is NULL"),
    ROW("null", null_texture_copy_from_array, IA, "amp_texture_copy_from: the source array is NULL"),
    ROW("null", null_texture_copy_async_out, IA, "amp_texture_copy_async: out is NULL"),
    ROW("range", texture_copy_section_outside, IA, "does not fit in the destination texture"),
    ROW("null", null_error_callback_switches_it_off, AMP_OK, NULL),

    /* Zero, negative and out-of-range extents, of each rank. */
    ROW("extent", view_extent_1d_zero, IA, "dimension 0 of the extent is 0"),
    ROW("extent", view_extent_1d_negative, IA, "dimension 0 of the extent is -3"),
    ROW("extent", view_extent_2d_zero, IA, "dimension 1 of the extent is 0"),
    ROW("extent", view_extent_2d_negative, IA, "dimension 0 of the extent is -1"),
    ROW("extent", view_extent_3d_zero, IA, "dimension 2 of the extent is 0"),
    ROW("extent", view_extent_3d_negative, IA, "dimension 1 of the extent is -2"),
    ROW("extent", view_extent_rank_0, IA, "the extent has rank 0"),
    ROW("extent", view_extent_nd_rank_9, IA,
        "the extent has rank 0; it must be 1 to 8 (rank 0 is what amp_extent_nd() gives for a"
        " rank outside 1 to 8"),
    ROW("extent", view_extent_rank_9, IA, "the extent has rank 9; it must be 1 to 8"),
    ROW("extent", view_extent_rank_negative, IA, "the extent has rank -1"),
    ROW("extent", view_elements_overflow_64_bits, OOM, "do not fit in memory"),
    ROW("extent", view_bytes_overflow_size_t, OOM, "do not fit in memory"),
    ROW("extent", domain_1d_zero, ICD, "dimension 0 of the extent is 0"),
    ROW("extent", domain_2d_negative, ICD, "dimension 1 of the extent is -1"),
    ROW("extent", domain_3d_zero, ICD, "dimension 0 of the extent is 0"),
    ROW("extent", domain_rank_0, ICD, "the extent has rank 0"),
    ROW("extent", domain_rank_9, ICD, "the extent has rank 9; it must be 1 to 8"),
    ROW("extent", tiled_domain_2d_zero, ICD, "dimension 1 of the extent is 0"),
    ROW("extent", tiled_domain_3d_negative, ICD, "dimension 2 of the extent is -4"),
    ROW("extent", domain_over_2_to_the_64_threads, ICD, "more than"),
    ROW("extent", domain_of_2_to_the_32_groups, ICD, "devices count at most 2^32 - 1 groups"),
    /* Ranks that do not match. */
    ROW("rank", rank_2_view_given_one_integer, KB, "did not compile"),
    ROW("rank", rank_1_view_given_two_integers, KB,
        "a view of rank 1 takes 1 integer, v(i), or an index<1>, and 2 are given"),
    ROW("rank", rank_3_view_given_two_integers, KB,
        "a view of rank 3 takes 3 integers, v(i, j, ...), or an index<3>, and 2 are given"),
    ROW("rank", rank_2_view_given_a_rank_1_index, KB,
        "view_of_rank_2_given_an_index_of_another_rank"),
    ROW("rank", rank_3_view_given_a_rank_2_index, KB,
        "view_of_rank_3_given_an_index_of_another_rank"),
    ROW("rank", rank_1_view_given_a_rank_2_index, KB,
        "view_of_rank_1_given_an_index_of_another_rank"),
    ROW("rank", view_given_a_float_index, KB, "a_view_index_is_made_of_integers_not_floats"),
    ROW("rank", tile_rank_1_on_extent_rank_2, ICD, "the tile has rank 1 and the extent rank 2"),
    ROW("rank", tile_rank_3_on_extent_rank_2, ICD, "the tile has rank 3 and the extent rank 2"),
    ROW("rank", padded_original_of_another_rank, ICD,
        "the padded extent has rank 2 and its original extent rank 1"),
    ROW("rank", padded_original_larger_than_padded, ICD,
        "dimension 0 of the original extent is 9"),
    ROW("rank", tiled_index_members_in_untiled_kernel, KB,
        "i is an index, which has no member 'local': a tiled index has it"),

    /* Element types. */
    ROW("type", view_type_zero, IA, "element type 0 is not one of"),
    ROW("type", view_type_past_the_last, IA, "element type 17 is not one of"),
    ROW("type", view_type_texture_only, IA, "unorm is a texture's element type"),
    ROW("type", view_type_negative, IA, "element type -1 is not one of"),
    ROW("type", const_view_type_unknown, IA, "element type 42 is not one of"),
    ROW("type", type_helpers_of_unknown_type, AMP_OK, NULL),
    ROW("type", names_of_unknown_codes, AMP_OK, NULL),
    ROW("type", same_memory_larger_view, IA, "already wrapped by a live view"),
    ROW("type", capture_long, IA, "capture 'wide' is a long or long long"),
    ROW("type", capture_size_t, IA, "capture 'count' is a long or long long (a size_t is one)"),
    ROW("type", capture_pointer, IA, "capture 'ptr' is a pointer to host memory"),
    ROW("type", capture_char, IA, "capture 'letter' is a char or short"),
    ROW("type", capture_long_double, IA, "capture 'precise' is a long double"),
    ROW("type", capture_struct, IA, "capture 'pair' has a type kernels cannot take"),
    ROW("type", capture_of_unknown_kind, IA, "capture 'n' has an unknown kind 99"),
    ROW("type", scalar_capture_of_unknown_type, IA, "capture 'n' has element type 0"),
    ROW_IF("type", double_view_without_fp64, AMP_ERROR_UNSUPPORTED_FEATURE,
           "'d' is double", device_lacks_double),
    ROW_IF("type", double_scalar_without_fp64, AMP_ERROR_UNSUPPORTED_FEATURE,
           "'scale' is double", device_lacks_double),
    ROW_IF("type", double_in_body_without_fp64, AMP_ERROR_UNSUPPORTED_FEATURE, "uses double",
           device_lacks_double),
    ROW("type", member_of_an_int_view, KB, "is not a structure or union"),
    ROW("type", member_the_struct_lacks, KB, "no member named 'c'"),
    ROW("type", int_stored_into_a_struct_element, KB, "incompatible type 'int'"),
    ROW("type", struct_element_stored_into_an_int_view, KB, "incompatible type"),
    ROW_IF("type", atomic_on_a_double_view, KB, "did not compile", device_has_fp64),
    ROW("type", atomic_on_a_float_member, KB, "atomic_on_a_float_is_atomic_exchange_only"),
    ROW("type", compare_exchange_on_a_float_view, KB, "did not compile"),
    ROW("type", atomic_on_a_struct_element, KB,
        "atomic_on_an_element_that_is_not_int_unsigned_or_float"),
    ROW_IF("type", exchange_on_a_double_view, KB,
           "atomic_on_an_element_that_is_not_int_unsigned_or_float", device_has_fp64),
    ROW("type", sample_of_an_int_texture, KB, "amp_sample_needs_a_float_texture"),
    ROW("type", two_channel_texel_read_as_an_int, KB, "int2"),
    ROW("type", channel_of_a_one_channel_texture, KB, "is not a structure or union"),

    /* Tiles. */
    ROW("tile", tile_not_dividing_1d, ICD, "the extent 10 is not divisible by the tile 4"),
    ROW("tile", tile_not_dividing_2d, ICD,
        "dimension 1 has 6 elements, which is not a multiple of 4"),
    ROW("tile", tile_not_dividing_3d, ICD, "the extent 4x4x5 is not divisible by the tile 2x2x2"),
    ROW("tile", tile_dimension_zero, ICD, "every tile dimension must be > 0"),
    ROW("tile", tile_dimension_negative, ICD, "dimension 0 of the tile -2 is -2"),
    ROW("tile", tile_over_work_group_limit_1d, DL, "CL_DEVICE_MAX_WORK_GROUP_SIZE"),
    ROW("tile", tile_over_work_group_limit_3d, DL, "CL_DEVICE_MAX_WORK_GROUP_SIZE"),
    ROW("tile", tile_static_over_local_memory, DL, "bytes of tile_static memory"),

    /* Kernels that do not compile: the message names this file and line. */
    ROW("build", build_undeclared_identifier, KB, "use of undeclared identifier 'undeclared_name'"),
    ROW("build", build_syntax_error, KB, "did not compile"),
    ROW("build", build_write_to_const_view, KB, "did not compile"),
    ROW("build", build_undefined_function, KB, "no_such_function"),
    ROW("build", build_atomic_on_float, KB, "did not compile"),
    ROW("build", build_negative_array_bound, KB, "negative size"),
    ROW("build", build_call_site_file_unreadable, KB, "The kernel at moved_away.c:7 did not compile"),
    ROW("build", build_error_in_kernel_file, KB, "not_declared_here"),
    ROW("build", kernel_file_missing, AMP_ERROR_RUNTIME,
        "cannot read /nonexistent/kernel.cl: No such file or directory"),
    ROW("build", kernel_file_is_a_folder, IA, "is not a regular file (a directory)"),

    /* Handles: released, foreign or made up, of another kind, and used
     * after amp_shutdown() (tests/reliability/test_handles.c has more). */
    ROW("handle", completion_released_twice, IA,
        "amp_completion_release: the completion"),
    ROW("handle", completion_waited_on_after_release, IA,
        "was already released (by amp_completion_release())"),
    ROW("handle", completion_made_up, IA, "is not a completion the library made"),
    ROW("handle", completion_of_another_kind, IA, "is a view, not a completion"),
    ROW("handle", kernel_source_released_twice, IA,
        "was already released (by amp_kernel_source_release())"),
    ROW("handle", kernel_source_literal_released, IA,
        "a source made by AMP_KERNEL_SOURCE(...) belongs to its call site"),
    ROW("handle", released_kernel_source_dispatched, IA,
        "parallel_for_each: the kernel source"),
    ROW("handle", accelerator_info_of_made_up, IA, "is not an accelerator the library made"),
    ROW("handle", accelerator_info_after_shutdown, IA,
        "was already released (amp_shutdown() releases every accelerator)"),
    ROW("handle", accelerator_view_released_twice, IA,
        "amp_accelerator_view_release: the accelerator view"),
    ROW("handle", array_copied_to_host_after_shutdown, AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
        "amp_copy: the source array's data was lost with its accelerator"),
    ROW("handle", view_of_array_synchronized_after_shutdown, AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
        "amp_array_view_synchronize: the view's data was lost"),
    ROW("handle", kernel_file_dev_zero, IA, "/dev/zero is not a regular file (a character device)"),
    ROW("handle", kernel_file_fifo, IA, "is not a regular file (a FIFO)"),
    ROW("handle", kernel_file_too_large, IA, "has 67108864 bytes; a kernel file has at most"),

    /* Allocations larger than the device: the message names the view. */
    ROW("memory", view_larger_than_device_memory, OOM, "View 'huge' needs"),
    ROW_IF("memory", view_larger_than_max_allocation, OOM, "View 'big' needs",
           device_has_smaller_max_allocation),

    /* Use after release, double release. */
    ROW("release", double_release, IA, "already released"),
    ROW("release", synchronize_released, IA, "already released"),
    ROW("release", data_of_released, IA, "already released"),
    ROW("release", data_const_of_released, IA, "already released"),
    ROW("release", discard_released, IA, "already released"),
    ROW("release", refresh_released, IA, "already released"),
    ROW("release", transfers_of_released, IA, "already released"),
    ROW("release", capture_released, IA, "view 'gone' is released"),
    ROW("release", capture_released_tiled, IA, "view 'gone' is released"),
    ROW("release", release_never_created, IA, "is not a view the library made"),
    ROW("release", capture_never_created, IA, "view 'fake' is released (or was never created)"),
    ROW("release", release_stale_handle_after_address_reuse, IA, "already released"),
    ROW("release", getters_of_released, AMP_OK, NULL),
    ROW("release", writable_data_of_const_view, AMP_ERROR_INVALID_OPERATION,
        "read it with amp_array_view_data_const()"),

    /* Captures. */
    ROW("capture", capture_host_macro, IA, "capture '8' is not a variable name"),
    ROW("capture", capture_scalar_twice, IA, "'n' is captured twice"),
    ROW("capture", capture_view_twice, IA, "'v' is captured twice"),
    ROW("capture", too_many_captures, IA, "33 captures; a kernel takes 0 to 32"),
    ROW("capture", negative_capture_count, IA, "-1 captures; a kernel takes 0 to 32"),
    ROW("capture", capture_expression, IA, "capture 'n + 1' is not a variable name"),
    ROW("capture", capture_array_element, IA, "capture 'arr[0]' is not a variable name"),
    ROW("capture", capture_named_like_a_keyword, IA, "capture 'int' is named like a keyword"),
    ROW("capture", capture_named_like_the_index, IA, "capture 'i' has the name of the index"),

    /* Index names. */
    ROW("index", index_name_empty, IA, "the index name '' is not an identifier"),
    ROW("index", index_name_starting_with_a_digit, IA, "the index name '1i' is not an identifier"),
    ROW("index", index_name_with_a_space, IA, "the index name 't idx' is not an identifier"),
    ROW("index", index_name_an_expression, IA, "the index name 'idx[0]' is not an identifier"),
    ROW("index", index_name_a_keyword, IA, "the index name 'int' is a keyword"),
    ROW("index", index_name_bad_tiled, IA, "the index name 't-idx' is not an identifier"),
    ROW("index", index_name_bad_for_kernel_file, IA, "the index name '9lives' is not an identifier"),

    /* AMP_CONST misuse. */
    ROW("const", const_of_a_literal, IA, "capture '4' is not a variable name"),
    ROW("const", const_of_an_expression, IA, "capture 'HOST_MACRO * 2' is not a variable name"),
    ROW("const", const_named_like_a_scalar, IA, "'n' is captured twice"),
    ROW("const", const_named_like_the_index, IA, "capture 'i' has the name of the index"),

    /* amp_tiled_extent_pad and amp_tiled_extent_truncate on bad input. */
    ROW("pad", pad_tile_rank_mismatch, ICD, "the tile has rank 1 and the extent rank 2"),
    ROW("pad", pad_tile_zero, ICD, "every tile dimension must be > 0"),
    ROW("pad", pad_extent_negative, ICD, "dimension 0 of the extent is -4"),
    ROW("pad", pad_rank_4, ICD, "a tiled extent of rank 4; tiles have rank 1 to 3"),
    ROW("pad", pad_past_int_max, ICD,
        "dimension 0 of the extent, 2147483647, rounded up to a multiple of the tile's 1024"
        " passes 2^31 - 1"),
    ROW("pad", truncate_tile_zero, ICD, "every tile dimension must be > 0"),
    ROW("pad", truncate_tile_rank_mismatch, ICD, "the tile has rank 2 and the extent rank 3"),
    ROW("pad", truncate_below_one_tile, ICD,
        "amp_tiled_extent_truncate left no whole tile in dimension 0: its 3 elements are fewer"
        " than a tile's 4"),

    /* The accelerator API with bad indices and names. */
    ROW("accelerator", accelerator_index_past_the_end, IA, "is out of range; there are"),
    ROW("accelerator", accelerator_index_huge, IA, "is out of range; there are"),
    ROW("accelerator", device_name_matching_none, AMP_ERROR_NO_DEVICE,
        "AMP_DEVICE=\"no-such-device\" matches no device"),
    ROW("accelerator", device_index_out_of_range, AMP_ERROR_NO_DEVICE,
        "AMP_DEVICE=\"99\" matches no device"),

    /* Sections out of range, and views derived in ways their view cannot
     * give (amp_array_view_project, _view_as, _reinterpret_as). */
    ROW("section", section_origin_negative, IA,
        "a section of extent (4) at origin -1 in dimension 0 does not fit in the view's"
        " extent (64)"),
    ROW("section", section_past_the_end_1d, IA,
        "a section of extent (8) at origin 60 in dimension 0 does not fit in the view's"
        " extent (64)"),
    ROW("section", section_past_the_end_2d, IA,
        "a section of extent (4, 4) at origin 5 in dimension 1 does not fit in the view's"
        " extent (8, 8)"),
    ROW("section", section_past_the_end_3d, IA,
        "a section of extent (4, 2, 2) at origin 3 in dimension 2 does not fit in the view's"
        " extent (4, 4, 4)"),
    ROW("section", section_origin_near_int_max, IA,
        "at origin 2147483647 in dimension 0 does not fit in the view's extent (64)"),
    ROW("section", section_origin_of_another_rank, IA,
        "the view has rank 2, the origin rank 1 and the extent rank 2; they must be equal"),
    ROW("section", section_extent_of_another_rank, IA,
        "the view has rank 2, the origin rank 2 and the extent rank 3; they must be equal"),
    ROW("section", section_extent_zero, IA,
        "amp_array_view_section: dimension 0 of the extent is 0"),
    ROW("section", section_extent_negative, IA,
        "amp_array_view_section: dimension 1 of the extent is -2"),
    ROW("section", section_of_released, IA, "amp_array_view_section: the view"),
    ROW("section", section_of_section_past_its_end, IA,
        "a section of extent (8) at origin 10 in dimension 0 does not fit in the view's"
        " extent (16)"),
    ROW("section", project_index_negative, IA,
        "amp_array_view_project: index -1 is outside the view's leading dimension (0..7)"),
    ROW("section", project_past_leading_dimension, IA,
        "amp_array_view_project: index 4 is outside the view's leading dimension (0..3)"),
    ROW("section", project_rank_1, IA, "a view of rank 1 has no projection"),
    ROW("section", view_as_other_element_count, IA,
        "extent (8, 7) has 56 elements and the view (64) has 64"),
    ROW("section", view_as_part_of_each_row, IA,
        "amp_array_view_view_as: the view's elements are not contiguous"),
    ROW("section", reinterpret_size_not_dividing, IA,
        "the view has 252 bytes, which are not a whole number of double elements (8 bytes each)"),
    ROW("section", reinterpret_rank_2, IA, "only a rank-1 view can be reinterpreted"),
    ROW("section", reinterpret_offset_not_whole, IA,
        "the view starts at byte 4 of its data, which is not a multiple of 8 (the size of double)"),
    ROW("section", reinterpret_as_unknown_type, IA,
        "amp_array_view_reinterpret_as: element type 42 is not one of AMP_INT, AMP_UINT,"
        " AMP_FLOAT, AMP_DOUBLE, their short vectors (AMP_INT_2 ... AMP_DOUBLE_4), or a struct"
        " registered"),

    /* Arrays (amp/array.h): bad shapes, released handles, copies between
     * ends that do not match, an array on another accelerator. */
    ROW("array", array_extent_zero, IA, "amp_array_create: dimension 0 of the extent is 0"),
    ROW("array", array_extent_negative, IA, "amp_array_create: dimension 1 of the extent is -4"),
    ROW("array", array_type_unknown, IA, "amp_array_create: element type 42 is not one of"),
    ROW("array", array_null_out, IA, "amp_array_create: out is NULL"),
    ROW("array", array_from_null_host_data, IA, "amp_array_create_from_host: data is NULL"),
    ROW("array", array_from_released_view, IA, "amp_array_create_from_view: the view"),
    ROW("array", array_double_release, IA, "amp_array_release: the array"),
    ROW("array", view_of_released_array, IA, "amp_array_view_create_from_array: the array"),
    ROW("array", copy_extents_differ, IA,
        "amp_copy: the source has extent (8, 8) and the destination (64); they must be equal"),
    ROW("array", copy_extent_with_dims_past_its_rank, AMP_OK, NULL),
    ROW("array", copy_element_sizes_differ, IA,
        "amp_copy: the source holds int and the destination double"),
    ROW("array", copy_element_types_differ, IA,
        "amp_copy: the source holds int and the destination float; a copy keeps the element"
        " type. To copy the bytes as they are, copy a view made with"
        " amp_array_view_reinterpret_as()"),
    ROW("array", copy_from_released_array, IA, "was already released (by amp_array_release())"),
    ROW("array", copy_into_released_array, IA, "was already released (by amp_array_release())"),
    ROW("array", copy_array_into_null_host, IA, "amp_copy: the destination host pointer is NULL"),
    ROW("array", capture_released_array, IA, "array 'gone' is released (or was never created)"),
    ROW("array", capture_null_array, IA, "array 'none' is NULL"),
    ROW_IF("array", array_on_another_accelerator, AMP_ERROR_INVALID_OPERATION,
           "Copy it there (amp_copy into an array on that accelerator view)", cpu_splits_in_two),
};

#define NCASES (sizeof table / sizeof table[0])

/* ---- The runner ---- */

static int known_seen, known_passing;

/* Release what the case made, and check the host memory is as it was. */
static void cleanup_and_check(const bad_case *c)
{
    for (int i = F.nviews - 1; i >= 0; i--) {
        amp_status st = amp_array_view_release(F.views[i]);
        if (st != AMP_OK && !(F.may_be_gone[i] && st == IA))
            fail_msg("%s: releasing the case's view %d gave %s: %s", c->name, i,
                     amp_status_name(st), amp_last_error());
    }
    F.nviews = 0;
    for (int i = F.narrays - 1; i >= 0; i--) {
        amp_status st = amp_array_release(F.arrays[i]);
        if (st != AMP_OK)
            fail_msg("%s: releasing the case's array %d gave %s: %s", c->name, i,
                     amp_status_name(st), amp_last_error());
    }
    F.narrays = 0;
    for (int i = F.ntextures - 1; i >= 0; i--) {
        amp_status st = amp_texture_release(F.textures[i]);
        if (st != AMP_OK)
            fail_msg("%s: releasing the case's texture %d gave %s: %s", c->name, i,
                     amp_status_name(st), amp_last_error());
    }
    F.ntextures = 0;
    if (F.mapped)
        munmap(F.mapped, F.mapped_bytes);
    F.mapped = NULL;
    if (F.path[0])
        unlink(F.path);
    if (F.dir[0])
        rmdir(F.dir);
    F.path[0] = F.dir[0] = '\0';

    for (int i = 0; i < 6; i++) {
        size_t bytes;
        const unsigned char *p = buffers(i, &bytes);
        for (size_t b = 0; b < bytes; b++)
            if (p[b] != F.canary[i][b])
                fail_msg("%s: host buffer %d changed at byte %zu (%u, was %u)", c->name, i, b,
                         p[b], F.canary[i][b]);
    }
}

/* What went wrong with the row, in *why; 0 when nothing did. */
static int outcome(const bad_case *c, amp_status st, const char *msg, uint64_t downloads,
                   char *why, size_t size)
{
    if (st != c->expected) {
        snprintf(why, size, "returned %s, expected %s: %.400s%s", amp_status_name(st),
                 amp_status_name(c->expected), st == WRONG_VALUE ? F.note : msg,
                 strlen(msg) > 400 ? "..." : "");
        return 1;
    }
    if (c->message && !strstr(msg, c->message)) {
        snprintf(why, size, "the message lacks \"%s\": %.400s", c->message, msg);
        return 1;
    }
    if (c->message && F.also[0] && !strstr(msg, F.also)) {
        snprintf(why, size, "the message lacks \"%s\": %.400s", F.also, msg);
        return 1;
    }
    if (downloads != 0) {
        snprintf(why, size, "a failed call copied %llu views back to the host",
                 (unsigned long long)downloads);
        return 1;
    }
    return 0;
}

static void run_case(void **state)
{
    const bad_case *c = *state;
    if (c->applies && !c->applies()) {
        print_message("[  NOTE    ] %s does not apply to this device\n", c->name);
        skip();
    }
    if (c->known && c->unsafe) {
        known_seen++;
        print_message("[ KNOWN FAILURE ] %s (%s), not run: %s\n", c->name, c->category, c->known);
        skip();
    }

    fixture_fill();
    amp_transfer_stats before = transfers_now();
    amp_clear_error();
    amp_status st = c->provoke();
    /* Keep the message before cleanup makes calls of its own. */
    char *msg = strdup(amp_last_error());
    assert_non_null(msg);
    uint64_t downloads = transfers_now().downloads - before.downloads;
    char why[1024];
    int failed = outcome(c, st, msg, downloads, why, sizeof why);
    /* The reason quotes the message's start; a failing row shows all of
     * it, which is what tells why a device's message differs. */
    if (failed && !c->known)
        print_message("[  MESSAGE ] %s\n", msg);
    free(msg);
    cleanup_and_check(c);

    if (c->known) {
        known_seen++;
        if (failed) {
            print_message("[ KNOWN FAILURE ] %s (%s): %s\n    now: %s\n", c->name, c->category,
                          c->known, why);
            skip();
        }
        known_passing++;
        if (F.note[0])
            print_message("[  NOTE    ] %s passes: %s\n", c->name, F.note);
        else
            print_message("[  NOTE    ] %s passes now: remove its known-failure note\n", c->name);
        return;
    }
    if (failed)
        fail_msg("%s (%s): %s", c->name, c->category, why);
}

static int group_setup(void **state)
{
    (void)state;
    const char *saved = getenv("AMP_DEVICE");
    dev.saved_device = saved ? strdup(saved) : NULL;
    const char *split = getenv("AMP_SPLIT_CPU");
    dev.saved_split = split ? strdup(split) : NULL;
    amp_accelerator *acc;
    amp_accelerator_info info;
    if (amp_accelerator_get_default(&acc) != AMP_OK ||
        amp_accelerator_get_info(acc, &info) != AMP_OK) {
        print_error("no default accelerator: %s\n", amp_last_error());
        return -1;
    }
    dev.memory = info.dedicated_memory;
    dev.local_mem = info.tile_static_size;
    dev.max_tile = info.max_tile_size;
    dev.fp64 = info.supports_double;
    dev.max_alloc = info.max_allocation;
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    /* By category, for the documentation of what is covered. */
    const char *seen[32];
    int counts[32], ncat = 0;
    for (size_t i = 0; i < NCASES; i++) {
        int k = 0;
        while (k < ncat && strcmp(seen[k], table[i].category) != 0)
            k++;
        if (k == ncat) {
            seen[ncat] = table[i].category;
            counts[ncat++] = 0;
        }
        counts[k]++;
    }
    print_message("%zu bad-input cases in %d categories:", NCASES, ncat);
    for (int k = 0; k < ncat; k++)
        print_message(" %s %d%s", seen[k], counts[k], k + 1 < ncat ? "," : "\n");
    print_message("%d known failures, %d of them passing now\n", known_seen, known_passing);
    free(dev.saved_device);
    free(dev.saved_split);
    /* Everything the library holds, so that leak checkers see none of it. */
    amp_shutdown();
    return 0;
}

int main(void)
{
    static struct CMUnitTest tests[NCASES];
    for (size_t i = 0; i < NCASES; i++) {
        tests[i] = (struct CMUnitTest){table[i].name, run_case, NULL, NULL, (void *)&table[i]};
    }
    return _cmocka_run_group_tests("bad_input", tests, NCASES, group_setup, group_teardown);
}
