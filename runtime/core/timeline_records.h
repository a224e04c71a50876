/*
 * runtime/core/timeline_records.h - the timeline's records as its two
 * files share them: timeline.c makes them, timeline_file.c writes them.
 * Private to the two; everything expects the runtime lock.
 */
#ifndef AMP_CORE_TIMELINE_RECORDS_H
#define AMP_CORE_TIMELINE_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include <uthash.h>

#include <amp/extent.h>

#define TL_BLOCK_SHIFT 12
#define TL_BLOCK ((uint32_t)1 << TL_BLOCK_SHIFT)

/* The counts of change of the core and kernel layers (core/changes.h) as
 * they were when something was last compared. */
typedef struct seen {
    uint64_t core, kernel;
} seen;

/* A queue: its accelerator, its track's name, the offset of its device's
 * clock (host ns = device ns + offset). Its number is its index + 1. */
typedef struct tl_queue {
    const void *key; /* NULL once forgotten */
    size_t acc;
    char *name;
    int transfer;
    int offset_known;
    int64_t offset;
} tl_queue;

/* A kernel's description: shared by every launch of the same call site,
 * shape and views. */
typedef struct tl_desc_ref {
    uint32_t view, data, name;
    int writes;
    uint32_t texture; /* a texture's id (view and data 0), or 0 */
} tl_desc_ref;

typedef struct tl_desc {
    UT_hash_handle hh;
    unsigned char *key;
    size_t keylen;
    seen compared; /* when its strings were last found at the key's addresses */
    uint32_t name, file;
    int line, rank, tile_rank, checked, nrefs;
    int64_t extent[AMP_MAX_RANK], original[AMP_MAX_RANK], tile[AMP_MAX_TILE_RANK];
    const char *mode;
    tl_desc_ref refs[];
} tl_desc;

/* A record: one call, kernel, transfer, view made or released, where, AMP_CHECK
 * finding, or mark; the file's events are made from it when written. */
enum { TL_CALL, TL_KERNEL, TL_TRANSFER, TL_CREATED, TL_RELEASED, TL_WHERE, TL_CHECK, TL_MARK };

enum {
    TLF_PENDING = 1,    /* a kernel whose device times are not read yet */
    TLF_RAW = 2,        /* ts is the device's clock: placed when written */
    TLF_DEVICE = 4,     /* timed on the device */
    TLF_LAST = 8,       /* a release that ended its data */
    TLF_UNSAMPLED = 16, /* a kernel on a profiled queue not timed on the device (sampling) */
    TLF_CALL = 32       /* a kernel that holds the call that queued it (u.kernel.call) */
};

typedef struct tl_rec {
    int64_t ts, dur;
    int64_t queued; /* kernels and transfers: when queued (host) */
    uint32_t id, call_id;
    uint8_t kind, flags;
    uint16_t tid; /* host thread, or queue */
    uint16_t call_tid;
    union {
        struct {
            const char *fn;
            int status;
            uint32_t site, kernel, view, data;
            int line;
        } call;
        struct {
            const tl_desc *desc;
            /* With TLF_CALL, the call that queued it, on thread call_tid
             * with id call_id, named by the kernel's site: a launch's two
             * events kept in one record. */
            struct {
                const char *fn;
                int64_t ts, dur;
                int status;
            } call;
        } kernel;
        struct {
            uint32_t view, data, texture, label;
            uint64_t bytes;
            uint8_t dir, reason;
            uint16_t av;
            const char *path;
        } transfer;
        struct {
            uint32_t view, data;
            uint32_t element_bytes;
            int rank;
            int32_t dims[AMP_MAX_RANK];
            const char *kind;
        } view;
        struct {
            uint32_t data;
            float host, device;
        } where;
        struct {
            uint32_t kernel; /* the kernel's record */
            const char *problem;
            char *args;
        } check;
        struct {
            const char *name;
        } mark;
    } u;
} tl_rec;

/* What the writer reads: the records in blocks of TL_BLOCK, and the tables
 * their numbers point into. */
typedef struct tl_store {
    tl_rec **blocks;
    uint32_t rec_count, next_id, data_count, view_count;
    const uint32_t *view_label; /* each view number's name, a string number */
    char **string_texts;        /* each string number's text */
    char **thread_names;        /* each host thread's track's name, from 1 */
    int thread_count;
    const tl_queue *queues;
    int queue_count;
    char **acc_names; /* by accelerator index; NULL where none was seen */
    size_t acc_capacity;
    int64_t zero; /* the host's time the timeline started */
    int64_t first_dropped_ts;
    uint64_t dropped;
    long long max_events;
    const char *file_path;
    int owner; /* the process that started the timeline */
} tl_store;

void amp__tlr_store(tl_store *out);

/* The file holds every record now. */
void amp__tlr_written(void);

#endif
