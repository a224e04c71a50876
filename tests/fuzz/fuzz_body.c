/*
 * tests/fuzz/fuzz_body.c - libFuzzer target: any bytes as a kernel body.
 * The reader either refuses them with a status and a message, or reads
 * them; a read body lays out, and every line of the layout maps to a token
 * of the body. Nothing crashes, reads out of bounds or leaks (ASan).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "translate/text.h"
#include "translate/layout.h"

static const char *const names[] = {"v", "w", "out", "n", "TS", "helper"};
static const body_name_kind kinds[] = {BODY_NAME_VIEW,   BODY_NAME_VIEW,     BODY_NAME_VIEW,
                                       BODY_NAME_SCALAR, BODY_NAME_CONSTANT, BODY_NAME_FUNCTION};
static const char *const types[] = {"particle"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    body_type views[6] = {{.kind = TYPE_VIEW, .rank = 2, .elem = AMP_INT},
                          {.kind = TYPE_VIEW, .rank = 1, .is_const = 1, .elem = AMP_FLOAT},
                          {.kind = TYPE_VIEW, .rank = 3, .elem = AMP_UINT}};
    body_context ctx = {.file = "fuzz.c",
                        .line = 1,
                        .index_name = "idx",
                        .ncaptures = 6,
                        .capture_names = names,
                        .capture_kinds = kinds,
                        .index_type = {.kind = TYPE_INDEX, .rank = 2},
                        .capture_types = views,
                        .ntypes = 1,
                        .type_names = types};
    /* The first byte chooses a helper function's reading instead. */
    if (size > 0 && data[0] == 'F') {
        ctx.function = 1;
        ctx.index_name = NULL;
    }
    kbody b;
    if (amp__text_read((const char *)data, size, &ctx, &b) == AMP_OK) {
        size_t entries = b.tokens.count + 1;
        int *lines_of = malloc(entries * sizeof *lines_of);
        int *columns = malloc(entries * sizeof *columns);
        layout_map map = {lines_of, columns};
        strbuf out = STRBUF_INIT, moved = STRBUF_INIT;
        int lines = lines_of && columns ? amp__layout_body(&b, 4, &out, &moved, &map) : 0;
        for (size_t i = 0; lines_of && columns && i < b.tokens.count; i++)
            if (lines_of[i] >= lines || (lines_of[i] >= 0 && columns[i] < 1))
                abort();
        /* A token prints as written, never as nothing, unless the reader
         * rewrote it, which may drop it (the ][ of v[i][j], the () of
         * get_extent()). */
        for (size_t i = 0; i < b.tokens.count; i++) {
            uint32_t length;
            const char *text = amp__body_token_text(&b, i, &length);
            if (!text || (length == 0 && !(b.edits && b.edits[i].instead)))
                abort();
        }
        if (b.written & ~(uint32_t)7) /* only the three views can be written */
            abort();
        amp__sb_free(&out);
        amp__sb_free(&moved);
        free(lines_of);
        free(columns);
    }
    amp__body_free(&b);
    return 0;
}
