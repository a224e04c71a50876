/*
 * tests/fuzz/fuzz_lexer.c - libFuzzer target: any bytes through the lexer,
 * and through the search that finds a body's tokens in the user's file:
 * a text searched for in itself is found, token for token.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "translate/lexer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The file is a C string: no NUL inside. */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    for (size_t i = 0; i < size; i++)
        text[i] = data[i] ? (char)data[i] : ' ';
    text[size] = '\0';
    lex_tokens toks;
    if (amp__lex(text, size, &toks) == AMP_OK) {
        size_t total = 0;
        for (size_t i = 0; i < toks.count; i++) {
            const lex_token *t = &toks.items[i];
            if (t->length == 0 || t->text < text || t->text + t->length > text + size)
                abort();
            total += t->length;
        }
        if (total > size)
            abort();
        lex_pos *pos = malloc((toks.count + 1) * sizeof *pos);
        if (pos && toks.count > 0 &&
            amp__lex_locate(text, 1, text, size, pos, toks.count, 0) != toks.count)
            abort();
        /* The tolerant search finds it as well (its exact pass does). */
        if (pos && toks.count > 0 &&
            amp__lex_locate(text, 1, text, size, pos, toks.count,
                            LEX_LOCATE_MACROS | LEX_LOCATE_MACRO_ARGS) != toks.count)
            abort();
        for (size_t i = 0; pos && i < toks.count; i++)
            if (pos[i].line < 1 || pos[i].column < 1)
                abort();
        (void)amp__lex_text_uses(text, size, "atomic_", 1);
        free(pos);
    }
    amp__lex_free(&toks);
    free(text);
    return 0;
}
