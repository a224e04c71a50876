/*
 * runtime/translate/text.h - one text (a kernel body, or a helper
 * function) through the translator's passes (translate.h): scan, parse,
 * names, hoist, spell, locals, writes.
 */
#ifndef AMP_TRANSLATE_TEXT_H
#define AMP_TRANSLATE_TEXT_H

#include <stddef.h>

#include "translate/body.h"

/*
 * Read text[0 .. length), written for the call ctx describes, into *out
 * (free with amp__body_free, also after a failure): its facts, the edits
 * that make it OpenCL C, its moved tile_static declarations and the views
 * it may write. Returns AMP_OK; AMP_ERROR_KERNEL_BUILD for a text that
 * cannot be bounded, that C cannot take, or that declares or uses a name
 * the generated kernel owns (the message says where and why);
 * AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp__text_read(const char *text, size_t length, const body_context *ctx, kbody *out);

#endif
