/*
 * tests/test_snippet.c - laying out stringified bodies, hoisting tile_static
 * declarations, and finding which views a body writes.
 */
#include "test_util.h"

#include "core/lexicon.h"
#include "kernel/snippet.h"

#define STRINGIFY(...) #__VA_ARGS__

/* Lay out text with no indent; the caller frees nothing (static buffers). */
static char laid_out[4096], hoisted_out[1024];
static int lay_out(const char *text)
{
    strbuf out = STRBUF_INIT, hoisted = STRBUF_INIT;
    int lines = amp__snip_format(text, strlen(text), 0, &out, &hoisted, NULL, NULL, 0);
    snprintf(laid_out, sizeof laid_out, "%s", out.data ? out.data : "");
    snprintf(hoisted_out, sizeof hoisted_out, "%s", hoisted.data ? hoisted.data : "");
    amp__sb_free(&out);
    amp__sb_free(&hoisted);
    return lines;
}

static void one_statement_per_line_with_indented_blocks(void **state)
{
    (void)state;
    const char *body = STRINGIFY({
        int row = idx[0];
        for (int inner = 0; inner < 2; inner++) {
            product(idx) += a(row, inner) * b(inner, row);
        }
    });
    int lines = lay_out(body);
    assert_string_equal(laid_out, "{\n"
                                  "    int row = idx[0];\n"
                                  "    for (int inner = 0; inner < 2; inner++) {\n"
                                  "        product(idx) += a(row, inner) * b(inner, row);\n"
                                  "    }\n"
                                  "}\n");
    assert_int_equal(lines, 6);
}

static void else_and_do_while_stay_on_the_closing_line(void **state)
{
    (void)state;
    lay_out(STRINGIFY({ if (x) { y = 1; } else { y = 2; } do { y++; } while (y < 3); }));
    assert_string_equal(laid_out, "{\n"
                                  "    if (x) {\n"
                                  "        y = 1;\n"
                                  "    } else {\n"
                                  "        y = 2;\n"
                                  "    }\n"
                                  "    do {\n"
                                  "        y++;\n"
                                  "    } while (y < 3);\n"
                                  "}\n");
}

static void initializer_braces_stay_inline(void **state)
{
    (void)state;
    lay_out(STRINGIFY({ int v[3] = {1, 2, 3}; float s = "a;b" [0]; }));
    assert_string_equal(laid_out, "{\n"
                                  "    int v[3] = {1, 2, 3};\n"
                                  "    float s = \"a;b\" [0];\n"
                                  "}\n");
}

static void case_labels_end_their_line(void **state)
{
    (void)state;
    lay_out(STRINGIFY({ switch (k) { case 1: x = 1; break; default: x = 0; } }));
    assert_string_equal(laid_out, "{\n"
                                  "    switch (k) {\n"
                                  "        case 1:\n"
                                  "        x = 1;\n"
                                  "        break;\n"
                                  "        default:\n"
                                  "        x = 0;\n"
                                  "    }\n"
                                  "}\n");
}

static void tile_static_declarations_are_hoisted(void **state)
{
    (void)state;
    lay_out(STRINGIFY({
        for (int i = 0; i < 4; i += TS) {
            tile_static int locA[TS][TS];
            locA[0][0] = 1;
        }
    }));
    assert_string_equal(hoisted_out, "tile_static int locA[TS][TS];\n");
    assert_non_null(strstr(laid_out, "/* moved to the top of the kernel: tile_static int locA[TS][TS]; */\n"));
    assert_non_null(strstr(laid_out, "        locA[0][0] = 1;\n"));
}

static void reads_are_not_writes(void **state)
{
    (void)state;
    const char *body = STRINGIFY({ sum += a(i, k) * b(k, j); if (a(i) == 3) c(i) = a(i + 1); });
    assert_false(amp__snip_may_write(body, strlen(body), "a"));
    assert_false(amp__snip_may_write(body, strlen(body), "b"));
    assert_true(amp__snip_may_write(body, strlen(body), "c"));
    assert_false(amp__snip_may_write(body, strlen(body), "d"));
}

static void every_kind_of_write_is_found(void **state)
{
    (void)state;
    const char *cases[] = {
        STRINGIFY({ v(i) = 1; }),       STRINGIFY({ v(i, j) += 2; }), STRINGIFY({ v(i) <<= 1; }),
        STRINGIFY({ v(i)++; }),         STRINGIFY({ --v(i); }),       STRINGIFY({ f(&v(i)); }),
        STRINGIFY({ helper(v); }),      STRINGIFY({ v(i).x = 1; }),   STRINGIFY({ v(g(i)) = 1; }),
        STRINGIFY({ x = v(0); v(1) = x; }),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!amp__snip_may_write(cases[i], strlen(cases[i]), "v"))
            fail_msg("missed the write in %s", cases[i]);
}

static void member_names_are_not_the_view(void **state)
{
    (void)state;
    const char *body = STRINGIFY({ s.v = 1; p->v = 2; x = v(0); });
    assert_false(amp__snip_may_write(body, strlen(body), "v"));
}

static void identifiers_are_recognized(void **state)
{
    (void)state;
    assert_true(amp__lexicon_is_identifier("a"));
    assert_true(amp__lexicon_is_identifier("_tile2"));
    assert_false(amp__lexicon_is_identifier("2a"));
    assert_false(amp__lexicon_is_identifier("8"));
    assert_false(amp__lexicon_is_identifier("a.b"));
    assert_false(amp__lexicon_is_identifier(""));
    assert_false(amp__lexicon_is_identifier(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_statement_per_line_with_indented_blocks),
        cmocka_unit_test(else_and_do_while_stay_on_the_closing_line),
        cmocka_unit_test(initializer_braces_stay_inline),
        cmocka_unit_test(case_labels_end_their_line),
        cmocka_unit_test(tile_static_declarations_are_hoisted),
        cmocka_unit_test(reads_are_not_writes),
        cmocka_unit_test(every_kind_of_write_is_found),
        cmocka_unit_test(member_names_are_not_the_view),
        cmocka_unit_test(identifiers_are_recognized),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
