/*
 * runtime/core/strbuf.c - a growable string.
 */
#include "core/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/limits.h"

static int sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->failed)
        return 0;
    size_t need = sb->length + extra + 1;
    if (need <= sb->capacity)
        return 1;
    size_t cap = sb->capacity ? sb->capacity : 256;
    while (cap < need)
        cap *= 2;
    char *grown = realloc(sb->data, cap);
    if (!grown) {
        sb->failed = 1;
        return 0;
    }
    sb->data = grown;
    sb->capacity = cap;
    return 1;
}

void amp__sb_append_n(strbuf *sb, const char *text, size_t n)
{
    if (!sb_reserve(sb, n))
        return;
    memcpy(sb->data + sb->length, text, n);
    sb->length += n;
    sb->data[sb->length] = '\0';
}

void amp__sb_append(strbuf *sb, const char *text)
{
    amp__sb_append_n(sb, text, strlen(text));
}

void amp__sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0 || !sb_reserve(sb, (size_t)need))
        return;
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->length, (size_t)need + 1, fmt, ap);
    va_end(ap);
    sb->length += (size_t)need;
}

void amp__sb_indent(strbuf *sb, int n)
{
    if (n <= 0 || !sb_reserve(sb, (size_t)n))
        return;
    memset(sb->data + sb->length, ' ', (size_t)n);
    sb->length += (size_t)n;
    sb->data[sb->length] = '\0';
}

int amp__sb_failed(const strbuf *sb)
{
    return sb->failed;
}

char *amp__sb_take(strbuf *sb)
{
    char *out = NULL;
    if (!sb->failed) {
        out = sb->data ? sb->data : calloc(1, 1);
        sb->data = NULL;
    }
    amp__sb_free(sb);
    return out;
}

void amp__sb_free(strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->length = sb->capacity = 0;
    sb->failed = 0;
}

int amp__sb_open_file(const char *path, struct stat *st)
{
    /* Without blocking: opening a FIFO for reading otherwise waits for a
     * writer. Reads of a regular file do not block either way. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

int amp__sb_read_fd(strbuf *sb, int fd, size_t max)
{
    char chunk[4096];
    size_t total = 0;
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno ? errno : EIO;
        if (n == 0)
            break;
        total += (size_t)n;
        /* A file that grew past its size since it was looked at. */
        if (total > max)
            return EFBIG;
        amp__sb_append_n(sb, chunk, (size_t)n);
    }
    return sb->failed ? ENOMEM : 0;
}

int amp__sb_read_file(strbuf *sb, const char *path)
{
    struct stat st;
    int fd = amp__sb_open_file(path, &st);
    if (fd < 0)
        return errno ? errno : EIO;
    int err = !S_ISREG(st.st_mode) ? (S_ISDIR(st.st_mode) ? EISDIR : EINVAL)
              : (uint64_t)st.st_size > LIMIT_SOURCE_FILE_BYTES
                  ? EFBIG
                  : amp__sb_read_fd(sb, fd, LIMIT_SOURCE_FILE_BYTES);
    close(fd);
    return err;
}
