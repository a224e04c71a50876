/*
 * tests/device/test_program_cache.c - the on-disk program cache through the public
 * API: a kernel compiled once is loaded, not compiled, after a restart of
 * the runtime (amp_shutdown() forgets every in-process cache, as a new
 * process would); a change of source is a miss; a damaged file is a
 * rebuild; AMP_CACHE=0 writes nothing. The module's own tests
 * (test_diskcache.c) cover the key's inputs, the file checks and two
 * processes at once; tests/device/check_warm_start.cmake runs a sample twice.
 */
#include <dirent.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_util.h"

static char dir[] = "/tmp/amp-program-cache-XXXXXX";

/* Every cache file in dir: a count, and (when damage is set) each one
 * overwritten with bytes that are no binary. */
static int cache_files(int damage)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        n++;
        if (damage) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "r+b");
            assert_non_null(f);
            fseek(f, 100, SEEK_SET);
            fputs("not a program binary", f);
            fclose(f);
        }
    }
    closedir(d);
    return n;
}

/* Add step to each of 0..15 on the device; return the stats' change. */
static amp_kernel_stats add(int step)
{
    int data[16];
    for (int i = 0; i < 16; i++)
        data[i] = i;
    amp_kernel_stats before = kernels_now();
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(16), data, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(16), idx, AMP_CAPTURE(v, AMP_CONST(step)), {
        v(idx) += step;
    }));
    assert_amp_ok(amp_array_view_release(v));
    for (int i = 0; i < 16; i++)
        assert_int_equal(data[i], i + step);
    amp_kernel_stats after = kernels_now();
    return (amp_kernel_stats){after.builds - before.builds, after.cache_hits - before.cache_hits,
                              after.disk_hits - before.disk_hits};
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    /* The cache's directory must be the user's own and private. */
    setenv("AMP_CACHE_DIR", dir, 1);
    unsetenv("AMP_CACHE");
    amp_shutdown();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    amp_shutdown();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void a_restart_loads_instead_of_compiling(void **state)
{
    (void)state;
    amp_kernel_stats first = add(1);
    assert_int_equal(first.builds, 1);
    assert_int_equal(first.disk_hits, 0);
    assert_int_equal(cache_files(0), 1);

    amp_shutdown();
    amp_kernel_stats second = add(1);
    assert_int_equal(second.builds, 0);
    assert_int_equal(second.disk_hits, 1);
    /* And the repeat in the same process finds it in memory. */
    amp_kernel_stats third = add(1);
    assert_int_equal(third.builds + third.disk_hits, 0);
    assert_int_equal(third.cache_hits, 1);
}

static void a_changed_source_is_a_miss(void **state)
{
    (void)state;
    amp_shutdown();
    /* A different AMP_CONST is a different generated source. */
    amp_kernel_stats other = add(7);
    assert_int_equal(other.builds, 1);
    assert_int_equal(other.disk_hits, 0);
    assert_int_equal(cache_files(0), 2);
}

static void a_damaged_file_is_rebuilt(void **state)
{
    (void)state;
    cache_files(1);
    amp_shutdown();
    amp_kernel_stats again = add(1);
    assert_int_equal(again.builds, 1);
    assert_int_equal(again.disk_hits, 0);
    /* The rebuild was stored again, whole. */
    amp_shutdown();
    amp_kernel_stats loaded = add(1);
    assert_int_equal(loaded.builds, 0);
    assert_int_equal(loaded.disk_hits, 1);
}

static void the_switch_turns_it_off(void **state)
{
    (void)state;
    setenv("AMP_CACHE", "off", 1);
    amp_shutdown();
    int files = cache_files(0);
    amp_kernel_stats off = add(3);
    assert_int_equal(off.builds, 1);
    assert_int_equal(off.disk_hits, 0);
    assert_int_equal(cache_files(0), files);
    amp_shutdown();
    off = add(1); /* stored earlier, but the cache is off */
    assert_int_equal(off.builds, 1);
    unsetenv("AMP_CACHE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_restart_loads_instead_of_compiling),
        cmocka_unit_test(a_changed_source_is_a_miss),
        cmocka_unit_test(a_damaged_file_is_rebuilt),
        cmocka_unit_test(the_switch_turns_it_off),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
