/*
 * tests/device/test_kernel_names.c - a kernel's name stays short and unique
 * whatever its file is called.
 *
 * A kernel is named after its file's stem and line ("amp_matrix_multiply_58"),
 * and its name becomes file names (PoCL's program files, AMP_DUMP_KERNELS'
 * dumps). A file name has at most 255 bytes: a call site in a file whose
 * stem had 247 characters or more aborted the process inside PoCL ("Final
 * linking of kernel ... failed", exit 134). The names are read back from
 * the profile (AMP_PROFILE).
 *
 * The C call sites are in two files named with 248 characters before ".c"
 * (the most a file system takes is 255), the same but for their last
 * character, made by CMake from long_name_kernel.c.in; the .cl files are
 * written here, in a folder of their own, the same way.
 */
#include <stdlib.h>
#include <unistd.h>

#include "test_util.h"

/* The functions of the two long-named files: add add, and add twice add. */
amp_status long_name_kernel_a(amp_array_view *v, int add);
amp_status long_name_kernel_b(amp_array_view *v, int add);

enum { N = 64, STEM = 248 };

static int setup(void **state)
{
    (void)state;
    setenv("AMP_PROFILE", "1", 1);
    amp_shutdown(); /* AMP_PROFILE is read when the devices are listed */
    amp_profile_reset_entries();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unsetenv("AMP_PROFILE");
    amp_shutdown();
    return 0;
}

/* The profile's kernel names, in the order of their first launch, once
 * the kernels have run (the default view waited for: its events read). */
static size_t kernel_names(const char *names[], size_t room)
{
    static amp_profile_entry e[8];
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_get_default_view(NULL, &av));
    assert_amp_ok(amp_accelerator_view_wait(av));
    size_t n = 0;
    assert_amp_ok(amp_profile_get_entries(e, 8, &n));
    assert_true(n <= room);
    for (size_t i = 0; i < n; i++)
        names[i] = e[i].kernel;
    return n;
}

/* Each name short enough to be a file name with room to spare, and the
 * two different. */
static void assert_short_and_different(const char *a, const char *b)
{
    print_message("kernel names: %s, %s\n", a, b);
    assert_true(strlen(a) <= 64);
    assert_true(strlen(b) <= 64);
    assert_string_not_equal(a, b);
}

static void a_call_site_in_a_file_with_a_long_name_runs(void **state)
{
    (void)state;
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(long_name_kernel_a(v, 1));
    assert_amp_ok(long_name_kernel_b(v, 10));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], i + 21);
    const char *names[8];
    assert_int_equal(kernel_names(names, 8), 2);
    assert_short_and_different(names[0], names[1]);
    assert_amp_ok(amp_array_view_release(v));
}

/* Write a .cl file named dir/<STEM characters, the last one last>.cl with
 * a body that adds add; its path into path. */
static void write_kernel_file(const char *dir, char last, int add, char *path, size_t size)
{
    char stem[STEM + 1];
    memset(stem, 'k', STEM);
    stem[STEM - 1] = last;
    stem[STEM] = '\0';
    snprintf(path, size, "%s/%s.cl", dir, stem);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "v(idx) += %d;\n", add);
    assert_int_equal(fclose(f), 0);
}

static void a_kernel_file_with_a_long_name_runs(void **state)
{
    (void)state;
    char dir[] = "/tmp/amp-kernel-names-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path_a[512], path_b[512];
    write_kernel_file(dir, 'a', 1, path_a, sizeof path_a);
    write_kernel_file(dir, 'b', 10, path_b, sizeof path_b);
    amp_kernel_source *a, *b;
    assert_amp_ok(amp_kernel_source_load(path_a, "idx", &a));
    assert_amp_ok(amp_kernel_source_load(path_b, "idx", &b));
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    assert_amp_ok(amp_parallel_for_each(NULL, amp_extent_1d(N), a, AMP_CAPTURE(v)));
    assert_amp_ok(amp_parallel_for_each(NULL, amp_extent_1d(N), b, AMP_CAPTURE(v)));
    assert_amp_ok(amp_array_view_synchronize(v));
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], i + 11);
    const char *names[8];
    assert_int_equal(kernel_names(names, 8), 2);
    assert_short_and_different(names[0], names[1]);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_kernel_source_release(a));
    assert_amp_ok(amp_kernel_source_release(b));
    assert_int_equal(unlink(path_a), 0);
    assert_int_equal(unlink(path_b), 0);
    assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(a_call_site_in_a_file_with_a_long_name_runs, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(a_kernel_file_with_a_long_name_runs, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
