/*
 * amp/timeline.h - a timeline of the run: every public call that launches,
 * waits or moves data, every kernel, upload and download on each
 * accelerator view's queue (timed on the device), where each view's data
 * is after each step, and AMP_CHECK's findings, as Chrome trace-event JSON
 * that Perfetto UI, chrome://tracing and amp-draw open (docs/timeline.md
 * is the file's contract).
 *
 * With AMP_TIMELINE=FILE.json in the environment the timeline records
 * from the program's first call, and FILE.json is written when the program
 * calls amp_shutdown() or ends (a file that cannot be written is said once
 * on stderr; amp_shutdown's status stays that of the program's work).
 * These functions do the same on demand, for a long-running program. Each
 * write replaces the whole file (written
 * beside it, then renamed): the file on disk is always complete. At most
 * AMP_TIMELINE_MAX_EVENTS events are kept (default 1000000); past that
 * the timeline keeps what it has and counts what it drops.
 *
 * Device times come from OpenCL profiling events, which a queue gives only
 * when it was made with profiling on: queues made while a timeline is (or
 * was) on, or under AMP_PROFILE, have it. The work of a queue made before
 * the timeline's first start, without AMP_PROFILE, is shown where it was
 * queued, with no duration. To time a window of a long run on the device,
 * set AMP_TIMELINE and call amp_timeline_stop() first thing, then
 * amp_timeline_start(NULL) where the window begins.
 *
 * The timeline never changes what a program computes: a write waits for
 * the kernels queued so far, to read their device times, and nothing else.
 * A process forked from the one that started the timeline writes none.
 */
#ifndef AMP_TIMELINE_H
#define AMP_TIMELINE_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Record the timeline from now on, to be written to path (copied; NULL
 * keeps the file it had: AMP_TIMELINE's, or the last start's). Starting it
 * again while it records changes only its file. The path is tried when the
 * file is written (amp_timeline_stop, amp_timeline_flush). Returns
 * AMP_ERROR_INVALID_ARGUMENT when path is empty, or NULL while the
 * timeline has no file yet; AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp_timeline_start(const char *path);

/*
 * Stop recording, and write the file as it stands (what was recorded is
 * kept: a later start goes on in the same file). Returns AMP_OK when the
 * timeline is off already; AMP_ERROR_RUNTIME, with the reason, when the
 * file cannot be written.
 */
amp_status amp_timeline_stop(void);

/*
 * Write the file now, recording or not, after waiting for the kernels
 * queued so far. Returns AMP_ERROR_INVALID_OPERATION when no timeline was
 * started in this process (the message says how to start one);
 * AMP_ERROR_RUNTIME, with the reason, when the file cannot be written.
 */
amp_status amp_timeline_flush(void);

/* 1 while the timeline records, else 0. */
int amp_timeline_is_enabled(void);

#ifdef __cplusplus
}
#endif

#endif
