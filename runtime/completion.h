/*
 * runtime/completion.h - running a public call on another thread, with a
 * handle to wait on (amp/completion.h).
 */
#ifndef RT_COMPLETION_H
#define RT_COMPLETION_H

#include "amp/completion.h"

/* Start fn(arg) on a new thread and store its handle in *out; the arg
 * (malloc'ed) is freed when fn returns. Returns AMP_ERROR_OUT_OF_MEMORY or
 * AMP_ERROR_RUNTIME (arg freed) when the thread cannot start. */
amp_status cmp_start(amp_status (*fn)(void *arg), void *arg, amp_completion **out);

#endif
