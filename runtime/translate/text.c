/*
 * runtime/translate/text.c - one text through the passes, in order. Each
 * pass reads the facts of those before it and adds its own; the first
 * failure stops the rest.
 */
#include "translate/text.h"

#include "translate/hoist.h"
#include "translate/locals.h"
#include "translate/names.h"
#include "translate/parse_stmt.h"
#include "translate/scan.h"
#include "translate/spell.h"
#include "translate/writes.h"

amp_status amp__text_read(const char *text, size_t length, const body_context *ctx, kbody *out)
{
    if (amp__body_open(out, text, length, ctx) != AMP_OK)
        return out->status;
    void (*const passes[])(kbody *) = {amp__scan,  amp__parse_body, amp__names_check, amp__hoist,
                                       amp__spell, amp__locals,     amp__writes_find};
    for (size_t i = 0; i < sizeof passes / sizeof passes[0] && out->status == AMP_OK; i++)
        passes[i](out);
    return out->status;
}
