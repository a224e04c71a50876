/*
 * runtime/core/strbuf.h - a growable string, for building kernel source and
 * messages. An allocation failure is remembered and reported once, by
 * amp__sb_failed(), so that builders need not check every append.
 */
#ifndef AMP_CORE_STRBUF_H
#define AMP_CORE_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

typedef struct strbuf {
    char *data; /* always NUL-terminated once anything was appended */
    size_t length;
    size_t capacity;
    int failed; /* an allocation failed; the content is incomplete */
} strbuf;

/* clang-format off */
#define STRBUF_INIT {NULL, 0, 0, 0}
/* clang-format on */

void amp__sb_append(strbuf *sb, const char *text);
void amp__sb_append_n(strbuf *sb, const char *text, size_t n);
void amp__sb_printf(strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Append the whole content of the regular file at path. Returns 0, or the
 * errno of the failure (sb then holds what was read, if anything): EISDIR
 * for a folder, EINVAL for anything else that is not a regular file (a
 * FIFO, a device: never read, so never waited on), EFBIG past
 * LIMIT_SOURCE_FILE_BYTES (core/limits.h). */
int amp__sb_read_file(strbuf *sb, const char *path);
/* Open path for reading, without blocking, and fstat it into *st. Returns
 * the descriptor, or -1 with errno set. */
int amp__sb_open_file(const char *path, struct stat *st);
/* Append what remains to be read from fd, at most max bytes. Returns 0, or
 * the errno of the failure: EFBIG when there is more. */
int amp__sb_read_fd(strbuf *sb, int fd, size_t max);
/* Append n spaces. */
void amp__sb_indent(strbuf *sb, int n);
/* Nonzero when an append could not allocate. */
int amp__sb_failed(const strbuf *sb);
/* Hand the string to the caller (who frees it), leaving sb empty. Returns
 * NULL when an allocation failed. */
char *amp__sb_take(strbuf *sb);
void amp__sb_free(strbuf *sb);

#endif
