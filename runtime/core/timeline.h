/*
 * runtime/core/timeline.h - the timeline's recorder: every public call that
 * launches, waits or moves data, every kernel and transfer, where each data
 * source's current copy is, and AMP_CHECK's findings, kept as small records
 * and written as Chrome trace-event JSON (docs/timeline.md is the file's
 * contract; amp/timeline.h the public switch).
 *
 * The layers above hand their facts down: the api layer its calls and
 * kernels, the data layer views, transfers and where data is, the device
 * layer its queues and the device's times, the check layer its findings.
 * Nothing here calls up: device times are read by device/devtime.c, which
 * hands them in (amp__tl_kernel_span, amp__tl_queue_offset), before the
 * file is written.
 *
 * Records keep numbers and pointers to what never changes (handles, whose
 * addresses are never reused, and strings copied here); the JSON text is
 * made only when the file is written, so that recording a launch costs a
 * few stores and lookups. At most max_events events are kept (the file's
 * events, metadata not counted); past that every record is dropped whole
 * and counted.
 *
 * Everything here expects the runtime lock, except amp__tl_now.
 */
#ifndef AMP_CORE_TIMELINE_H
#define AMP_CORE_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "amp/status.h"
#include "amp/transfer.h"

/* Nonzero while the timeline records: the one flag every hook tests
 * (under the lock). */
extern int amp__tl_active;

/* The host's monotonic clock, in nanoseconds (core/clock.h): the clock of
 * every record. */
int64_t amp__tl_now(void);

/* A kernel's description, shared by the launches that are alike; the
 * layers above only hold it. */
struct tl_desc;

/* A record's number when there is none. */
#define TL_NO_RECORD UINT32_MAX

/* ---- Calls ---- */

/* A public call being recorded: begun after its lock is taken, ended
 * before it is released. id is 0 when the call is not recorded (the
 * timeline was off at its start). */
typedef struct tl_call {
    uint32_t id;
    int64_t began;
    struct tl_call *outer;
    uint32_t kernel; /* the record of the first kernel it queued, or TL_NO_RECORD */
} tl_call;

/* What a call is about, for its event's args; any part may be 0/NULL. A
 * view is a handle the timeline may not have seen yet: data is its data
 * source then (read by the caller under the lock, from a live handle). */
typedef struct tl_about {
    const void *view;
    const void *data;
    const char *site_file;
    int site_line;
    const char *kernel;
    int64_t ended; /* when the call ended, read by the caller; 0: read now */
} tl_about;

/* Start recording the call on this thread: the transfers and kernels
 * recorded until it ends are its work. */
void amp__tl_call_begin(tl_call *c);

/* End the call fn (a string literal, "amp_copy") with its status. A call
 * that queued a kernel is kept in its first kernel's record, named by the
 * kernel's call site and name (one record a launch, not two); about's are
 * used otherwise. */
void amp__tl_call_end(tl_call *c, const char *fn, amp_status st, const tl_about *about);

/* Whether the call c has queued a kernel whose record will keep it (then
 * amp__tl_call_end uses only about->ended). */
static inline int amp__tl_call_in_kernel(const tl_call *c)
{
    return c->kernel != TL_NO_RECORD;
}

/* ---- Views and data ---- */

/* A view or array handle was made over the data source data: its extent
 * (rank dims), element size and kind ("view", "const view", "array"). */
void amp__tl_view_created(const void *view, const void *data, int rank, const int *dims,
                          size_t element_bytes, const char *kind);

/* A handle was released; last: its data source went with it. */
void amp__tl_view_released(const void *view, int last);

/* The view data is used through now (its transfers name it). */
void amp__tl_focus(const void *view, const void *data, const char *name);

/* Where data's current copy is now: the shares of its bytes current on
 * the host and on a device, 0 to 1. Recorded only when it changed, and
 * only for data the timeline knows. */
void amp__tl_where(const void *data, double host, double device);

/* The data source's memory is freed: its address may come back as
 * another's. */
void amp__tl_data_end(const void *data);

/* The same of a texture's data: a texture made later at its address is
 * another texture, with an id of its own. */
void amp__tl_texture_end(const void *texture);

/* ---- Queues ---- */

/* The queue a device layer key (an accelerator view) stands for: its
 * number (the tid of its track), registered on first sight with its
 * accelerator's index and name and the track's name ("view 1 (default,
 * automatic)" is made from view_kind "default, automatic"; a transfer
 * queue is "transfer queue"). 0 when the timeline keeps no more. *first is
 * set when the queue is new. */
int amp__tl_queue(const void *key, size_t acc_index, const char *acc_name, const char *view_kind,
                  int transfer, int *first);

/* The offset that places queue's device times on the host's clock: host
 * ns = device ns + offset. */
void amp__tl_queue_offset(int queue, int64_t offset);

/* The devices are gone (amp_shutdown): the queues' keys may come back as
 * other queues. Their numbers and tracks stay in the file. */
void amp__tl_forget_queues(void);

/* ---- Work on a queue ---- */

/* A captured view as a kernel uses it. */
typedef struct tl_ref {
    const void *view, *data;
    const char *name;
    int writes;
    /* A texture's ref: its handle (never another handle's) and its data,
     * whose id its transfers carry; view and data are NULL. */
    const void *texture, *texture_data;
} tl_ref;

/* A kernel launch: its domain in C++ AMP's order (the padded extent of a
 * padded domain), mode "simple", "tiled" or "padded", the tile (tile_rank
 * 0 for a simple launch), and the views and textures it reads and writes. */
typedef struct tl_kernel {
    const char *name, *file;
    int line;
    int rank;
    const int *extent, *original;
    int tile_rank;
    const int *tile;
    const char *mode;
    int nrefs;
    const tl_ref *refs;
    int checked;
} tl_kernel;

/* How a kernel is timed: on the device (its times follow through
 * amp__tl_kernel_span); on the host, its queue having no profiling; or on
 * the host because the device times were not asked for (device/devtime.h's
 * sampling). The last two are shown where they were queued, without a
 * duration. */
typedef enum { TL_DEVICE_TIMED, TL_HOST_TIMED, TL_NOT_SAMPLED } tl_timing;

/* The description of the kernel k, which describes every launch equal to
 * it in every field; NULL when none could be made (the timeline is full
 * or off, or out of memory). The timeline owns it; a caller may keep it
 * for the launches it knows to be equal. */
const struct tl_desc *amp__tl_describe(const tl_kernel *k);

/* Record the kernel a launch queued on queue at host ns queued, timed as
 * `timing` says, described by desc (NULL: dropped, as a full timeline
 * drops it); began: when its launch began (it ran no earlier). Where c is
 * the launch's call, which queued no kernel before this one and ends as
 * it is queued (queued is its end, st its status, fn its name), the call
 * is kept in the kernel's record, one record for the launch's two events,
 * and ends there: c's amp__tl_call_end then does nothing. Returns the
 * record, or TL_NO_RECORD. */
uint32_t amp__tl_launch_kernel(tl_call *c, const struct tl_desc *desc, int queue, tl_timing timing,
                               int64_t began, int64_t queued, const char *fn, amp_status st);

/* A kernel's times on its device's clock (CL_PROFILING_COMMAND_START and
 * _END); ok 0 when they could not be read (it is shown where it was
 * queued). */
void amp__tl_kernel_span(uint32_t record, uint64_t start, uint64_t end, int ok);

/* One transfer, as the ledger counts it. */
typedef struct tl_transfer {
    const void *data;    /* the data source, or NULL for a texture */
    const void *texture; /* the texture, or NULL */
    const char *label;   /* the view's capture name, or NULL */
    uint64_t bytes;
    amp_transfer_direction dir;
    amp_transfer_reason reason;
    int queue;     /* the queue that carried it, 0 when none is known */
    int view;      /* the view whose data moved: for the transfer queue, the kernel's */
    int64_t began; /* host ns, when the move began */
    int64_t ended; /* host ns, when it returned */
    int device;    /* timed on the device: start and end are its clock's */
    uint64_t start, end;
    const char *path; /* "direct", "mapped", "staged", or NULL */
} tl_transfer;

void amp__tl_transfer(const tl_transfer *t);

/* A finding of AMP_CHECK in the kernel recorded last: problem is the
 * event's name ("data race"), args the members of its args after
 * kernel_id, as JSON text (`"kernel": "k", "site": ...`). */
void amp__tl_finding(const char *problem, const char *args);

/* ---- Switching and writing ---- */

/* Whether queues made now should carry OpenCL profiling: the timeline is
 * on, or was turned on in this process. */
int amp__tl_wants_profiling(void);

/* Record from now on, into path (NULL: the file it had). A first start
 * reads AMP_TIMELINE_MAX_EVENTS. Returns AMP_ERROR_INVALID_ARGUMENT when
 * there is no file to write, AMP_ERROR_OUT_OF_MEMORY. */
amp_status amp__tl_start(const char *path);

/* Stop recording (the records stay, for the next write). */
void amp__tl_stop(void);

/* Whether the timeline has a file (it was started in this process). */
int amp__tl_has_file(void);

/* Write the file: every record whose times are known, in ts order (the
 * rest is written by a later write). Each write replaces the whole file,
 * written beside it and renamed. Returns AMP_ERROR_RUNTIME or
 * AMP_ERROR_OUT_OF_MEMORY when it cannot be written, with the reason in
 * amp__tl_write_error() (not the thread's message: a write at
 * amp_shutdown or at exit must not replace the program's). */
amp_status amp__tl_write(void);
const char *amp__tl_write_error(void);

/* amp__tl_write() where something was recorded or timed since the file was
 * last written; AMP_OK, writing nothing, where nothing was: the writes as
 * the program ends (the main thread's, at exit) follow amp_shutdown's,
 * and a large timeline is seconds of writing. */
amp_status amp__tl_write_changes(void);

/* The failure of a write that no public call returns (at amp_shutdown, as
 * the main thread ends, at exit) on stderr: once for the same reason, not
 * at each of those writes. */
void amp__tl_say_write_error(void);

/* For tests: the events kept, and those dropped past the bound. */
void amp__tl_counts(uint64_t *kept, uint64_t *dropped);

#endif
