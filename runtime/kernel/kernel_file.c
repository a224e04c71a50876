/*
 * runtime/kernel/kernel_file.c - kernel bodies loaded from .cl files.
 *
 * A loaded source is a handle of the registry (core/handle.h); a source
 * made by AMP_KERNEL_SOURCE at a call site is not, and lives as long as its
 * string literal. The registry's knowledge of its own addresses tells the
 * two apart, so a literal is never released and a released file's source
 * is never read.
 *
 * amp_kernel_source_load is defined as (name): amp/kernel.h also makes it a
 * macro that records the caller's line for the leak report.
 */
#include "kernel/kernel_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "core/handle.h"
#include "core/lexicon.h"
#include "core/lock.h"
#include "core/strbuf.h"
#include "kernel/kcache.h"
#include "translate/lexer.h"

/* What a file that is not a regular file is, for messages. */
static const char *file_type(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "not a file";
}

/* The text of the kernel file at path, into text; only a regular file of
 * at most AMP_MAX_KERNEL_FILE_BYTES is read, so that a device or a FIFO cannot make
 * the call wait or read for ever. */
static amp_status read_kernel_file(const char *fn, const char *path, strbuf *text)
{
    struct stat st;
    int fd = amp__sb_open_file(path, &st);
    if (fd < 0) {
        int err = errno;
        return amp__err_set(err == ENOMEM ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_RUNTIME,
                            "%s: cannot read %s: %s.", fn, path, strerror(err));
    }
    amp_status st_out = AMP_OK;
    if (!S_ISREG(st.st_mode))
        st_out = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                              "%s: %s is not a regular file (%s); give the path of a .cl file.", fn,
                              path, file_type(st.st_mode));
    else if ((uint64_t)st.st_size > AMP_MAX_KERNEL_FILE_BYTES)
        st_out = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                              "%s: %s has %llu bytes; a kernel file has at most %zu (16 MiB)."
                              " Give the file that holds the kernel's body.",
                              fn, path, (unsigned long long)st.st_size, AMP_MAX_KERNEL_FILE_BYTES);
    int err = st_out == AMP_OK ? amp__sb_read_fd(text, fd, AMP_MAX_KERNEL_FILE_BYTES) : 0;
    close(fd);
    if (err == EFBIG)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: %s grew past %zu bytes (16 MiB) while it was read; a kernel"
                            " file has at most that.",
                            fn, path, AMP_MAX_KERNEL_FILE_BYTES);
    if (err != 0)
        return amp__err_set(err == ENOMEM ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_RUNTIME,
                            "%s: cannot read %s: %s.", fn, path, strerror(err));
    return st_out;
}

static void free_text(amp_kernel_source *src)
{
    free((char *)src->body);
    free((char *)src->index_name);
    free((char *)src->file);
}

/* A source handle holding text (taken over) as the body of path. */
static amp_status make_source(const char *fn, const char *path, const char *index_name,
                              strbuf *text, amp_kernel_source **out)
{
    amp_kernel_source *src = amp__handle_alloc(HD_KERNEL_SOURCE, sizeof *src, HD_CALLER);
    if (!src)
        goto out_of_memory;
    src->line = 1;
    src->from_file = 1;
    src->body_length = text->length;
    src->file = strdup(path);
    src->index_name = strdup(index_name);
    src->body = amp__sb_take(text);
    if (!src->file || !src->index_name || !src->body)
        goto fail_source;
    *out = src;
    return AMP_OK;

fail_source:
    free_text(src);
    amp__handle_free(src);
out_of_memory:
    return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
}

amp_status(amp_kernel_source_load)(const char *path, const char *index_name,
                                   amp_kernel_source **out)
{
    static const char fn[] = "amp_kernel_source_load";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    if (!path || !index_name)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the path and the index name must not be NULL.", fn);
    if (!amp__lexicon_is_identifier(index_name))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the index name '%s' is not an identifier.", fn, index_name);
    /* The file is read before the lock is taken: other threads' calls do
     * not wait for the disk. */
    strbuf text = STRBUF_INIT;
    amp_status st = read_kernel_file(fn, path, &text);
    if (st == AMP_OK) {
        amp__lock_acquire();
        st = make_source(fn, path, index_name, &text, out);
        amp__lock_release();
    }
    amp__sb_free(&text);
    return st;
}

amp_status amp_kernel_source_release(amp_kernel_source *source)
{
    if (!source)
        return AMP_OK;
    amp__lock_acquire();
    amp_status st = amp__handle_check("amp_kernel_source_release", source, HD_KERNEL_SOURCE);
    if (st == AMP_OK) {
        /* The cache is keyed by the body's address: a later body at the
         * same address must not find this one's kernels. */
        amp__kc_forget_body(source->body);
        free_text(source);
        amp__handle_free(source);
    }
    amp__lock_release();
    return st;
}

amp_status amp__kfile_check(const char *fn, const amp_kernel_source *k)
{
    LOCK_ASSERT_HELD();
    if (k && amp__handle_state(k, NULL) == HD_FOREIGN) {
        if (k->body && k->index_name && k->file)
            return AMP_OK;
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the kernel source is NULL or incomplete: its %s is NULL. Make"
                            " it with AMP_KERNEL_SOURCE(...) or amp_kernel_source_load().",
                            fn,
                            !k->body         ? "body"
                            : !k->index_name ? "index name"
                                             : "file");
    }
    return amp__handle_check(fn, k, HD_KERNEL_SOURCE);
}
