/*
 * runtime/api/timeline.h - the api layer's part of the timeline
 * (core/timeline.h): a launch recorded with its kernel, and the writes
 * that first read every device time (device/devtime.h).
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_API_TIMELINE_H
#define AMP_API_TIMELINE_H

#include "api/call.h"

/* Run launch(c) as a recorded call: its views named, its kernel recorded
 * with the kernel's event, its call with the status launch returned. */
amp_status amp__timeline_launch(call *c, launch_fn launch);

/* Write the timeline's file, if it has one, once every kernel queued so far
 * has its device times. */
amp_status amp__timeline_write(void);

#endif
