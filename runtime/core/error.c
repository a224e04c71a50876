/*
 * runtime/core/error.c - status names, the thread-local last-error message, and
 * OpenCL error mapping.
 */
#include "core/error.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Each thread keeps its own message, so that one thread's failure does not
 * overwrite the message another thread is about to read. The buffer grows to
 * fit a build log and is reused. */
static _Thread_local char *err_message;
static _Thread_local size_t err_capacity;

/* The buffer is also kept under a thread-specific key, whose destructor
 * frees it when the thread exits (a _Thread_local pointer alone would leak
 * it: threads that call the library, and completion.c's, come and go). */
static pthread_key_t err_key;
static pthread_once_t err_key_once = PTHREAD_ONCE_INIT;

static void err_free_buffer(void *buffer)
{
    free(buffer);
}

static void err_make_key(void)
{
    (void)pthread_key_create(&err_key, err_free_buffer);
}

/* The error callback (amp_set_error_callback), read and set under its own
 * lock so that a thread never sees one function with another's data. */
static pthread_mutex_t callback_mutex = PTHREAD_MUTEX_INITIALIZER;
static amp_error_callback callback_fn;
static void *callback_data;
/* A failure recorded under the runtime lock, reported at the unlock; a
 * callback running (its own failures are not reported again); failures
 * held back (completion.c's threads). */
static _Thread_local int pending;
static _Thread_local amp_status pending_status;
static _Thread_local int in_callback;
static _Thread_local int held;
/* Set while this thread holds the runtime lock (lock.c). */
static _Thread_local int deferring;

void amp_set_error_callback(amp_error_callback fn, void *user_data)
{
    pthread_mutex_lock(&callback_mutex);
    callback_fn = fn;
    callback_data = user_data;
    pthread_mutex_unlock(&callback_mutex);
}

static void report(amp_status status)
{
    pthread_mutex_lock(&callback_mutex);
    amp_error_callback fn = callback_fn;
    void *data = callback_data;
    pthread_mutex_unlock(&callback_mutex);
    if (!fn || in_callback)
        return;
    in_callback = 1;
    fn(status, amp_last_error(), data);
    in_callback = 0;
}

/* A call failed with status: report it now, or at the runtime's unlock
 * when this thread holds the lock (the callback may call the library).
 * Several failures within one locked call report once, the last. */
static void note_failure(amp_status status)
{
    if (held || status == AMP_OK)
        return;
    if (deferring) {
        pending = 1;
        pending_status = status;
        return;
    }
    report(status);
}

void amp__err_defer_reports(int defer)
{
    deferring = defer;
    if (defer || !pending)
        return;
    pending = 0;
    report(pending_status);
}

void amp__err_hold_callbacks(int hold)
{
    held = hold;
}

const char *amp_status_name(amp_status status)
{
    switch (status) {
    case AMP_OK: return "AMP_OK";
    case AMP_ERROR_INVALID_ARGUMENT: return "AMP_ERROR_INVALID_ARGUMENT";
    case AMP_ERROR_INVALID_COMPUTE_DOMAIN: return "AMP_ERROR_INVALID_COMPUTE_DOMAIN";
    case AMP_ERROR_OUT_OF_MEMORY: return "AMP_ERROR_OUT_OF_MEMORY";
    case AMP_ERROR_UNSUPPORTED_FEATURE: return "AMP_ERROR_UNSUPPORTED_FEATURE";
    case AMP_ERROR_RUNTIME: return "AMP_ERROR_RUNTIME";
    case AMP_ERROR_ACCELERATOR_VIEW_REMOVED: return "AMP_ERROR_ACCELERATOR_VIEW_REMOVED";
    case AMP_ERROR_KERNEL_BUILD: return "AMP_ERROR_KERNEL_BUILD";
    case AMP_ERROR_NO_DEVICE: return "AMP_ERROR_NO_DEVICE";
    case AMP_ERROR_DEVICE_LIMIT: return "AMP_ERROR_DEVICE_LIMIT";
    case AMP_ERROR_INVALID_OPERATION: return "AMP_ERROR_INVALID_OPERATION";
    case AMP_ERROR_KERNEL_CHECK: return "AMP_ERROR_KERNEL_CHECK";
    }
    return "AMP_STATUS_UNKNOWN";
}

const char *amp_last_error(void)
{
    return err_message ? err_message : "";
}

void amp_clear_error(void)
{
    if (err_message)
        err_message[0] = '\0';
}

#define LAUNCH_PREFIX "parallel_for_each at %s:%d: "

/* The message: fmt with ap, after the launch's prefix when file is set
 * (amp__err_launch). */
static amp_status set_message(amp_status status, const char *file, int line, const char *fmt,
                              va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int head = file ? snprintf(NULL, 0, LAUNCH_PREFIX, file, line) : 0;
    int body = vsnprintf(NULL, 0, fmt, ap);
    if (head < 0 || body < 0) {
        va_end(again);
        note_failure(status);
        return status;
    }
    size_t need = (size_t)head + (size_t)body + 1;
    if (need > err_capacity) {
        char *grown = realloc(err_message, need);
        if (!grown) {
            /* Keep the old message rather than lose the status. */
            va_end(again);
            note_failure(status);
            return status;
        }
        err_message = grown;
        err_capacity = need;
        pthread_once(&err_key_once, err_make_key);
        (void)pthread_setspecific(err_key, grown);
    }
    if (file)
        snprintf(err_message, err_capacity, LAUNCH_PREFIX, file, line);
    vsnprintf(err_message + head, err_capacity - (size_t)head, fmt, again);
    va_end(again);
    note_failure(status);
    return status;
}

amp_status amp__err_set(amp_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    amp_status st = set_message(status, NULL, 0, fmt, ap);
    va_end(ap);
    return st;
}

amp_status amp__err_launch(amp_status status, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    amp_status st = set_message(status, file, line, fmt, ap);
    va_end(ap);
    return st;
}

amp_status amp__err_status_of_cl(cl_int code)
{
    switch (code) {
    case CL_SUCCESS: return AMP_OK;
    case CLAPI_FORKED: return AMP_ERROR_INVALID_OPERATION;
    case CL_OUT_OF_HOST_MEMORY:
    case CL_OUT_OF_RESOURCES:
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_INVALID_BUFFER_SIZE: return AMP_ERROR_OUT_OF_MEMORY;
    case CL_DEVICE_NOT_AVAILABLE:
    case CL_DEVICE_NOT_FOUND:
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return AMP_ERROR_ACCELERATOR_VIEW_REMOVED;
    case CL_BUILD_PROGRAM_FAILURE:
    case CL_COMPILER_NOT_AVAILABLE:
    case CL_INVALID_BUILD_OPTIONS: return AMP_ERROR_KERNEL_BUILD;
    case CL_INVALID_WORK_GROUP_SIZE:
    case CL_INVALID_WORK_ITEM_SIZE:
    case CL_INVALID_GLOBAL_WORK_SIZE: return AMP_ERROR_INVALID_COMPUTE_DOMAIN;
    case CL_INVALID_ARG_SIZE: return AMP_ERROR_DEVICE_LIMIT;
    case CL_PLATFORM_NOT_FOUND_KHR: return AMP_ERROR_NO_DEVICE;
    default: return AMP_ERROR_RUNTIME;
    }
}

const char *amp__err_cl_name(cl_int code)
{
    switch (code) {
#define CASE(c)                                                                                    \
    case c: return #c
        CASE(CL_SUCCESS);
        CASE(CL_DEVICE_NOT_FOUND);
        CASE(CL_DEVICE_NOT_AVAILABLE);
        CASE(CL_COMPILER_NOT_AVAILABLE);
        CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE);
        CASE(CL_OUT_OF_RESOURCES);
        CASE(CL_OUT_OF_HOST_MEMORY);
        CASE(CL_PROFILING_INFO_NOT_AVAILABLE);
        CASE(CL_MEM_COPY_OVERLAP);
        CASE(CL_IMAGE_FORMAT_MISMATCH);
        CASE(CL_IMAGE_FORMAT_NOT_SUPPORTED);
        CASE(CL_BUILD_PROGRAM_FAILURE);
        CASE(CL_MAP_FAILURE);
        CASE(CL_MISALIGNED_SUB_BUFFER_OFFSET);
        CASE(CL_DEVICE_PARTITION_FAILED);
        CASE(CL_INVALID_DEVICE_PARTITION_COUNT);
        CASE(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
        CASE(CL_INVALID_VALUE);
        CASE(CL_INVALID_DEVICE_TYPE);
        CASE(CL_INVALID_PLATFORM);
        CASE(CL_INVALID_DEVICE);
        CASE(CL_INVALID_CONTEXT);
        CASE(CL_INVALID_QUEUE_PROPERTIES);
        CASE(CL_INVALID_COMMAND_QUEUE);
        CASE(CL_INVALID_HOST_PTR);
        CASE(CL_INVALID_MEM_OBJECT);
        CASE(CL_INVALID_BINARY);
        CASE(CL_INVALID_BUILD_OPTIONS);
        CASE(CL_INVALID_PROGRAM);
        CASE(CL_INVALID_PROGRAM_EXECUTABLE);
        CASE(CL_INVALID_KERNEL_NAME);
        CASE(CL_INVALID_KERNEL_DEFINITION);
        CASE(CL_INVALID_KERNEL);
        CASE(CL_INVALID_ARG_INDEX);
        CASE(CL_INVALID_ARG_VALUE);
        CASE(CL_INVALID_ARG_SIZE);
        CASE(CL_INVALID_KERNEL_ARGS);
        CASE(CL_INVALID_WORK_DIMENSION);
        CASE(CL_INVALID_WORK_GROUP_SIZE);
        CASE(CL_INVALID_WORK_ITEM_SIZE);
        CASE(CL_INVALID_GLOBAL_OFFSET);
        CASE(CL_INVALID_EVENT_WAIT_LIST);
        CASE(CL_INVALID_EVENT);
        CASE(CL_INVALID_OPERATION);
        CASE(CL_INVALID_BUFFER_SIZE);
        CASE(CL_INVALID_GLOBAL_WORK_SIZE);
        CASE(CL_PLATFORM_NOT_FOUND_KHR);
#undef CASE
    }
    return "an unknown OpenCL error";
}

amp_status amp__err_cl(cl_int code, const char *call, const char *what)
{
    if (code == CLAPI_FORKED)
        return amp__err_set(AMP_ERROR_INVALID_OPERATION,
                            "%s: %s cannot run in this process: it was forked after the library had"
                            " started OpenCL, and OpenCL does not survive fork() (the child has"
                            " none of its threads). Use the library in the parent only; or fork"
                            " before the library's first call (or exec) and use it in the child,"
                            " which then starts OpenCL for itself.",
                            what, call);
    amp_status status = amp__err_status_of_cl(code);
    const char *hint = "";
    switch (status) {
    case AMP_ERROR_OUT_OF_MEMORY:
        hint = " The device ran out of memory: use smaller views, or release views you no"
               " longer need.";
        break;
    case AMP_ERROR_ACCELERATOR_VIEW_REMOVED:
        hint = " The device is no longer usable (it was lost, or a kernel aborted); choose"
               " another accelerator or restart the program.";
        break;
    default: break;
    }
    return amp__err_set(status, "%s: %s failed with %s (%d).%s", what, call, amp__err_cl_name(code),
                        (int)code, hint);
}
