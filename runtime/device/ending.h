/*
 * runtime/device/ending.h - the end of a process: what is queued, and being
 * built, is waited for before the exit handlers tear down the OpenCL
 * implementation's compiler; once the library's own exit handler has run,
 * nothing new is built.
 *
 * PoCL builds a kernel for its first launch on its own threads, after the
 * launch was queued, and its compiler (LLVM, clang) registers exit handlers
 * of its own: when PoCL is loaded (listing the platforms), and the first
 * time it takes a path (the first context, the first build, the first
 * kernel it generates code for; seldom a later build). Exit handlers run
 * last-registered first, so a handler registered before those runs after
 * them, and a build after them crashes inside the compiler. glibc runs the
 * exiting thread's thread-local destructors before any exit handler. So:
 *
 *   - a thread that launches waits, as it ends, for what it launched (the
 *     queues it launched on, nothing of the others'); the main thread, as
 *     it ends, for every queue, whether it launched or not: returning from
 *     main(), or exit() on a thread that launched, waits before any exit
 *     handler runs, and so before the compiler is torn down;
 *   - the library's exit handler is registered again after each of those
 *     firsts and after every build (amp__end_begin, amp__end_done), and
 *     after the first wait that saw kernels run on a platform (their code
 *     was generated then: amp__end_ran), so that it runs before the
 *     compiler's handlers. It takes the lock (a build on another thread
 *     finishes first), marks the process as ending, and waits for every
 *     queue;
 *   - while a first is under way (a first listing, context or build; a
 *     platform's first kernels, until a wait sees them run) the compiler
 *     registers handlers after the library's, which an exit meanwhile runs
 *     first: waiting for the first would let it go on with its compiler
 *     torn down, so the exit handler marks the process as ending and
 *     returns. An exit() on a thread that never launched, during a first
 *     on another thread, is the end the library cannot make safe;
 *   - once the exit handler has run (amp__end_begun), a launch that would
 *     build a kernel (kernel/kcache.c), run one at work sizes it has not
 *     run at (PoCL generates code again for those: kernel/bind.c), make a
 *     context or list the platforms is refused with
 *     AMP_ERROR_INVALID_OPERATION (amp__end_refused): an exit handler
 *     registered before the library's first call runs after the
 *     compiler's.
 *
 * Under AMP_CHECK nothing waits from a destructor or an exit handler:
 * Oclgrind keeps thread-local state that glibc may have destroyed by then,
 * and every checked kernel was waited for by its launch. In a child of
 * fork() nothing waits either (the parent's OpenCL is not there).
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_DEVICE_ENDING_H
#define AMP_DEVICE_ENDING_H

#include "amp/status.h"
#include "core/clapi.h"

/* What may make the OpenCL implementation register exit handlers of its
 * own, the first time it happens on a platform (and a build, any time). */
typedef enum end_event {
    END_LISTED,  /* the platforms listed (the implementations loaded) */
    END_CONTEXT, /* a context made */
    END_BUILT,   /* a program built */
    END_RAN,     /* kernels run (their code generated): amp__end_ran */
} end_event;

/* what is about to happen on platform (NULL for END_LISTED). Nonzero when
 * it is the first of its kind there: until amp__end_done, an exit does not
 * wait for it. */
int amp__end_begin(end_event what, cl_platform_id platform);

/* what happened (or was tried) on platform; first is amp__end_begin's
 * answer. Registers the library's exit handler again, after whatever the
 * implementation registered meanwhile: after a first, and after every
 * build. */
void amp__end_done(end_event what, cl_platform_id platform, int first);

/* A wait saw kernels queued on platform run: the implementation generated
 * their code, and the first time, may have registered exit handlers as it
 * did; the library's is registered again after them. */
void amp__end_ran(cl_platform_id platform);

/* Nonzero once the library's exit handler has run: the process has begun
 * to exit. */
int amp__end_begun(void);

/* AMP_ERROR_INVALID_OPERATION for work refused because the process has
 * begun to exit: what (e.g. "The kernel at f.c:12 is not built for X"),
 * and why it would need the implementation's compiler now, with what to
 * do. */
amp_status amp__end_refused(const char *what, const char *why);

/* A queue made on platform, and one about to be released: the queues the
 * end of the process waits for. AMP_ERROR_OUT_OF_MEMORY when it cannot be
 * kept. */
amp_status amp__end_queue_made(cl_command_queue queue, cl_platform_id platform);
void amp__end_queue_freed(cl_command_queue queue);

/* A kernel is about to be queued on queue, of platform, by this thread:
 * the thread's end waits for it (the first launch of a thread registers
 * that wait). */
void amp__end_launching(cl_command_queue queue, cl_platform_id platform);

#endif
