/*
 * runtime/checkrun.h - AMP_CHECK after a kernel ran: wait for it, take the
 * checker's reports (oclcheck.c) and say each one at the user's own file
 * and line, as a compiler would.
 */
#ifndef RT_CHECKRUN_H
#define RT_CHECKRUN_H

#include "amp/kernel.h"
#include "kcache.h"

/*
 * Wait for the kernel e (generated from src, queued on queue) to finish and
 * read what Oclgrind found while it ran. Each distinct problem (a data race,
 * a barrier not every thread reached, an access out of bounds, an OpenCL
 * API error) is printed on stderr once, at the user's line with a caret,
 * with how many times it happened. Returns AMP_OK when there were none,
 * AMP_ERROR_KERNEL_CHECK with the same text as the message when there
 * were, or the status of a failed clFinish or unreadable log. Expects the
 * runtime lock to be held and AMP_CHECK to be installed.
 */
amp_status chk_after_run(cl_command_queue queue, const kc_entry *e, const amp_kernel_source *src);

#endif
