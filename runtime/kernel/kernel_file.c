/*
 * runtime/kernel/kernel_file.c - kernel bodies loaded from .cl files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "amp/kernel.h"
#include "core/env.h"
#include "core/error.h"
#include "kernel/kcache.h"
#include "core/lock.h"
#include "core/lexicon.h"
#include "kernel/lexer.h"
#include "core/strbuf.h"

amp_status amp_kernel_source_load(const char *path, const char *index_name,
                                  amp_kernel_source **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_kernel_source_load: out is NULL.");
    *out = NULL;
    if (!path || !index_name)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "amp_kernel_source_load: the path and the index name must not be NULL.");
    if (!amp__lexicon_is_identifier(index_name))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "amp_kernel_source_load: the index name '%s' is not an identifier.",
                       index_name);
    strbuf text = STRBUF_INIT;
    int err = amp__sb_read_file(&text, path);
    if (err != 0) {
        amp__sb_free(&text);
        return amp__err_set(err == ENOMEM ? AMP_ERROR_OUT_OF_MEMORY : AMP_ERROR_RUNTIME,
                       "amp_kernel_source_load: cannot read %s: %s.", path, strerror(err));
    }
    amp_kernel_source *src = calloc(1, sizeof *src);
    char *file = strdup(path), *index = strdup(index_name);
    size_t length = text.length;
    char *body = amp__sb_take(&text);
    if (!src || !file || !index || !body) {
        free(src);
        free(file);
        free(index);
        free(body);
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "amp_kernel_source_load: out of host memory.");
    }
    src->file = file;
    src->line = 1;
    src->index_name = index;
    src->body = body;
    src->body_length = length;
    src->from_file = 1;
    *out = src;
    return AMP_OK;
}

void amp_kernel_source_release(amp_kernel_source *source)
{
    if (!source)
        return;
    /* The cache is keyed by the body's address: a later body at the same
     * address must not find this one's kernels. */
    amp__lock_acquire();
    amp__kc_forget_body(source->body);
    amp__lock_release();
    free((char *)source->file);
    free((char *)source->index_name);
    free((char *)source->body);
    free(source);
}
