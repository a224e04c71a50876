/*
 * runtime/device/oclcheck.h - AMP_CHECK: running kernels on Oclgrind, the OpenCL
 * simulator that checks every memory access, and reading what it reports.
 *
 * amp__ock_install() loads Oclgrind's OpenCL runtime (its ICD library, reached
 * as an ICD loader reaches it: see oclcheck.c for why not its libOpenCL
 * replacement) and points the amp__clapi table at the functions of its platform's
 * dispatch table, so that every later OpenCL call of the runtime goes to the
 * simulator: one platform, "Oclgrind", with one device. Its
 * checks are configured through environment variables that Oclgrind reads
 * when a context is created: data races (OCLGRIND_DATA_RACES), uniform
 * write-write races (OCLGRIND_UNIFORM_WRITES) and API errors
 * (OCLGRIND_CHECK_API); work-group divergence at barriers and out-of-bounds
 * accesses are always checked. Kernel reports go to a private temporary file
 * (OCLGRIND_LOG); API errors reach the context's notify callback, which
 * should call amp__ock_context_notify(). amp__ock_take_reports() turns both into
 * records with the kernel name and the line in the kernel's source.
 *
 * Oclgrind 21.10 (Debian's package) is what this was written against. The
 * report format it parses, verbatim (tabs shown as \t):
 *
 *   Read-write data race at local memory address 0x1000000000000
 *   \tKernel: race
 *   \t
 *   \tFirst entity:  Global(1,0,0) Local(1,0,0) Group(0,0,0)
 *   \t  %1 = load float, float addrspace(3)* @race.total, align 4, !dbg !63
 *   \tAt line 5 (column 11) of input.cl:
 *   \t  total += in[gid];
 *   \t
 *   \tSecond entity: Global(0,0,0) Local(0,0,0) Group(0,0,0)
 *   \t  store float %add, float addrspace(3)* @race.total, align 4, !dbg !63
 *   \tAt line 5 (column 11) of input.cl:
 *   \t  total += in[gid];
 *
 * Reports are separated by empty lines; lines inside a report are indented
 * with a tab, even the blank ones. After a `#line 40 "sum.cl"` directive the
 * location reads "At line 40 (column 7) of sum.cl:" and the source line
 * "(source not available)".
 */
#ifndef AMP_DEVICE_OCLCHECK_H
#define AMP_DEVICE_OCLCHECK_H

#include <stddef.h>

#include "amp/status.h"
#include "core/clapi.h"

/* Nonzero when AMP_CHECK is set to a true value: 1, on, yes, true, races or
 * all, in any case (a comma- or space-separated list may hold one of them).
 * Reads the environment on every call. */
int amp__ock_requested(void);

/*
 * Point the amp__clapi table at Oclgrind's OpenCL runtime, with the data-race,
 * uniform-write and API checks on and its log going to a private temporary
 * file (removed at exit). Tries Debian's
 * /usr/lib/oclgrind/liboclgrind-rt-icd.so, then /usr/local/lib (a source
 * install), then the loader's search path.
 * Call once, before any OpenCL call, while no other thread uses OpenCL: it
 * sets environment variables and replaces the table. A second call after a
 * success does nothing and returns AMP_OK. Returns
 * AMP_ERROR_UNSUPPORTED_FEATURE, with a message that says to install
 * oclgrind, when no library can be loaded; the table is then unchanged.
 */
amp_status amp__ock_install(void);

/* Nonzero once amp__ock_install() has succeeded. */
int amp__ock_installed(void);

/*
 * The options to pass to clBuildProgram so that reports point at the right
 * source lines: "-cl-opt-disable" once installed, "" otherwise (a static
 * string). Oclgrind always compiles with debug information (and refuses
 * "-g"), but by default it optimizes (-Oz), which moves instructions across
 * lines and can remove a racy tile_static store whose value the same thread
 * reads back, hiding the race.
 */
const char *amp__ock_build_options(void);

/*
 * A context notify callback (pfn_notify of clCreateContext) that keeps the
 * message for amp__ock_take_reports(). Oclgrind reports OpenCL API errors there
 * (and, with OCLGRIND_CHECK_API, also on stderr). Safe to call from any
 * thread; errinfo is copied. Call it from the runtime's own callback, or pass
 * it to clCreateContext directly.
 */
void CL_CALLBACK amp__ock_context_notify(const char *errinfo, const void *private_info, size_t cb,
                                         void *user_data);

typedef enum ock_category {
    OCK_DATA_RACE,      /* "Read-write data race ...", "Write-write data race ..." */
    OCK_DIVERGENCE,     /* "Work-group divergence detected (barrier)" */
    OCK_INVALID_ACCESS, /* "Invalid read of size 4 at global memory address ...", unaligned */
    OCK_API_ERROR,  /* "Oclgrind - OpenCL runtime error detected" (via amp__ock_context_notify) */
    OCK_SUPPRESSED, /* "Oclgrind: 100000 errors generated - suppressing further errors" */
    OCK_OTHER       /* anything else (uninitialized values, if the user enabled them) */
} ock_category;

typedef struct ock_report {
    ock_category category;
    char *kernel;     /* kernel name, or "" (API errors) */
    char *file;       /* the file of line: "input.cl" (Oclgrind's name for the program
                         source), the name a #line directive gave, or "" if unknown */
    int line;         /* line in that file (1 = first), 0 if unknown */
    int column;       /* column in that line (1 = first), 0 if unknown */
    char *other_file; /* a race's other access ("Second entity"), "" and 0 if none */
    int other_line;
    int other_column;
    char *kind; /* first line of the report, e.g. "Read-write data race at local memory
                         address 0x1000000000000" */
    char *text; /* the whole report as Oclgrind printed it, without trailing blank lines */
} ock_report;

/*
 * Read and parse the reports written since the last call, and consume them:
 * call after clFinish (Oclgrind runs kernels when the queue is flushed and
 * finishes writing their reports before clFinish returns). API errors come
 * first, then kernel reports in the order Oclgrind wrote them. One race is
 * reported once per pair of work-items and kind of access, so expect many
 * records with the same line; group them by (kernel, category, line).
 * On AMP_OK, *reports is a malloc'ed array of *count records (NULL when none)
 * that the caller frees with amp__ock_free_reports(). Returns
 * AMP_ERROR_INVALID_ARGUMENT for NULL pointers, AMP_ERROR_INVALID_OPERATION
 * before amp__ock_install(), AMP_ERROR_OUT_OF_MEMORY (nothing consumed) or
 * AMP_ERROR_RUNTIME when the log cannot be read.
 */
amp_status amp__ock_take_reports(ock_report **reports, size_t *count);

/* Parse text in Oclgrind's report format (as described at the top) into
 * records; what amp__ock_take_reports() does with the log. NUL bytes are skipped.
 * Ownership and statuses as amp__ock_take_reports(), without the consuming. */
amp_status amp__ock_parse_reports(const char *text, size_t length, ock_report **reports,
                                  size_t *count);

/* Free records from amp__ock_take_reports() or amp__ock_parse_reports(). NULL is fine. */
void amp__ock_free_reports(ock_report *reports, size_t count);

#endif
