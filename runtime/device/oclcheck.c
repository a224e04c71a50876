/*
 * runtime/device/oclcheck.c - AMP_CHECK: Oclgrind as the OpenCL implementation, and
 * its reports as records.
 */
#define _GNU_SOURCE /* SEEK_DATA */
#include "device/oclcheck.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/env.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/testing.h"

/* The ICD dispatch table's layout, from the Khronos headers (Debian's
 * opencl-c-headers). Some vendor SDKs ship CL/ without it; AMP_CHECK is
 * then refused, and the rest of the runtime builds as before. */
#if defined(__has_include)
#if __has_include(<CL/cl_icd.h>)
#include <CL/cl_icd.h>
#define OCK_HAVE_ICD_H 1
#endif
#endif

/* dlsym() returns an object pointer; POSIX guarantees that a function
 * pointer has the same size and representation, which the copy relies on. */
_Static_assert(sizeof(void (*)(void)) == sizeof(void *), "function pointers fit in void *");

/*
 * Where Oclgrind's ICD library is, in the order tried. Its libOpenCL
 * replacement (liboclgrind-rt.so) exports clXxx under the ICD loader's names,
 * and its own internal calls and its objects' dispatch tables then bind to
 * the loader this library links, which dispatches back into them: the first
 * such call never returns (seen with ocl-icd 2.3). Only RTLD_DEEPBIND would
 * avoid that, and AddressSanitizer refuses it. The ICD library's functions
 * are internal; it is reached as an ICD loader reaches it, through
 * clIcdGetPlatformIDsKHR and the platform's dispatch table.
 */
static const char *const ock_candidates[] = {
    "/usr/lib/oclgrind/liboclgrind-rt-icd.so", /* Debian and Ubuntu's oclgrind package */
    "/usr/local/lib/liboclgrind-rt-icd.so",    /* `make install` of the sources */
    "liboclgrind-rt-icd.so",                   /* LD_LIBRARY_PATH and the loader's cache */
};

/* Protects ock_notes and the log between amp__ock_context_notify() (any thread)
 * and amp__ock_take_reports(). */
static pthread_mutex_t ock_mutex = PTHREAD_MUTEX_INITIALIZER;
/* Never closed: the OpenCL objects the runtime made live in it until exit. */
static void *ock_lib;
static int ock_log_fd = -1;
static char *ock_log_path;
/* API errors from amp__ock_context_notify(), in the log's format, not yet taken. */
static strbuf ock_notes = STRBUF_INIT;

int amp__ock_requested(void)
{
    return amp__env_check();
}

int amp__ock_installed(void)
{
    return ock_lib != NULL;
}

const char *amp__ock_build_options(void)
{
    return ock_lib ? "-cl-opt-disable" : "";
}

#ifdef OCK_HAVE_ICD_H
/* At exit: the log is private to this process and useless afterwards.
 * Oclgrind may still hold it open; unlinking an open file is harmless. */
static void remove_log(void)
{
    if (ock_log_path)
        unlink(ock_log_path);
}

/* Forget a log file made for an install that failed. */
static void drop_log(void)
{
    if (ock_log_fd >= 0)
        close(ock_log_fd);
    ock_log_fd = -1;
    if (ock_log_path)
        unlink(ock_log_path);
    free(ock_log_path);
    ock_log_path = NULL;
    unsetenv("OCLGRIND_LOG");
}

/* Make the private log file (mode 0600, a name no one else can have taken)
 * in $TMPDIR, or /tmp when that fails, and keep a descriptor to read it. */
static amp_status make_log(void)
{
    const char *dirs[] = {amp__env_tmpdir(), "/tmp"};
    int err = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i] || !dirs[i][0])
            continue;
        strbuf sb = STRBUF_INIT;
        amp__sb_printf(&sb, "%s/amp-oclgrind-XXXXXX", dirs[i]);
        char *path = amp__sb_take(&sb);
        if (!path)
            return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                                "Out of host memory setting up AMP_CHECK.");
        int fd = mkstemp(path);
        if (fd >= 0) {
            fcntl(fd, F_SETFD, FD_CLOEXEC);
            ock_log_fd = fd;
            ock_log_path = path;
            return AMP_OK;
        }
        err = errno;
        free(path);
    }
    return amp__err_set(
        AMP_ERROR_RUNTIME,
        "AMP_CHECK could not make its log file in $TMPDIR or /tmp: %s. Set TMPDIR to"
        " a writable folder.",
        strerror(err));
}

/* Oclgrind reads these when it makes its platform or a context
 * (OCLGRIND_CHECK_API on every API error), not when it is loaded: setting
 * them after dlopen() but before the first call into it is enough, and a
 * missing library then leaves the environment as it was. */
static amp_status set_environment(void)
{
    int failed = setenv("OCLGRIND_DATA_RACES", "1", 1) != 0;
    failed |= setenv("OCLGRIND_UNIFORM_WRITES", "1", 1) != 0;
    failed |= setenv("OCLGRIND_CHECK_API", "1", 1) != 0;
    failed |= setenv("OCLGRIND_LOG", ock_log_path, 1) != 0;
    /* Past Oclgrind's default of 1000, further reports are dropped for the
     * rest of the process (its count is never reset), so one racy kernel
     * would silence every later one. Each report is about 600 bytes: this
     * bounds the log at about 60 MB. A value the user set is kept. */
    failed |= setenv("OCLGRIND_MAX_ERRORS", "100000", 0) != 0;
    if (failed)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory setting up AMP_CHECK.");
    return AMP_OK;
}

/* Fill table from the dispatch table of the library's platform, for every
 * call amp__clapi makes. Returns NULL, or what is missing. */
static const char *resolve_table(void *lib, clapi_table *table)
{
    typedef cl_int(CL_API_CALL * icd_get_platforms)(cl_uint, cl_platform_id *, cl_uint *);
    void *sym = dlsym(lib, "clIcdGetPlatformIDsKHR");
    if (!sym)
        return "clIcdGetPlatformIDsKHR";
    icd_get_platforms get_platforms;
    memcpy(&get_platforms, &sym, sizeof sym);
    cl_platform_id platform = NULL;
    if (get_platforms(1, &platform, NULL) != CL_SUCCESS || !platform)
        return "a platform from clIcdGetPlatformIDsKHR";
    /* Every ICD object starts with a pointer to its dispatch table. */
    const struct _cl_icd_dispatch *dispatch =
        *(const struct _cl_icd_dispatch *const *)(const void *)platform;
    if (!dispatch)
        return "a dispatch table";
#define OCK_RESOLVE(name)                                                                          \
    table->name = dispatch->cl##name;                                                              \
    if (!table->name)                                                                              \
        return "cl" #name;
#define OCK_RESOLVE_STATUS(name, params, args) OCK_RESOLVE(name)
#define OCK_RESOLVE_CREATE(ret, name, params, args) OCK_RESOLVE(name)
#define OCK_RESOLVE_RELEASE(name, type) OCK_RESOLVE(name)
    CLAPI_STATUS_CALLS(OCK_RESOLVE_STATUS)
    CLAPI_CREATE_CALLS(OCK_RESOLVE_CREATE)
    CLAPI_RELEASE_CALLS(OCK_RESOLVE_RELEASE)
#undef OCK_RESOLVE_STATUS
#undef OCK_RESOLVE_CREATE
#undef OCK_RESOLVE_RELEASE
#undef OCK_RESOLVE
    return NULL;
}

/* Load the first of paths that loads, into *lib. */
static amp_status load_first(const char *const *paths, size_t npaths, void **lib)
{
    strbuf why = STRBUF_INIT;
    *lib = NULL;
    for (size_t i = 0; i < npaths && !*lib; i++) {
        dlerror();
        *lib = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
        if (!*lib) {
            /* dlerror() names the path already. */
            const char *e = dlerror();
            amp__sb_printf(&why, "  %s\n", e ? e : paths[i]);
        }
    }
    amp_status st = AMP_OK;
    if (!*lib)
        st = amp__err_set(
            AMP_ERROR_UNSUPPORTED_FEATURE,
            "AMP_CHECK runs kernels on Oclgrind, but its OpenCL runtime could not be loaded:\n%s"
            "Install oclgrind: apt-get install oclgrind (Debian, Ubuntu), or build it from"
            " https://github.com/jrprice/Oclgrind; or unset AMP_CHECK.",
            why.data ? why.data : "");
    amp__sb_free(&why);
    return st;
}

/* Load the first of paths that loads, and point amp__clapi at it. */
static amp_status install_from(const char *const *paths, size_t npaths)
{
    if (ock_lib)
        return AMP_OK;
    void *lib = NULL;
    amp_status st = load_first(paths, npaths, &lib);
    if (st != AMP_OK)
        return st;
    /* The environment must be set before the first call into the library,
     * which resolving the table makes. */
    st = make_log();
    if (st != AMP_OK)
        goto fail_library;
    st = set_environment();
    if (st != AMP_OK)
        goto fail_log;
    clapi_table table;
    const char *missing = resolve_table(lib, &table);
    if (missing) {
        st = amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                          "AMP_CHECK loaded Oclgrind's OpenCL runtime, but found no %s in it."
                          " Install oclgrind 21.10 or later, or unset AMP_CHECK.",
                          missing);
        /* Oclgrind made its platform: it stays loaded, unused. */
        lib = NULL;
        goto fail_log;
    }
    amp__clapi_install(&table);
    ock_lib = lib;
    atexit(remove_log);
    return AMP_OK;

fail_log:
    drop_log();
fail_library:
    if (lib)
        dlclose(lib);
    return st;
}
#else
static amp_status install_from(const char *const *paths, size_t npaths)
{
    (void)paths;
    (void)npaths;
    return amp__err_set(
        AMP_ERROR_UNSUPPORTED_FEATURE,
        "AMP_CHECK needs the OpenCL ICD header CL/cl_icd.h, which the OpenCL headers"
        " this library was built with lack. Install opencl-c-headers (Debian, Ubuntu)"
        " and rebuild, or unset AMP_CHECK.");
}
#endif

amp_status amp__ock_install(void)
{
    return install_from(ock_candidates, sizeof ock_candidates / sizeof ock_candidates[0]);
}

amp_status amp__test_install_oclgrind(const char *path)
{
    if (!path)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "amp__test_install_oclgrind: path is NULL.");
    return install_from(&path, 1);
}

void CL_CALLBACK amp__ock_context_notify(const char *errinfo, const void *private_info, size_t cb,
                                         void *user_data)
{
    (void)private_info;
    (void)cb;
    (void)user_data;
    /* Other drivers' messages are not Oclgrind reports, and nothing would
     * ever take them. */
    if (!errinfo || !ock_lib)
        return;
    pthread_mutex_lock(&ock_mutex);
    /* Empty lines around it separate it from the next, as in the log. */
    amp__sb_append(&ock_notes, "\n");
    amp__sb_append(&ock_notes, errinfo);
    amp__sb_append(&ock_notes, "\n\n");
    pthread_mutex_unlock(&ock_mutex);
}

/* ---- Parsing ---------------------------------------------------------- */

typedef struct report_list {
    ock_report *items;
    size_t count;
    size_t capacity;
} report_list;

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The length of s[0..n) without trailing blanks and carriage returns. */
static size_t trimmed_length(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    return n;
}

static int is_blank_line(const char *s, size_t n)
{
    return trimmed_length(s, n) == 0;
}

/* "At line 5 (column 11) of input.cl:", or without a column (older
 * versions) "At line 5 of input.cl". The file is "input.cl" or a #line
 * directive's name; *file points into s, *file_length excludes the colon.
 * Oclgrind prints "Debugging information not available." instead when the
 * kernel has none. */
static int parse_location(const char *s, size_t n, int *line, int *column, const char **file,
                          size_t *file_length)
{
    const char *start = s;
    s = skip_blanks(s);
    if (!starts_with(s, "At line "))
        return 0;
    char *end;
    long l = strtol(s + 8, &end, 10);
    if (end == s + 8 || l <= 0 || l > INT_MAX)
        return 0;
    long c = 0;
    if (starts_with(end, " (column ")) {
        c = strtol(end + 9, &end, 10);
        if (c < 0 || c > INT_MAX)
            c = 0;
        if (*end == ')')
            end++;
    }
    *line = (int)l;
    *column = (int)c;
    *file = end;
    *file_length = 0;
    if (starts_with(end, " of ")) {
        *file = end + 4;
        *file_length = trimmed_length(*file, n - (size_t)(*file - start));
        if (*file_length > 0 && (*file)[*file_length - 1] == ':')
            --*file_length;
    }
    return 1;
}

static ock_category category_of(const char *kind)
{
    if (strstr(kind, "data race"))
        return OCK_DATA_RACE;
    if (strstr(kind, "divergence"))
        return OCK_DIVERGENCE;
    if (starts_with(kind, "Invalid "))
        return OCK_INVALID_ACCESS;
    if (starts_with(kind, "Oclgrind - OpenCL runtime error"))
        return OCK_API_ERROR;
    if (starts_with(kind, "Oclgrind: ") && strstr(kind, "suppressing"))
        return OCK_SUPPRESSED;
    return OCK_OTHER;
}

static void report_free(ock_report *r)
{
    free(r->kernel);
    free(r->file);
    free(r->other_file);
    free(r->kind);
    free(r->text);
}

/* Turn one report's text (no empty lines inside) into a record at the end
 * of list. Returns 0 when out of memory. */
static int add_report(report_list *list, const char *text, size_t n)
{
    /* Drop the trailing "\t" lines Oclgrind ends reports with. */
    while (n > 0) {
        size_t start = n;
        while (start > 0 && text[start - 1] != '\n')
            start--;
        if (!is_blank_line(text + start, n - start))
            break;
        n = start > 0 ? start - 1 : 0;
    }
    n = trimmed_length(text, n);
    if (n == 0)
        return 1;

    ock_report r;
    memset(&r, 0, sizeof r);
    r.text = strndup(text, n);
    if (!r.text)
        return 0;
    int locations = 0;
    for (const char *line = r.text; line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        if (!r.kind) {
            if (!is_blank_line(line, len) && !(r.kind = strndup(line, trimmed_length(line, len))))
                goto oom;
        } else {
            const char *p = skip_blanks(line);
            if (!r.kernel && starts_with(p, "Kernel:")) {
                const char *name = skip_blanks(p + 7);
                r.kernel = strndup(name, trimmed_length(name, len - (size_t)(name - line)));
                if (!r.kernel)
                    goto oom;
            } else if (locations < 2) {
                int l, c;
                const char *file;
                size_t file_length;
                if (parse_location(line, len, &l, &c, &file, &file_length)) {
                    char *name = strndup(file, file_length);
                    if (!name)
                        goto oom;
                    if (locations++ == 0) {
                        r.file = name;
                        r.line = l;
                        r.column = c;
                    } else {
                        r.other_file = name;
                        r.other_line = l;
                        r.other_column = c;
                    }
                }
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    if (!r.kind && !(r.kind = strdup("")))
        goto oom;
    if (!r.kernel && !(r.kernel = strdup("")))
        goto oom;
    if (!r.file && !(r.file = strdup("")))
        goto oom;
    if (!r.other_file && !(r.other_file = strdup("")))
        goto oom;
    r.category = category_of(r.kind);

    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 16;
        ock_report *grown = realloc(list->items, cap * sizeof *grown);
        if (!grown)
            goto oom;
        list->items = grown;
        list->capacity = cap;
    }
    list->items[list->count++] = r;
    return 1;
oom:
    report_free(&r);
    return 0;
}

amp_status amp__ock_parse_reports(const char *text, size_t length, ock_report **reports,
                                  size_t *count)
{
    if (!reports || !count || (!text && length))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "amp__ock_parse_reports: text, reports and count must not be NULL.");
    *reports = NULL;
    *count = 0;

    report_list list = {NULL, 0, 0};
    strbuf block = STRBUF_INIT; /* the report being gathered */
    size_t gap = 0;             /* empty lines seen since its last line */
    int ok = 1;
    size_t i = 0;
    while (ok && i < length) {
        /* One line, without its NUL bytes: after the log is truncated,
         * Oclgrind writes on at its old offset, and the hole reads as NULs. */
        strbuf line = STRBUF_INIT;
        size_t j = i;
        while (j < length && text[j] != '\n') {
            size_t run = j;
            while (run < length && text[run] != '\n' && text[run] != '\0')
                run++;
            amp__sb_append_n(&line, text + j, run - j);
            j = run;
            while (j < length && text[j] == '\0')
                j++;
        }
        i = j < length ? j + 1 : j;
        ok = !amp__sb_failed(&line);
        if (!ok) {
            amp__sb_free(&line);
            break;
        }
        /* Oclgrind's blank lines inside a report hold a tab; an empty line
         * ends a report, unless the next line is indented: then the report
         * had an empty line of its own. */
        int separator = trimmed_length(line.data, line.length) == 0 &&
                        (line.length == 0 || line.data[0] != '\t');
        if (separator) {
            gap++;
        } else if (block.length > 0 && gap > 0 && line.data[0] != ' ' && line.data[0] != '\t') {
            ok = add_report(&list, block.data, block.length);
            amp__sb_free(&block);
            gap = 0;
            amp__sb_append_n(&block, line.data, line.length);
        } else {
            if (block.length > 0) {
                for (size_t g = 0; g <= gap; g++)
                    amp__sb_append(&block, "\n");
            }
            gap = 0;
            amp__sb_append_n(&block, line.data, line.length);
        }
        amp__sb_free(&line);
        ok = ok && !amp__sb_failed(&block);
    }
    if (ok && block.length > 0)
        ok = add_report(&list, block.data, block.length);
    amp__sb_free(&block);
    if (!ok) {
        amp__ock_free_reports(list.items, list.count);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                            "Out of host memory reading Oclgrind's reports.");
    }
    *reports = list.items;
    *count = list.count;
    return AMP_OK;
}

void amp__ock_free_reports(ock_report *reports, size_t count)
{
    if (!reports)
        return;
    for (size_t i = 0; i < count; i++)
        report_free(&reports[i]);
    free(reports);
}

/* ---- Taking the reports ----------------------------------------------- */

/* Append the log's content to out, without the NULs of holes. */
static amp_status read_log(strbuf *out)
{
    struct stat info;
    if (fstat(ock_log_fd, &info) != 0)
        return amp__err_set(AMP_ERROR_RUNTIME, "AMP_CHECK could not read Oclgrind's log %s: %s.",
                            ock_log_path, strerror(errno));
    off_t end = info.st_size;
    off_t pos = 0;
#ifdef SEEK_DATA
    /* Skip the hole that truncation leaves before Oclgrind's next writes
     * (see amp__ock_take_reports) without reading it. */
    off_t data = lseek(ock_log_fd, 0, SEEK_DATA);
    if (data >= 0)
        pos = data;
    else if (errno == ENXIO)
        pos = end; /* no data at all */
#endif
    char buf[65536];
    while (pos < end) {
        size_t want = (size_t)(end - pos) < sizeof buf ? (size_t)(end - pos) : sizeof buf;
        ssize_t got = pread(ock_log_fd, buf, want, pos);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return amp__err_set(AMP_ERROR_RUNTIME,
                                "AMP_CHECK could not read Oclgrind's log %s: %s.", ock_log_path,
                                strerror(errno));
        if (got == 0)
            break;
        for (ssize_t k = 0; k < got;) {
            ssize_t run = k;
            while (run < got && buf[run] != '\0')
                run++;
            amp__sb_append_n(out, buf + k, (size_t)(run - k));
            while (run < got && buf[run] == '\0')
                run++;
            k = run;
        }
        pos += got;
    }
    return AMP_OK;
}

amp_status amp__ock_take_reports(ock_report **reports, size_t *count)
{
    if (!reports || !count)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "amp__ock_take_reports: reports and count must not be NULL.");
    *reports = NULL;
    *count = 0;
    if (!ock_lib)
        return amp__err_set(
            AMP_ERROR_INVALID_OPERATION,
            "There are no Oclgrind reports to take: amp__ock_install() has not succeeded.");

    pthread_mutex_lock(&ock_mutex);
    strbuf all = STRBUF_INIT;
    if (ock_notes.failed) {
        /* Some API error did not fit in memory; the notes are incomplete and
         * would stay so. Drop them rather than fail every later call. */
        amp__sb_free(&ock_notes);
    }
    if (ock_notes.length > 0)
        amp__sb_append_n(&all, ock_notes.data, ock_notes.length);
    amp_status st = read_log(&all);
    if (st == AMP_OK && amp__sb_failed(&all))
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY,
                          "Out of host memory reading Oclgrind's reports.");
    if (st == AMP_OK)
        st = amp__ock_parse_reports(all.data ? all.data : "", all.length, reports, count);
    if (st == AMP_OK) {
        /* Consume: empty the file rather than remember an offset. Oclgrind
         * truncates the file itself whenever it makes a context, which would
         * make a remembered offset point into the middle of a later report.
         * Its stream writes on at its own offset, after a hole that
         * read_log skips. */
        if (ftruncate(ock_log_fd, 0) != 0) {
            amp__ock_free_reports(*reports, *count);
            *reports = NULL;
            *count = 0;
            st = amp__err_set(AMP_ERROR_RUNTIME, "AMP_CHECK could not empty Oclgrind's log %s: %s.",
                              ock_log_path, strerror(errno));
        } else {
            amp__sb_free(&ock_notes);
        }
    }
    pthread_mutex_unlock(&ock_mutex);
    amp__sb_free(&all);
    return st;
}
