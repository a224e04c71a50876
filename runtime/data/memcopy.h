/*
 * runtime/data/memcopy.h - host copies of many bytes, on several threads.
 *
 * One thread of a server core copies about 10 GB/s; a transfer that goes
 * through host memory twice (into a staging buffer, or into a mapped device
 * buffer) is as fast as that copy. Large copies are split between the
 * calling thread and a few workers, started on first use and ended by
 * amp__mcp_shutdown().
 */
#ifndef AMP_DATA_MEMCOPY_H
#define AMP_DATA_MEMCOPY_H

#include <stdint.h>

/* rows[0] x rows[1] rows of width bytes: row (s, r) starts at
 * base + s * pitch[0] + r * pitch[1], on each side. */
typedef struct mcp_rows {
    char *dst;
    const char *src;
    int64_t rows[2];
    int64_t dst_pitch[2];
    int64_t src_pitch[2];
    int64_t width;
} mcp_rows;

/* Copy the rows, on up to amp__mcp_threads() threads when there are enough
 * bytes to be worth it. Never fails: without workers, the caller copies
 * alone. The source and destination must not overlap. */
void amp__mcp_copy(const mcp_rows *job);

/* How many threads a large copy uses (the caller included). */
int amp__mcp_threads(void);

/* End the workers (amp_shutdown). The next large copy starts them again. */
void amp__mcp_shutdown(void);

#endif
