/*
 * amp/completion.h - the handle of an operation that runs on while the
 * caller goes on (C++ AMP's completion_future): asynchronous copies and
 * synchronizations, which run on a thread of their own, and markers
 * (amp_accelerator_view_create_marker), which complete when their queue
 * reaches them on the device.
 */
#ifndef AMP_COMPLETION_H
#define AMP_COMPLETION_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_completion amp_completion;

/*
 * Wait until the operation has finished, and return its status (what the
 * synchronous call would have returned; its message is then this thread's
 * amp_last_error()). For a marker: AMP_OK once its queue reached it, or
 * AMP_ERROR_ACCELERATOR_VIEW_REMOVED when a command before it failed. May
 * be called more than once, from any number of threads. Returns
 * AMP_ERROR_INVALID_ARGUMENT for NULL, a completion already released, or a
 * pointer that is no completion (never read).
 */
amp_status amp_completion_wait(amp_completion *c);

/*
 * Store in *done 1 when the operation has finished (amp_completion_wait
 * would not block), else 0. Returns AMP_ERROR_INVALID_ARGUMENT, with *done
 * untouched, for NULL arguments, a completion already released, or a
 * pointer that is no completion.
 */
amp_status amp_completion_is_done(amp_completion *c, int *done);

/*
 * Wait for the operation, then free the handle. NULL is a no-op. Returns
 * the operation's status, as amp_completion_wait(), or
 * AMP_ERROR_INVALID_ARGUMENT for a completion already released (a second
 * release) or a pointer that is no completion. The handle is released at
 * once: later calls with it are refused; waits already in progress on
 * other threads finish first, and the last of them frees it.
 */
amp_status amp_completion_release(amp_completion *c);

#ifdef __cplusplus
}
#endif

#endif
