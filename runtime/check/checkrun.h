/*
 * runtime/check/checkrun.h - AMP_CHECK after a kernel ran: wait for it, take the
 * checker's reports (oclcheck.c) and say each one at the user's own file
 * and line, as a compiler would.
 */
#ifndef AMP_CHECK_CHECKRUN_H
#define AMP_CHECK_CHECKRUN_H

#include "amp/kernel.h"
#include "kernel/kcache.h"

/*
 * Wait for the kernel e (generated from src, queued on queue) to finish and
 * read what Oclgrind found while it ran. Each distinct problem (a data race,
 * a barrier not every thread reached, an access out of bounds, an OpenCL
 * API error) is printed on stderr once, at the user's line with a caret,
 * with how many times it happened; an access outside a view's extent names
 * the view (an "array" where the capture items, nitems of them, captured an
 * array), its extent, and the index and thread of the first such access
 * there. Returns AMP_OK when there were none,
 * AMP_ERROR_KERNEL_CHECK with the same text as the message when there
 * were, or the status of a failed clFinish or unreadable log. While the
 * timeline records, each problem shown is a finding on it (finding.h;
 * tiled: the launch has tiles). Expects the runtime lock to be held and
 * AMP_CHECK to be installed.
 */
amp_status amp__chk_after_run(cl_command_queue queue, const kc_entry *e,
                              const amp_kernel_source *src, int tiled, const amp_capture *items,
                              int nitems);

/*
 * Before a checked kernel e is queued on queue (of context): give it, as
 * argument arg (the one after all the others), a zeroed record where its
 * accessors describe each access outside a view's extent (codegen.h), which
 * amp__chk_after_run() reads to name the view, the index and the thread. Does
 * nothing for a kernel without views. Returns AMP_OK, or the status of the
 * failed OpenCL call. Expects the runtime lock to be held.
 */
amp_status amp__chk_before_run(cl_context context, cl_command_queue queue, kc_entry *e,
                               cl_uint arg);

/* Release the record (at amp_shutdown, before the contexts go). */
void amp__chk_shutdown(void);

#endif
