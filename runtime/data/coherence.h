/*
 * runtime/data/coherence.h - data sources and the copies of their data.
 *
 * A data source is the memory that views look into: the caller's host
 * memory (one record per host pointer, shared by every view of it), an
 * amp_array's device memory, or the storage of an extent-only view. Its data
 * may have a copy in host memory and one on each device that used it.
 *
 * For each copy the record keeps the bytes in which that copy is stale (a
 * set of ranges, ranges.h), and for the source the bytes no copy holds
 * data for (never written, or discarded). Every request names the box of
 * bytes a view covers, so only the stale bytes of that box move: a section
 * synchronizes its own rows, not the whole buffer. Nothing else in the
 * runtime moves data, and every transfer is counted in the ledger.
 *
 * All functions expect the runtime lock to be held.
 */
#ifndef AMP_DATA_COHERENCE_H
#define AMP_DATA_COHERENCE_H

#include <stddef.h>

#include "device/queue.h"
#include "amp/transfer.h"
#include "core/changes.h"
#include "core/ranges.h"

/* Device buffers have this many spare bytes past the data: threads past the
 * extent of a padded domain are sent there (codegen.c), whatever the
 * element type. They are never copied. Under AMP_CHECK an access
 * outside a view is sent past them, out of the buffer, where the simulator
 * reports it. */
#define COH_SPARE_BYTES 64

typedef struct coh_copy coh_copy;
typedef struct coh_source coh_source;

/* Find the record of host memory [host, host + bytes), or make one. The
 * record counts one more reference. A record of the same pointer with fewer
 * bytes is refused (AMP_ERROR_INVALID_ARGUMENT). */
amp_status amp__coh_source_acquire(void *host, size_t bytes, coh_source **out);

/* A record with no host memory of the caller's: an extent-only view's
 * (home NULL: storage is made where it is first used) or an array's (home:
 * the accelerator view it lives on; its device memory is allocated now).
 * The data is undefined until written. One reference. */
amp_status amp__coh_source_create(size_t bytes, amp_accelerator_view *home, const char *label,
                                  coh_source **out);

/* A record over host memory for one copy (amp_copy's host ends): not
 * shared, not written back, the memory not freed. One reference. */
amp_status amp__coh_source_wrap(void *host, size_t bytes, coh_source **out);

/* One more reference. */
void amp__coh_source_retain(coh_source *src);

/* One reference fewer. The last one copies stale bytes back to the caller's
 * host memory (never to a runtime-owned one), then frees the record and its
 * copies. The record is freed even when the copy fails; the status says so. */
amp_status amp__coh_source_release(coh_source *src);

/* Whether src's next release is its last (the timeline's "view
 * released"). */
int amp__coh_source_last_ref(const coh_source *src);

/* While the timeline records: where src's current copy is now, as shares
 * of its bytes current on the host and on a device (core/timeline.h's
 * amp__tl_where). Every change of this file's shows itself; a new view
 * shows its data's with this. */
void amp__coh_show_where(const coh_source *src);

/* Who still uses some of the host memory [lo, lo + bytes), which must stay
 * allocated: COH_HOST_VIEW, a view's record; COH_HOST_COPY, a record that
 * wraps it for a copy (an asynchronous one still to run); else 0. */
enum { COH_HOST_VIEW = 1, COH_HOST_COPY };
int amp__coh_host_in_use(const void *lo, size_t bytes);

/* The caller's memory the record stands for, or NULL. */
void *amp__coh_source_user_host(const coh_source *src);

/* The record's size in bytes. */
size_t amp__coh_source_bytes(const coh_source *src);

/* The accelerator an array's data lives on, or NULL for other sources. */
amp_accelerator *amp__coh_source_home(const coh_source *src);

/* Make the box current on av's device, uploading its stale bytes, and store
 * the device buffer in *mem. label names the view in traces and messages.
 * Also makes room for amp__coh_device_written of the same box. */
amp_status amp__coh_device_ready(coh_source *src, amp_accelerator_view *av, const rg_box *box,
                                 const char *label, cl_mem *mem);

/* A kernel on av wrote the box: every other copy of it is stale now.
 * After amp__coh_device_ready of the same box it cannot run out of memory
 * (that call made room); otherwise it may return AMP_ERROR_OUT_OF_MEMORY,
 * and the records may then miss the kernel's writes. */
amp_status amp__coh_device_written(coh_source *src, amp_accelerator_view *av, const rg_box *box);

/* Make the box current in host memory, downloading its stale bytes (and
 * allocating the record's own host memory if it has none), and store the
 * start of that host memory in *host. */
amp_status amp__coh_host_ready(coh_source *src, const rg_box *box, amp_transfer_reason reason,
                               void **host);

/* The host may write the box: every device copy of it is stale now. */
amp_status amp__coh_host_written(coh_source *src, const rg_box *box);

/* The box's data is not needed: no copy of it moves until it is written. */
amp_status amp__coh_discard(coh_source *src, const rg_box *box);

/* Copy the box sbox of src to the box dbox of dst (same rows and width),
 * from wherever src's data is current to where dst's data lives (an array's
 * device, else host memory), and mark dst written there. Counted in the
 * ledger as reason "copy". */
amp_status amp__coh_copy_box(coh_source *src, const rg_box *sbox, coh_source *dst,
                             const rg_box *dbox);

/* The order of the uses of one piece of device memory (a data copy's
 * buffer, a texture's image) across the views of its accelerator. Each use
 * is queued after every use before it, on whichever view it was: so a
 * write comes after every earlier read and write, and a read after every
 * earlier write. Where the last use was on another view, that view's queue
 * gets a marker and av's a barrier that waits for it: the device keeps the
 * order, and the host does not wait. The record holds its last view's
 * queue (amp__queue_use) until amp__coh_order_end. */
typedef struct coh_order {
    amp_accelerator_view *last_view; /* the view that used the memory last */
    int idle;                        /* no command has used it yet: nothing to wait for */
} coh_order;

/* Memory made on av, not used yet. */
void amp__coh_order_begin(coh_order *o, amp_accelerator_view *av);

/* Work that reads or writes the memory is about to be queued on av (a view
 * of the memory's accelerator): order it after every use before, and make
 * av the last view. The caller queues the work on av next. */
amp_status amp__coh_order_use(coh_order *o, amp_accelerator_view *av);

/* The memory is released (commands queued keep it until they finish): the
 * record no longer holds its last view's queue. */
void amp__coh_order_end(coh_order *o);

/* A number that changes whenever any record's state may have changed: the
 * data layer's count of change (core/changes.h). A function of
 * coherence.c reaches a record only through the helpers that count, or
 * read only, and an order only through another that counts in the same
 * place, so none can change one without counting. While it is unchanged,
 * a box made current on a device and marked written there is still so
 * (the launch record, api/record.c). */
static inline uint64_t amp__coh_epoch(void)
{
    return amp__changes_of(CHANGES_DATA);
}

/* The count above when src's record last changed: its data, its copies,
 * the order of its copies' uses, or where the timeline shows them. Making
 * a box ready on a device where it already is, or marking it written where
 * it already was, is no change. While it is unchanged, so is everything
 * the record holds: a box made current on a device and marked written
 * there is still so, though other records changed (the launch record of
 * two kernels launched in turns). A record made later has a larger one
 * than any record had before. Textures' images are not records, and have
 * no version. */
uint64_t amp__coh_version(const coh_source *src);

/* The transfers of this record's data (amp_array_view_get_transfers). */
void amp__coh_source_stats(const coh_source *src, amp_transfer_stats *out);

/* Copy every stale byte back to the caller's memory and free every device
 * copy (shutdown). Arrays keep nothing: their data is lost with the device.
 * Returns AMP_OK when every caller's memory is current, else the first
 * copy that failed (the device copies are freed all the same). */
amp_status amp__coh_drop_all_device_copies(void);

#endif
