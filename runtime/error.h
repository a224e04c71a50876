/*
 * runtime/error.h - setting the thread's last error, and mapping OpenCL
 * errors to statuses.
 */
#ifndef RT_ERROR_H
#define RT_ERROR_H

#include "amp/status.h"
#include "clapi.h"

/* Record a message for this thread and return status, so that a failing
 * path reads `return err_set(AMP_ERROR_..., "what went wrong: %d", x);`. */
amp_status err_set(amp_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Report the failure that err_set() recorded while this thread held the
 * runtime lock to the error callback (runtime.c calls it after unlocking). */
void err_report_pending(void);

/* While hold is nonzero, this thread's failures are not reported to the
 * error callback: an asynchronous operation's thread, whose failure the
 * waiting thread reports (completion.c). */
void err_hold_callbacks(int hold);

/* The status that an OpenCL error code stands for. */
amp_status err_status_of_cl(cl_int code);

/* The name of an OpenCL error code, such as "CL_OUT_OF_RESOURCES". */
const char *err_cl_name(cl_int code);

/* Record a failed OpenCL call: "<what>: <call> failed with <CL_NAME> (<code>)"
 * plus a hint for the usual causes, and return its status. */
amp_status err_cl(cl_int code, const char *call, const char *what);

#endif
