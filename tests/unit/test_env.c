/*
 * tests/test_env.c - the settings read from the environment: a value the
 * library does not know gets one warning that names the variable and the
 * values it takes, however often the setting is read.
 *
 * AMP_TRACE is read once per process; its warnings are tested on a sample
 * (tests/CMakeLists.txt, env_trace_*).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_util.h"

#include "core/env.h"

static int saved_stderr = -1;
static char capture_path[64];

/* stderr goes to a file between capture_begin() and capture_end(), which
 * returns what was written (static, NUL-terminated). */
static void capture_begin(void)
{
    snprintf(capture_path, sizeof capture_path, "/tmp/amp_test_env_%d.stderr", (int)getpid());
    fflush(stderr);
    saved_stderr = dup(2);
    int fd = open(capture_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0 && saved_stderr >= 0);
    dup2(fd, 2);
    close(fd);
}

static const char *capture_end(void)
{
    static char text[4096];
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    FILE *f = fopen(capture_path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(capture_path);
    return text;
}

static int count_of(const char *text, const char *word)
{
    int n = 0;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        n++;
    return n;
}

static void an_unknown_flag_value_warns_once_with_the_values_it_takes(void **state)
{
    (void)state;
    setenv("AMP_PROFILE", "maybe", 1);
    capture_begin();
    int on = 0;
    for (int k = 0; k < 5; k++)
        on |= amp__env_profile();
    const char *text = capture_end();
    unsetenv("AMP_PROFILE");
    assert_int_equal(on, 0);
    assert_int_equal(count_of(text, "AMP_PROFILE=\"maybe\""), 1);
    assert_non_null(strstr(text, "1, on, true, yes"));
    assert_non_null(strstr(text, "0, off, false, no"));
}

static void known_flag_values_say_nothing(void **state)
{
    (void)state;
    static const char *const values[] = {"1", "on", "TRUE", "yes", "0", "off", "False", "no", "7"};
    capture_begin();
    int ons = 0;
    for (size_t k = 0; k < sizeof values / sizeof values[0]; k++) {
        setenv("AMP_LEAKS", values[k], 1);
        ons += amp__env_leaks();
    }
    const char *text = capture_end();
    unsetenv("AMP_LEAKS");
    assert_int_equal(ons, 5);
    assert_string_equal(text, "");
}

static void amp_check_names_races_and_all_among_its_values(void **state)
{
    (void)state;
    capture_begin();
    setenv("AMP_CHECK", "races", 1);
    int races = amp__env_check();
    setenv("AMP_CHECK", "all", 1);
    int all = amp__env_check();
    setenv("AMP_CHECK", "0", 1);
    int off = amp__env_check();
    const char *quiet = capture_end();
    assert_true(races && all && !off);
    assert_string_equal(quiet, "");

    capture_begin();
    setenv("AMP_CHECK", "race", 1);
    int typo = amp__env_check();
    typo |= amp__env_check();
    setenv("AMP_CHECK", "races,barriers", 1);
    int partly = amp__env_check();
    const char *text = capture_end();
    unsetenv("AMP_CHECK");
    assert_false(typo);
    assert_true(partly);
    /* One warning for the variable, whatever its later values. */
    assert_int_equal(count_of(text, "[amp] AMP_CHECK="), 1);
    assert_non_null(strstr(text, "AMP_CHECK=\"race\""));
    assert_non_null(strstr(text, "races or all"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(an_unknown_flag_value_warns_once_with_the_values_it_takes),
        cmocka_unit_test(known_flag_values_say_nothing),
        cmocka_unit_test(amp_check_names_races_and_all_among_its_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
