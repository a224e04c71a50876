/*
 * runtime/core/error.h - setting the thread's last error, and mapping OpenCL
 * errors to statuses.
 */
#ifndef AMP_CORE_ERROR_H
#define AMP_CORE_ERROR_H

#include "amp/status.h"
#include "core/clapi.h"

/* Record a message for this thread and return status, so that a failing
 * path reads `return amp__err_set(AMP_ERROR_..., "what went wrong: %d", x);`. */
amp_status amp__err_set(amp_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The same for a failure of the parallel_for_each at file:line: the message
 * starts "parallel_for_each at FILE:LINE: ", so that every launch failure
 * names its call site in one form. */
amp_status amp__err_launch(amp_status status, const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* While defer is nonzero (this thread holds the runtime lock), failures
 * wait; when it becomes 0, the last one is reported to the error callback
 * (lock.c calls it as it takes and releases the lock: the callback may call
 * the library). */
void amp__err_defer_reports(int defer);

/* While hold is nonzero, this thread's failures are not reported to the
 * error callback: an asynchronous operation's thread, whose failure the
 * waiting thread reports (completion.c). */
void amp__err_hold_callbacks(int hold);

/* The status that an OpenCL error code stands for. */
amp_status amp__err_status_of_cl(cl_int code);

/* The name of an OpenCL error code, such as "CL_OUT_OF_RESOURCES". */
const char *amp__err_cl_name(cl_int code);

/* Record a failed OpenCL call: "<what>: <call> failed with <CL_NAME> (<code>)"
 * plus a hint for the usual causes, and return its status. */
amp_status amp__err_cl(cl_int code, const char *call, const char *what);

#endif
