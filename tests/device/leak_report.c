/*
 * tests/device/leak_report.c - AMP_LEAKS=1: at exit, the library lists on stderr
 * every handle the program made and never released, with the call and the
 * file and line that made it.
 *
 *   leak_report          makes handles and leaves some alive: each is listed
 *   leak_report clean    releases everything: the report says so
 *   leak_report quiet    as the first, without AMP_LEAKS: no report
 *
 * The program checks the report itself. Before its first call of the
 * library it sends stderr to a file and registers a handler at exit; the
 * library registers its report when the first handle is made, later, so
 * its report runs first (handlers run in the reverse order), and the
 * handler then reads the file and exits 1 if a line is missing or extra.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <amp/amp.h>

#define MAX_EXPECTED 8

static char report_path[64];
static int real_stderr = -1;
static char expected[MAX_EXPECTED][256];
static int nexpected;
static const char *unexpected; /* a text the report must not hold */

static void expect(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void expect(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(expected[nexpected++], sizeof expected[0], fmt, ap);
    va_end(ap);
}

static void say(const char *text)
{
    (void)!write(real_stderr, text, strlen(text));
}

/* At exit, after the library's report: compare. */
static void check_report(void)
{
    fflush(stderr);
    static char text[1 << 16];
    FILE *f = fopen(report_path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    unlink(report_path);
    int ok = 1;
    for (int i = 0; i < nexpected; i++)
        if (!strstr(text, expected[i])) {
            say("leak_report: the report lacks: ");
            say(expected[i]);
            say("\n");
            ok = 0;
        }
    if (unexpected && strstr(text, unexpected)) {
        say("leak_report: the report holds what it must not: ");
        say(unexpected);
        say("\n");
        ok = 0;
    }
    say("---- stderr of the run ----\n");
    say(text);
    say(ok ? "---- leak report as expected\n" : "---- leak report WRONG\n");
    _exit(ok ? 0 : 1);
}

static void must(amp_status st, const char *what)
{
    if (st != AMP_OK) {
        fprintf(stderr, "%s: %s\n", what, amp_last_error());
        exit(2);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "leaks";
    snprintf(report_path, sizeof report_path, "/tmp/amp_leak_report_%ld", (long)getpid());
    real_stderr = dup(2);
    if (real_stderr < 0 || !freopen(report_path, "w", stderr) || atexit(check_report) != 0)
        return 2;

    static int a[16], b[16], c[16];
    amp_array_view *kept, *gone, *part, *through_pointer;
    amp_array *arr;
    amp_completion *marker;
    amp_accelerator_view *av;

    int line_kept = __LINE__ + 1;
    must(amp_array_view_create(AMP_INT, amp_extent_1d(16), a, &kept), "view");
    must(amp_array_view_create(AMP_INT, amp_extent_1d(16), b, &gone), "view");
    must(amp_array_view_release(gone), "release");
    int line_part = __LINE__ + 1;
    must(amp_array_view_section(kept, amp_index_1d(4), amp_extent_1d(8), &part), "section");
    int line_arr = __LINE__ + 1;
    must(amp_array_create(AMP_FLOAT, amp_extent_2d(4, 4), NULL, &arr), "array");
    must(amp_accelerator_get_default_view(NULL, &av), "default view");
    int line_marker = __LINE__ + 1;
    must(amp_accelerator_view_create_marker(av, &marker), "marker");
    must(amp_completion_wait(marker), "wait");
    /* Without the macro: the function through a pointer has no line. */
    amp_status (*make)(amp_elem_type, amp_extent, void *, amp_array_view **) =
        &amp_array_view_create;
    must(make(AMP_INT, amp_extent_1d(16), c, &through_pointer), "view through a pointer");

    if (strcmp(mode, "clean") == 0) {
        must(amp_array_view_release(through_pointer), "release");
        must(amp_completion_release(marker), "release");
        must(amp_array_release(arr), "release");
        must(amp_array_view_release(part), "release");
        must(amp_array_view_release(kept), "release");
        expect("[amp] AMP_LEAKS: every handle the program made was released.");
        unexpected = "never released";
        return 0;
    }
    if (strcmp(mode, "quiet") == 0) {
        unexpected = "AMP_LEAKS";
        return 0;
    }
    expect("[amp] AMP_LEAKS: 5 handles the program made were never released:");
    expect("  view %p, made by amp_array_view_create at %s:%d", (void *)kept, __FILE__,
           line_kept);
    expect("  view %p, made by amp_array_view_section at %s:%d", (void *)part, __FILE__,
           line_part);
    expect("  array %p, made by amp_array_create at %s:%d", (void *)arr, __FILE__, line_arr);
    expect("  completion %p, made by amp_accelerator_view_create_marker at %s:%d",
           (void *)marker, __FILE__, line_marker);
    expect("  view %p, made through a pointer to its function (no file and line)",
           (void *)through_pointer);
    /* The released view is not listed. */
    static char gone_address[32];
    snprintf(gone_address, sizeof gone_address, "%p", (void *)gone);
    unexpected = gone_address;
    return 0;
}
