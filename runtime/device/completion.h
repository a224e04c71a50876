/*
 * runtime/device/completion.h - handles to wait on (amp/completion.h): a public
 * call run on another thread, or an OpenCL event (a marker).
 */
#ifndef AMP_DEVICE_COMPLETION_H
#define AMP_DEVICE_COMPLETION_H

#include "amp/completion.h"
#include "core/clapi.h"

/* Start fn(arg) on a new thread and store its handle in *out. fn is
 * called with the runtime lock held, taken in its turn (core/lock.h:
 * before any call made after this one), and returns without it. The arg
 * (malloc'ed) is freed when fn returns, and fn lets go of what arg holds.
 * Returns AMP_ERROR_OUT_OF_MEMORY or AMP_ERROR_RUNTIME when the thread
 * cannot start: then drop(arg) lets go of what it holds, here, and arg is
 * freed. Expects the runtime lock. */
amp_status amp__completion_start(amp_status (*fn)(void *arg), void (*drop)(void *arg), void *arg,
                                 amp_completion **out);

/* A handle that completes with ev (owned from now on; released with the
 * handle). what says what a wait is for, in messages ("Waiting for a
 * marker on ..."). Returns AMP_ERROR_OUT_OF_MEMORY (ev released). */
amp_status amp__completion_from_event(cl_event ev, const char *what, amp_completion **out);

#endif
