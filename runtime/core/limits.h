/*
 * runtime/core/limits.h - the runtime's own limits, in one place: the
 * sizes of its tables and the bounds it keeps on work in flight. A program
 * cannot be refused for any of them; past one, the runtime takes a slower
 * path or says less, as each comment says, and never a wrong one. The
 * limits a program can reach are public: amp/limits.h.
 */
#ifndef AMP_CORE_LIMITS_H
#define AMP_CORE_LIMITS_H

#include <stddef.h>
#include <stdint.h>

/* ---- api: the launch record (api/record.c) ---- */

/* Slots of the launch record, each the last launch of a call site and
 * accelerator view (docs/architecture.md, "A call site remembers its last
 * launch"), in sets of 4 chosen by a hash of both: a fifth call site in
 * one set replaces the record used longest ago, and that call site's next
 * launch takes the full path. */
#define LIMIT_LAUNCH_RECORDS 64

/* ---- kernel ---- */

/* Arguments of a compiled kernel whose last value is remembered (the
 * memo of kernel/bind.c); later ones are set at every launch. */
#define LIMIT_ARGUMENT_MEMO 64

/* Work sizes a compiled kernel remembers having been launched at (the
 * newest ones). Once the process has begun to exit, a launch at a work
 * size not among them is refused with a status rather than built
 * (device/ending.h). */
#define LIMIT_LAUNCH_SIZES 8

/* Bytes of a kernel's launch values (translate.c's amp_launch_values:
 * offsets, strides, extents, scalars). The most AMP_MAX_CAPTURES captures
 * can take is about 3.5 KiB: a view of rank 8 with 64-bit offsets under
 * AMP_CHECK takes 104 bytes and up to 4 of padding, a double4 or an index
 * of rank 8 takes 32 and up to 28 of padding; the domain 32 more. */
#define LIMIT_LAUNCH_VALUES 4096

/* ---- check: AMP_CHECK ---- */

/* Places (line and view) per launch where a first access outside a view
 * is recorded on the device; accesses at further places in the same
 * launch are not reported. */
#define LIMIT_CHECK_PLACES 32

/* Reports AMP_CHECK prints one by one after a kernel; the rest are counted
 * in one line. */
#define LIMIT_CHECK_SHOWN 20

/* ---- translate: the kernel front end ---- */

/* Entries of the kernels' vocabulary (atomics, fences, math functions,
 * short vectors: the #defines of translate/cl/'s pieces). The test
 * limits_hold checks that the pieces fit. */
#define LIMIT_VOCABULARY 256

/* Tokens one host macro use in a kernel body is taken to expand to, when
 * the body's tokens are found again in the user's file. Past it, a build
 * error is not shown at the user's line, only at the generated kernel's. */
#define LIMIT_MACRO_EXPANSION 4096

/* ---- core ---- */

/* The bytes of a source file read to place build errors at the user's
 * lines: in a larger file they are shown at the generated kernel's lines
 * only. */
#define LIMIT_SOURCE_FILE_BYTES ((uint64_t)64 * 1024 * 1024)

/* Calls since amp__test_inject_fault() whose names are kept (core/fault.c,
 * for tests). */
#define LIMIT_NAMED_CALLS 4096

/* ---- device ---- */

/* Kernels launched on a queue between two markers. A launch that starts a
 * new span first waits for the marker that started the span before, so a
 * queue has at most 2 x LIMIT_QUEUE_SPAN launches in flight: the host waits
 * for the device instead of piling up commands (PoCL holds about 0.7 KB of
 * host memory for each command until it runs, and runs a small kernel more
 * slowly than the host queues it). The device always has a span queued, so
 * it does not idle for the wait. */
#define LIMIT_QUEUE_SPAN 1024

/* Firsts of the OpenCL implementation (a platform's first context, build,
 * kernels run; device/ending.h) remembered, after which the library's exit
 * handler is registered again. Past it, every later one is taken as seen:
 * the handler is not registered again for it, as for any repeat. */
#define LIMIT_END_FIRSTS 32

/* Profiled launches (AMP_PROFILE) whose events are not read yet, past
 * which the next launch reads those that completed, so that a program that
 * never waits does not pile them up. */
#define LIMIT_PROFILE_PENDING 256

/* ---- data ---- */

/* Threads that copy one large block of host memory (the caller and
 * LIMIT_COPY_THREADS - 1 workers): memory bandwidth, not cores, limits a
 * copy beyond a few threads. */
#define LIMIT_COPY_THREADS 8

#endif
