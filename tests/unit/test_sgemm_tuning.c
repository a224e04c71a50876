/*
 * tests/unit/test_sgemm_tuning.c - SGEMM kernel 6's tuning
 * (samples/sgemm_progression/sgemm_tune.c), without a device: the
 * instruction set read from a CPU device's name, the defaults it chooses,
 * the plans measured at some sizes and taken for products near them, and
 * the tuning file that keeps them, in the cache directory or among the
 * files kept with the sources.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "sgemm.h"

/* A device as amp_accelerator_get_info describes one. */
static amp_accelerator_info device(const char *name, int cpu)
{
    amp_accelerator_info info = {0};
    info.description = name;
    info.tile_static_size = cpu ? 1 << 20 : 48 << 10;
    info.max_tile_size = cpu ? 4096 : 1024;
    info.compute_units = cpu ? 2 : 132;
    info.is_emulated = cpu;
    return info;
}

static int same_params(sgemm_params a, sgemm_params b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* A cache directory of this test's own, empty. */
static char cache_dir[256];

static int make_cache_dir(void **state)
{
    (void)state;
    snprintf(cache_dir, sizeof cache_dir, "%s/amp-test-sgemm-tuning-%ld", SGEMM_TEST_DIR,
             (long)getpid());
    mkdir(SGEMM_TEST_DIR, 0700);
    mkdir(SGEMM_MEASURED_DIR, 0700);
    if (mkdir(cache_dir, 0700) != 0)
        return -1;
    setenv("AMP_CACHE_DIR", cache_dir, 1);
    return 0;
}

static int remove_files(void **state)
{
    (void)state;
    char path[1400];
    amp_accelerator_info gpu = device("Test GPU 1", 0);
    if (sgemm_tune_path(&gpu, path, sizeof path))
        remove(path);
    rmdir(cache_dir);
    snprintf(path, sizeof path, "%s/tune-Test_GPU_2.txt", SGEMM_MEASURED_DIR);
    remove(path);
    return 0;
}

static void the_instruction_set_comes_from_the_llvm_cpu_in_the_name(void **state)
{
    (void)state;
    assert_int_equal(sgemm_cpu_isa("pthread-haswell-AMD EPYC"), SGEMM_ISA_AVX2);
    assert_int_equal(sgemm_cpu_isa("cpu-znver3-AMD EPYC 7763 64-Core Processor"), SGEMM_ISA_AVX2);
    assert_int_equal(sgemm_cpu_isa("pthread-skylake-Intel(R) Core(TM) i7"), SGEMM_ISA_AVX2);
    /* Skylake's server part has AVX-512: the longer name wins. */
    assert_int_equal(sgemm_cpu_isa("pthread-skylake-avx512-AMD EPYC"), SGEMM_ISA_AVX512);
    assert_int_equal(sgemm_cpu_isa("cpu-cooperlake-Intel(R) Xeon(R)"), SGEMM_ISA_AVX512);
    assert_int_equal(sgemm_cpu_isa("pthread-sandybridge-Intel"), SGEMM_ISA_AVX);
    assert_int_equal(sgemm_cpu_isa("NVIDIA H100 80GB HBM3"), SGEMM_ISA_UNKNOWN);
    assert_int_equal(sgemm_cpu_isa(NULL), SGEMM_ISA_UNKNOWN);
}

static void an_untuned_avx2_device_gets_sums_that_fit_16_registers(void **state)
{
    (void)state;
    amp_accelerator_info avx2 = device("pthread-haswell-AMD EPYC", 1);
    amp_accelerator_info avx512 = device("pthread-skylake-avx512-AMD EPYC", 1);
    sgemm_tuning t2 = sgemm_tuning_default(&avx2), t5 = sgemm_tuning_default(&avx512);
    assert_true(same_params(t2.large, (sgemm_params){0, 1, 1, 6, 2, 8, 1}));
    assert_true(same_params(t5.large, (sgemm_params){0, 1, 1, 12, 2, 16, 1}));
    /* The candidates for 16 registers of 8 floats hold no float16: PoCL's
     * compiler warns of every one on AVX2, and a float16 is two float8s. */
    int n;
    const sgemm_params *c = sgemm_params_candidates(&avx2, &n);
    assert_true(n > 0);
    for (int i = 0; i < n; i++)
        assert_int_not_equal(c[i].vw, 16);
}

/* The tuner measures plans where the large tiles are few for the device:
 * on an H100 (132 compute units, 128 x 128 tiles) up to 3000, where 576
 * tiles are 4.4 waves; none at 3000 with 66 units, where they are 8.7; none
 * for a CPU's tiles of one thread. */
static void the_tuner_explores_where_the_tiles_fill_few_waves(void **state)
{
    (void)state;
    amp_accelerator_info gpu = device("Test GPU 1", 0);
    sgemm_tuning t = sgemm_tuning_default(&gpu);
    assert_int_equal(t.large.ty * t.large.rm, 128);
    assert_int_equal(t.large.tx * t.large.nv * t.large.vw, 128);
    char list[128];
    assert_int_equal(sgemm_tuning_explore_sizes(&t.large, 132, list, sizeof list), 8);
    assert_string_equal(list, "1000,1024,1250,1500,1750,2048,2049,3000");
    /* 66 units: 2049 (289 tiles) is 4.4 waves, 3000 (576) is 8.7. */
    assert_int_equal(sgemm_tuning_explore_sizes(&t.large, 66, list, sizeof list), 7);
    assert_string_equal(list, "1000,1024,1250,1500,1750,2048,2049");
    /* 8 units: 1000 (64 tiles) is 8 waves. */
    assert_int_equal(sgemm_tuning_explore_sizes(&t.large, 8, list, sizeof list), 0);
    assert_string_equal(list, "");
    /* A list that does not fit is none. */
    assert_int_equal(sgemm_tuning_explore_sizes(&t.large, 132, list, 10), 0);
    assert_string_equal(list, "");

    amp_accelerator_info cpu = device("pthread-skylake-avx512-AMD EPYC", 1);
    sgemm_tuning c = sgemm_tuning_default(&cpu);
    assert_int_equal(sgemm_tuning_explore_sizes(&c.large, cpu.compute_units, list, sizeof list),
                     0);
    assert_string_equal(list, "");
}

/* A tuning with plans measured at 1000 and 1024 that differ. */
static sgemm_tuning two_plans(void)
{
    amp_accelerator_info gpu = device("Test GPU 1", 0);
    sgemm_tuning t = sgemm_tuning_default(&gpu);
    t.large_gflops = 48000, t.small_gflops = 44000;
    t.nplans = 2;
    t.plans[0] = (sgemm_size_plan){1000, 1000, 1000, {t.small, 2}, 25000};
    t.plans[1] = (sgemm_size_plan){1024, 1024, 1024, {t.large, 1}, 26000};
    return t;
}

static void a_product_near_a_measured_size_takes_its_plan(void **state)
{
    (void)state;
    sgemm_tuning t = two_plans();
    sgemm_plan p1000 = sgemm_tuning_pick(&t, 1000, 1000, 1000);
    sgemm_plan p1024 = sgemm_tuning_pick(&t, 1024, 1024, 1024);
    assert_true(same_params(p1000.p, t.small) && p1000.splits == 2);
    assert_true(same_params(p1024.p, t.large) && p1024.splits == 1);
    /* The nearest of the two. */
    sgemm_plan p1005 = sgemm_tuning_pick(&t, 1005, 1005, 1005);
    assert_true(same_params(p1005.p, t.small) && p1005.splits == 2);
    sgemm_plan p1100 = sgemm_tuning_pick(&t, 1100, 1024, 1024);
    assert_true(same_params(p1100.p, t.large) && p1100.splits == 1);
    assert_non_null(sgemm_tuning_measured(&t, 1100, 1024, 1024));
}

static void a_product_far_from_every_measured_size_takes_the_model(void **state)
{
    (void)state;
    sgemm_tuning t = two_plans();
    sgemm_tuning model = t;
    model.nplans = 0;
    /* 1024 x 1024 x 2048: K is twice the nearest plan's. */
    const int sizes[][3] = {{1500, 1500, 1500}, {1024, 1024, 2048}, {700, 1000, 1000}};
    for (int i = 0; i < 3; i++) {
        int M = sizes[i][0], N = sizes[i][1], K = sizes[i][2];
        sgemm_plan got = sgemm_tuning_pick(&t, M, N, K);
        sgemm_plan want = sgemm_tuning_pick(&model, M, N, K);
        assert_null(sgemm_tuning_measured(&t, M, N, K));
        assert_true(same_params(got.p, want.p) && got.splits == want.splits);
    }
}

static void the_tuning_file_keeps_the_measured_plans(void **state)
{
    (void)state;
    amp_accelerator_info gpu = device("Test GPU 1", 0);
    sgemm_tuning t = two_plans();
    assert_int_equal(sgemm_tune_save(&gpu, &t, "a test"), 0);
    sgemm_tuning back;
    char want[1400];
    sgemm_tuning_source from;
    assert_int_equal(sgemm_tune_load(&gpu, &back, &from), 1);
    assert_true(sgemm_tune_path(&gpu, want, sizeof want));
    assert_string_equal(from.path, want);
    assert_string_equal(from.refused, "");
    assert_int_equal(back.nplans, 2);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(back.plans[i].M, t.plans[i].M);
        assert_int_equal(back.plans[i].K, t.plans[i].K);
        assert_int_equal(back.plans[i].plan.splits, t.plans[i].plan.splits);
        assert_true(same_params(back.plans[i].plan.p, t.plans[i].plan.p));
        assert_true(back.plans[i].gflops == t.plans[i].gflops);
    }
}

static void a_measured_plan_the_device_cannot_run_is_left_out(void **state)
{
    (void)state;
    amp_accelerator_info gpu = device("Test GPU 1", 0);
    sgemm_tuning t = two_plans();
    /* 32 x 64 threads: more than the device's 1024 per tile. */
    t.plans[0].plan.p.ty = 32, t.plans[0].plan.p.tx = 64;
    assert_int_equal(sgemm_tune_save(&gpu, &t, NULL), 0);
    sgemm_tuning back;
    assert_int_equal(sgemm_tune_load(&gpu, &back, NULL), 1);
    assert_int_equal(back.nplans, 1);
    assert_int_equal(back.plans[0].M, 1024);
    assert_true(same_params(back.large, t.large));
}

static void a_device_with_no_file_of_its_own_reads_the_one_kept_with_the_sources(void **state)
{
    (void)state;
    amp_accelerator_info gpu2 = device("Test GPU 2", 0);
    sgemm_tuning t;
    sgemm_tuning_source from;
    assert_int_equal(sgemm_tune_load(&gpu2, &t, &from), 0);
    assert_string_equal(from.path, "");
    assert_int_equal(t.nplans, 0);
    char kept[1400];
    snprintf(kept, sizeof kept, "%s/tune-Test_GPU_2.txt", SGEMM_MEASURED_DIR);
    FILE *f = fopen(kept, "w");
    assert_non_null(f);
    fprintf(f, "# measured elsewhere\nplan = 1000 1000 1000  1 16 16 8 1 4 32  2  24000.0\n");
    fclose(f);
    assert_int_equal(sgemm_tune_load(&gpu2, &t, &from), 1);
    assert_string_equal(from.path, kept);
    assert_int_equal(t.nplans, 1);
    sgemm_plan p = sgemm_tuning_pick(&t, 1000, 1000, 1000);
    assert_true(same_params(p.p, (sgemm_params){1, 16, 16, 8, 1, 4, 32}) && p.splits == 2);
}

/* Device 3's file in the cache directory, holding text, or made by make
 * (a FIFO, a folder) when text is NULL; its path goes to path. */
static void put_file(const char *text, int (*make)(const char *), char *path, size_t size)
{
    amp_accelerator_info gpu3 = device("Test GPU 3", 0);
    assert_true(sgemm_tune_path(&gpu3, path, size));
    remove(path);
    rmdir(path);
    if (text) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(text, f);
        fclose(f);
    } else {
        assert_int_equal(make(path), 0);
    }
}

static int make_fifo(const char *path)
{
    return mkfifo(path, 0600);
}

static int make_folder(const char *path)
{
    return mkdir(path, 0700);
}

/* The file is not used, the defaults are, and the reason is said. */
static void refused(const char *text, int (*make)(const char *), const char *why)
{
    char path[1400];
    put_file(text, make, path, sizeof path);
    amp_accelerator_info gpu3 = device("Test GPU 3", 0);
    sgemm_tuning t, defaults = sgemm_tuning_default(&gpu3);
    sgemm_tuning_source from;
    assert_int_equal(sgemm_tune_load(&gpu3, &t, &from), 0);
    assert_true(same_params(t.large, defaults.large) && same_params(t.small, defaults.small));
    assert_string_equal(from.path, "");
    if (strncmp(from.refused, path, strlen(path)) != 0 || !strstr(from.refused, why))
        fail_msg("refused: \"%s\", expected %s ... %s", from.refused, path, why);
    remove(path);
    rmdir(path);
}

static void a_file_that_cannot_be_used_is_named_with_the_reason(void **state)
{
    (void)state;
    refused("", NULL, "holds no parameter");
    refused("# only a comment\nthis is not a setting\n", NULL, "holds no parameter");
    refused("large_gflops = 5\n", NULL, "holds no parameter");
    refused("plan = 0 0 0  1 16 16 8 1 4 32  2  24000.0\n", NULL, "and no plan this device");
    refused("ty = 16\nnv = 3.9\n", NULL, "nv = 3.9 is not a whole number");
    refused("rm = 1e300\n", NULL, "is not a whole number");
    refused("ty = 64\ntx = 64\n", NULL, "more threads per tile than the device allows");
    refused("ty = 16\nlarge_gflops = -5\n", NULL, "is not a number from 0");
    refused("ty = 16\nsmall_gflops = nan\n", NULL, "is not a number from 0");
    refused("ty = 16\nlarge_gflops = inf\n", NULL, "is not a number from 0");
    /* Neither waits for a writer nor reads a folder. */
    refused(NULL, make_fifo, "not a regular file");
    refused(NULL, make_folder, "not a regular file");
}

static void a_long_comment_is_one_line(void **state)
{
    (void)state;
    /* Its tail, past a buffer of 256 bytes, must not be read as a setting. */
    char text[1200] = "rm = 8\n# ";
    for (int i = 0; i < 253; i++)
        strcat(text, "x");
    strcat(text, " rm = 2\n");
    char path[1400];
    put_file(text, NULL, path, sizeof path);
    amp_accelerator_info gpu3 = device("Test GPU 3", 0);
    sgemm_tuning t;
    assert_int_equal(sgemm_tune_load(&gpu3, &t, NULL), 1);
    assert_int_equal(t.large.rm, 8);
    remove(path);
}

static void a_part_of_a_split_cpu_has_the_whole_cpus_file(void **state)
{
    (void)state;
    char whole[1400], part[1400], other[1400];
    amp_accelerator_info cpu = device("pthread-haswell-AMD EPYC", 1);
    assert_true(sgemm_tune_path(&cpu, whole, sizeof whole));
    cpu.description = "pthread-haswell-AMD EPYC (part 2 of 2)";
    assert_true(sgemm_tune_path(&cpu, part, sizeof part));
    assert_string_equal(part, whole);
    /* Only that suffix, at the end. */
    cpu.description = "pthread-haswell-AMD EPYC (part 2 of 2) x";
    assert_true(sgemm_tune_path(&cpu, other, sizeof other));
    assert_string_not_equal(other, whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_instruction_set_comes_from_the_llvm_cpu_in_the_name),
        cmocka_unit_test(an_untuned_avx2_device_gets_sums_that_fit_16_registers),
        cmocka_unit_test(the_tuner_explores_where_the_tiles_fill_few_waves),
        cmocka_unit_test(a_product_near_a_measured_size_takes_its_plan),
        cmocka_unit_test(a_product_far_from_every_measured_size_takes_the_model),
        cmocka_unit_test(the_tuning_file_keeps_the_measured_plans),
        cmocka_unit_test(a_measured_plan_the_device_cannot_run_is_left_out),
        cmocka_unit_test(a_device_with_no_file_of_its_own_reads_the_one_kept_with_the_sources),
        cmocka_unit_test(a_file_that_cannot_be_used_is_named_with_the_reason),
        cmocka_unit_test(a_long_comment_is_one_line),
        cmocka_unit_test(a_part_of_a_split_cpu_has_the_whole_cpus_file),
    };
    return cmocka_run_group_tests(tests, make_cache_dir, remove_files);
}
