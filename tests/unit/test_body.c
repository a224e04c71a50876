/*
 * tests/unit/test_body.c - reading kernel bodies: the layout, moving tile_static
 * declarations with C's scoping, which views a body writes, preprocessor
 * lines, and the bodies the reader refuses.
 */
#include <stdlib.h>

#include "test_util.h"

#include "core/lexicon.h"
#include "translate/text.h"
#include "translate/layout.h"
#include "translate/lexer.h"

#define STRINGIFY(...) #__VA_ARGS__

/* What the kernel gives a body in these tests: int views v (rank 1), w
 * (rank 2) and out (rank 1), a scalar n, constants TS and W (AMP_CONST),
 * the index idx. */
static const char *const names[] = {"v", "w", "out", "n", "TS", "W"};
static const body_name_kind kinds[] = {BODY_NAME_VIEW,   BODY_NAME_VIEW,     BODY_NAME_VIEW,
                                       BODY_NAME_SCALAR, BODY_NAME_CONSTANT, BODY_NAME_CONSTANT};
static const body_type types[] = {{.kind = TYPE_VIEW, .rank = 1, .elem = AMP_INT},
                                  {.kind = TYPE_VIEW, .rank = 2, .elem = AMP_INT},
                                  {.kind = TYPE_VIEW, .rank = 1, .elem = AMP_INT},
                                  {.kind = TYPE_OTHER},
                                  {.kind = TYPE_OTHER},
                                  {.kind = TYPE_OTHER}};
static const body_context ctx = {.file = "test.c",
                                 .line = 1,
                                 .index_name = "idx",
                                 .ncaptures = 6,
                                 .capture_names = names,
                                 .capture_kinds = kinds,
                                 .index_type = {.kind = TYPE_INDEX, .rank = 1},
                                 .capture_types = types};

/* The same in a tiled kernel (tiles of 16), whose body may declare
 * tile_static variables (an untiled one's is refused). */
static body_context tiled(void)
{
    body_context c = ctx;
    c.index_type.kind = TYPE_TILED_INDEX;
    c.tile[0] = 16;
    return c;
}

static char laid_out[1 << 16], hoisted_out[4096];

/* Read and lay out text (no indent) as the body of a kernel of context c,
 * into laid_out and hoisted_out. */
static amp_status lay_out_in(const body_context *c, const char *text, int *lines)
{
    kbody b;
    amp_status st = amp__text_read(text, strlen(text), c, &b);
    laid_out[0] = hoisted_out[0] = '\0';
    if (st == AMP_OK) {
        strbuf out = STRBUF_INIT, hoisted = STRBUF_INIT;
        int n = amp__layout_body(&b, 0, &out, &hoisted, NULL);
        if (lines)
            *lines = n;
        snprintf(laid_out, sizeof laid_out, "%s", out.data ? out.data : "");
        snprintf(hoisted_out, sizeof hoisted_out, "%s", hoisted.data ? hoisted.data : "");
        amp__sb_free(&out);
        amp__sb_free(&hoisted);
    }
    amp__body_free(&b);
    return st;
}

static amp_status lay_out(const char *text, int *lines)
{
    return lay_out_in(&ctx, text, lines);
}

static amp_status lay_out_tiled(const char *text, int *lines)
{
    body_context c = tiled();
    return lay_out_in(&c, text, lines);
}

/* Bit i: view names[i] may be written. */
static uint32_t writes(const char *text)
{
    kbody b;
    amp_status st = amp__text_read(text, strlen(text), &ctx, &b);
    if (st != AMP_OK)
        fail_msg("the reader refused %s: %s", text, amp_last_error());
    uint32_t w = b.written;
    amp__body_free(&b);
    return w;
}

enum { V = 1, W = 2, OUT = 4 };

static void one_statement_per_line_with_indented_blocks(void **state)
{
    (void)state;
    int lines = 0;
    assert_amp_ok(lay_out(STRINGIFY({
        int row = idx[0];
        for (int inner = 0; inner < 2; inner++) {
            out(idx) += v(row + inner) * w(inner, row);
        }
    }),
                          &lines));
    /* The index of a rank-1 kernel is an int: idx[0] is idx. */
    assert_string_equal(laid_out, "{\n"
                                  "    int row = idx;\n"
                                  "    for (int inner = 0; inner < 2; inner++) {\n"
                                  "        out(idx) += v(row + inner) * w(inner, row);\n"
                                  "    }\n"
                                  "}\n");
    assert_int_equal(lines, 6);
}

static void else_and_do_while_stay_on_the_closing_line(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({ int x = 0, y; if (x) { y = 1; } else { y = 2; } do { y++; } while (y < 3); }), NULL));
    assert_string_equal(laid_out, "{\n"
                                  "    int x = 0, y;\n"
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
    assert_amp_ok(lay_out(STRINGIFY({ int a[3] = {1, 2, 3}; char s = "a;b" [0]; }), NULL));
    assert_string_equal(laid_out, "{\n"
                                  "    int a[3] = {1, 2, 3};\n"
                                  "    char s = \"a;b\" [0];\n"
                                  "}\n");
}

static void case_labels_end_their_line(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({ int x; switch (n) { case 1: x = 1; break; default: x = 0; } }), NULL));
    assert_string_equal(laid_out, "{\n"
                                  "    int x;\n"
                                  "    switch (n) {\n"
                                  "        case 1:\n"
                                  "        x = 1;\n"
                                  "        break;\n"
                                  "        default:\n"
                                  "        x = 0;\n"
                                  "    }\n"
                                  "}\n");
}

static void a_free_tile_static_name_is_kept(void **state)
{
    (void)state;
    assert_amp_ok(lay_out_tiled(STRINGIFY({
        for (int i = 0; i < 4; i += TS) {
            tile_static int locA[TS][TS];
            locA[0][0] = 1;
        }
    }),
                          NULL));
    assert_string_equal(hoisted_out, "tile_static int locA[TS][TS];\n");
    assert_non_null(strstr(laid_out, "/* moved to the top of the kernel: tile_static int locA[TS][TS]; */\n"));
    assert_non_null(strstr(laid_out, "        locA[0][0] = 1;\n"));
}

/* The second kernel: an inner tile_static shadows a private array
 * of the same name, only inside its block. */
static void an_inner_tile_static_shadows_only_inside_its_block(void **state)
{
    (void)state;
    assert_amp_ok(lay_out_tiled(STRINGIFY({
        int buf[16];
        buf[0] = -1;
        {
            tile_static int buf[16];
            buf[idx.local[0]] = 1;
            out(idx.global[0]) = buf[15 - idx.local[0]];
        }
        out(0) = buf[0];
    }),
                          NULL));
    assert_string_equal(hoisted_out, "tile_static int amp_ts_buf[16];\n");
    assert_non_null(strstr(laid_out, "    int buf[16];\n    buf[0] = -1;\n"));
    /* (A rank-1 tiled index's [0] is the index itself: the int.) */
    assert_non_null(strstr(laid_out, "        amp_ts_buf[idx.local] = 1;\n"));
    assert_non_null(strstr(laid_out, "        out(idx.global) = amp_ts_buf[15 - idx.local];\n"));
    assert_non_null(strstr(laid_out, "    out(0) = buf[0];\n"));
}

static void sibling_blocks_declare_their_own_tile_static(void **state)
{
    (void)state;
    assert_amp_ok(lay_out_tiled(STRINGIFY({
        { tile_static int a[4]; a[0] = 1; out(0) = a[0]; }
        { tile_static float a[8]; a[1] = 2.0f; out(1) = (int)a[1]; }
    }),
                          NULL));
    assert_string_equal(hoisted_out, "tile_static int amp_ts_a[4];\n"
                                     "tile_static float amp_ts2_a[8];\n");
    assert_non_null(strstr(laid_out, "amp_ts_a[0] = 1;"));
    assert_non_null(strstr(laid_out, "out(0) = amp_ts_a[0];"));
    assert_non_null(strstr(laid_out, "amp_ts2_a[1] = 2.0f;"));
    assert_non_null(strstr(laid_out, "out(1) = (int)amp_ts2_a[1];"));
}

/* One array declared in each branch of an AMP_IF: one name at kernel
 * scope for both, kept where it is free, else one new name for both. */
static void a_tile_static_in_each_branch_keeps_one_name(void **state)
{
    (void)state;
    assert_amp_ok(lay_out_tiled(STRINGIFY({
        AMP_IF(W) tile_static int a[8]; tile_static int barrier[8];
        AMP_ELSE tile_static float a[2]; tile_static float barrier[2];
        AMP_ENDIF a[1] = 1; barrier[1] = 2; out(0) = a[1] + barrier[1];
    }),
                          NULL));
    assert_string_equal(hoisted_out, "#if W\n"
                                     "tile_static int a[8];\n"
                                     "tile_static int amp_ts_barrier[8];\n"
                                     "#else\n"
                                     "tile_static float a[2];\n"
                                     "tile_static float amp_ts_barrier[2];\n"
                                     "#endif\n");
    assert_non_null(strstr(laid_out, "out(0) = a[1] + amp_ts_barrier[1];"));
}

/* half, uint, kernel ...: types or qualifiers of OpenCL C, free names in C
 * and C++. Declared by the body, they are its names under the kernel's own
 * (amp_name_NAME), in statements that start with them too; not declared,
 * they are OpenCL C's. */
static void opencl_words_declared_as_names_are_renamed(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({
        uint n = 3;
        int half = 2, kernel[2];
        half += n;
        kernel[0] = half;
        out(0) = kernel[0];
    }),
                          NULL));
    assert_non_null(strstr(laid_out, "    uint n = 3;\n"));
    assert_non_null(strstr(laid_out, "    int amp_name_half = 2, amp_name_kernel[2];\n"));
    assert_non_null(strstr(laid_out, "    amp_name_half += n;\n"));
    assert_non_null(strstr(laid_out, "    amp_name_kernel[0] = amp_name_half;\n"));
    assert_non_null(strstr(laid_out, "    out(0) = amp_name_kernel[0];\n"));
    /* A function the kernel's own macros call (precise_math_exp calls exp)
     * is renamed too; a macro that names such a variable is refused. */
    assert_amp_ok(lay_out(STRINGIFY({ int exp = 4; out(0) = exp; }), NULL));
    assert_non_null(strstr(laid_out, "    int amp_name_exp = 4;\n"));
    assert_amp_fails(lay_out(STRINGIFY({ int exp = 4; AMP_DEFINE(E exp) out(0) = E; }), NULL),
                     AMP_ERROR_KERNEL_BUILD,
                     "the macro E names 'exp', which the body declares and the kernel calls"
                     " amp_name_exp");
}

/* A body is found in its file from the call's __LINE__, which gcc gives as
 * the line where a call of many lines starts and clang as the line where
 * it ends, among other calls with the same body. */
static void a_body_is_found_from_either_compilers_line(void **state)
{
    (void)state;
    static const char file[] =
        "PFE(e, idx, CAPTURE(v), { v[idx] = 0; });\n"   /* 1 */
        "\n"                                            /* 2 */
        "PFE(e, idx,\n"                                 /* 3 */
        "    CAPTURE(v),\n"                             /* 4 */
        "    CAPTURE(w),\n"                             /* 5 */
        "    { v[idx] = 0; });\n"                       /* 6 */
        "x = f(PFE(e, idx, CAPTURE(v), {\n"             /* 7 */
        "    v[idx] = 0;\n"                             /* 8 */
        "}),\n"                                         /* 9 */
        "      1);\n"                                   /* 10 */
        "PFE(e, idx, CAPTURE(v), { v[idx] = 0; });\n"; /* 11 */
    static const char body[] = "{ v[idx] = 0; }";
    /* __LINE__ as gcc and as clang give it, and where the body starts. */
    static const int cases[][2] = {{1, 1}, {3, 6}, {6, 6}, {7, 7}, {10, 7}, {11, 11}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lex_pos pos[1];
        assert_int_equal(amp__lex_locate(file, cases[c][0], body, sizeof body - 1, pos, 1, 0), 1);
        assert_int_equal(pos[0].line, cases[c][1]);
    }
}

/* A use outside the declaration's block does not become a use of it, so
 * the name is renamed and that use is left as the user wrote it. */
static void a_use_outside_the_block_is_not_the_tile_static(void **state)
{
    (void)state;
    assert_amp_ok(lay_out_tiled(STRINGIFY({ { tile_static int t[4]; t[0] = 1; } out(0) = t[0]; }), NULL));
    assert_string_equal(hoisted_out, "tile_static int amp_ts_t[4];\n");
    assert_non_null(strstr(laid_out, "amp_ts_t[0] = 1;"));
    assert_non_null(strstr(laid_out, "out(0) = t[0];"));
}

/* A name the generated kernel uses itself (barrier, say) is renamed. */
static void a_tile_static_named_like_the_kernel_vocabulary_is_renamed(void **state)
{
    (void)state;
    assert_amp_ok(lay_out_tiled(STRINGIFY({ tile_static int barrier[4]; barrier[0] = 1; }), NULL));
    assert_string_equal(hoisted_out, "tile_static int amp_ts_barrier[4];\n");
}

static void reads_are_not_writes(void **state)
{
    (void)state;
    assert_int_equal(writes(STRINGIFY({ int s = 0; s += v(idx[0] + 1) * w(1, 2); if (v(0) == 3) out(0) = v(1); })), OUT);
    assert_int_equal(writes(STRINGIFY({ int s = (v(0)) + (int)(w(1)) + -v(2) + !v(3) + sizeof v(4); out(0) = s; })), OUT);
    assert_int_equal(writes(STRINGIFY({ int a = v(0) & w(1); out(a) = v(2) && w(3) ? v(4) : w(5); })), OUT);
    assert_int_equal(writes(STRINGIFY({ out(0) = v(0) == w(0); out(1) = fast_math_sqrt(v(1)); })), OUT);
    /* vload takes a const pointer, but &v(...) is still counted as a write */
    assert_int_equal(writes(STRINGIFY({ out(0) = v(w(0)); out(1) = v(w(1) + 1); })), OUT);
    assert_int_equal(writes(STRINGIFY({ out(0) = v[0] + w[1][2] + v.extent[0] + w.get_extent()[1]; })), OUT);
    /* An initializer list is read as expressions, its elements too. */
    assert_int_equal(writes(STRINGIFY({ int a[2] = {v(0), w(1)}; int b[2] = {[1] = v(1)}; out(0) = a[0] + b[1]; })), OUT);
}

/* Every form in which C can write an element, or keep a pointer to one. */
static void every_kind_of_write_is_found(void **state)
{
    (void)state;
    const char *cases[] = {
        STRINGIFY({ v(0) = 1; }),
        STRINGIFY({ v(0 + 1) += 2; }),
        STRINGIFY({ v(0) <<= 1; }),
        STRINGIFY({ v(0)++; }),
        STRINGIFY({ --v(0); }),
        STRINGIFY({ (v(0)) = 1; }),
        STRINGIFY({ ((v(0))) *= 3; }),
        STRINGIFY({ ++(v(0)); }),
        STRINGIFY({ (v(0))--; }),
        STRINGIFY({ atomic_add(&(v(idx[0] % 4)), 1); }),
        STRINGIFY({ atomic_fetch_add(&(v(0)), 5); }),
        STRINGIFY({ atomic_fetch_inc(&v(0)); }),
        STRINGIFY({ __global int *p = &(v(0)); *p = 7; }),
        STRINGIFY({ __global int *p = &v(0); p[1] = 7; }),
        STRINGIFY({ vstore4((float4)(1.0f), 0, &(v(0))); }),
        STRINGIFY({ helper(&(v(0))); }),
        STRINGIFY({ *(__global int *)&v(0) = 1; }),
        STRINGIFY({ int x = (int)&v(0); }),
        STRINGIFY({ v(0).x = 1; }),
        STRINGIFY({ (v(0)).x = 1; }),
        STRINGIFY({ v(0).x++; }),
        STRINGIFY({ &v(0).x; }),
        STRINGIFY({ if (n) v(0) = 1; else (v(1)) = 2; }),
        STRINGIFY({ helper(v); }),
        STRINGIFY({ v[0] = 1; }),
        STRINGIFY({ (v[0]) += 1; }),
        STRINGIFY({ ++v[1]; }),
        STRINGIFY({ atomic_add(&v[idx], 1); }),
        STRINGIFY({ int x = v(g(0)); v(1) = x; }),
        STRINGIFY({ AMP_DEFINE(SET(i, x) v(i) = x) SET(0, 1); }),
        STRINGIFY({ AMP_DEFINE(INC(e) ((e)++)) INC(v(0)); }),
        STRINGIFY({ AMP_DEFINE(INC(e) ((e)++)) int k = INC(v(0)); }),
        STRINGIFY({ for (int i = 0; i < 2; i++) v(i) = i; }),
        STRINGIFY({ switch (n) { case 1: v(0) = 1; } }),
        /* A grouping parenthesis after a statement's own ')' */
        STRINGIFY({ if (n) (v(0)) = 1; }),
        STRINGIFY({ for (int k = 0; k < 2; k++) (v(0))++; }),
        STRINGIFY({ while (n) (v(0)) += 1; }),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!(writes(cases[i]) & V))
            fail_msg("missed the write in %s", cases[i]);
}

static void member_names_and_shadowing_names_are_not_the_view(void **state)
{
    (void)state;
    assert_int_equal(writes(STRINGIFY({ struct { int v; } s; s.v = 1; out(0) = v(0); })), OUT);
    /* An inner v is a local variable; the view v is untouched. */
    assert_int_equal(writes(STRINGIFY({ { int v = 1; v = 2; out(0) = v; } })), OUT);
    assert_int_equal(writes(STRINGIFY({ for (int v = 0; v < 2; v++) out(v) = w(v); })), OUT);
}

static void function_like_macros_are_defined_as_written(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({ AMP_DEFINE(SQ(x) ((x) * (x))) AMP_DEFINE(N (4)) out(0) = SQ(N); }), NULL));
    assert_non_null(strstr(laid_out, "#define SQ(x) ((x) * (x))\n"));
    assert_non_null(strstr(laid_out, "#define N (4)\n"));
    assert_int_equal(writes(STRINGIFY({ AMP_DEFINE(SQ(x) ((x) * (x))) out(0) = SQ(v(0)); })), V | OUT);
}

static void pragmas_and_conditions_are_lines_of_their_own(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({ AMP_PRAGMA(unroll 4) for (int i = 0; i < 4; i++) out(i) = 0; AMP_IF(TS > 8) out(0) = 1; AMP_ELSE out(0) = 2; AMP_ENDIF }), NULL));
    assert_non_null(strstr(laid_out, "#pragma unroll 4\n"));
    assert_non_null(strstr(laid_out, "#if TS > 8\n"));
    assert_non_null(strstr(laid_out, "#else\n"));
    assert_non_null(strstr(laid_out, "#endif\n"));
    assert_amp_ok(lay_out(STRINGIFY({ AMP_PRAGMA(OPENCL FP_CONTRACT OFF) AMP_PRAGMA(nounroll) AMP_PRAGMA(pack(push, 1)) AMP_PRAGMA(pack(pop)) out(0) = 0; }), NULL));
    /* A compiler ignores a pragma it does not know: a misspelt one is refused. */
    assert_amp_fails(lay_out(STRINGIFY({ AMP_PRAGMA(unrol 4) for (int i = 0; i < 4; i++) out(i) = 0; }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "'unrol' starts no pragma an OpenCL compiler takes, and a compiler ignores one it does not know; did you mean unroll?");
    assert_amp_fails(lay_out(STRINGIFY({ AMP_PRAGMA() out(0) = 0; }), NULL), AMP_ERROR_KERNEL_BUILD,
                     "a pragma needs its words");
    /* C's auto, a storage class, is dropped; C++'s auto is refused. */
    assert_amp_ok(lay_out(STRINGIFY({ auto int k = 2; out(0) = k; }), NULL));
    assert_null(strstr(laid_out, "auto"));
    assert_amp_fails(lay_out(STRINGIFY({ auto k = 2; out(0) = k; }), NULL), AMP_ERROR_KERNEL_BUILD,
                     "C++'s auto (a type worked out from the initializer) is not C's");
    /* C++ AMP's using namespace lines print as nothing; another is the compiler's. */
    assert_amp_ok(lay_out(STRINGIFY({ using namespace concurrency; using namespace Concurrency::precise_math; out(0) = 1; }), NULL));
    assert_null(strstr(laid_out, "using"));
    assert_non_null(strstr(laid_out, "out(0) = 1;"));
    /* A condition's name the preprocessor does not know reads as 0 there. */
    assert_amp_ok(lay_out(STRINGIFY({ AMP_DEFINE(K 2) AMP_IF(defined(X) && X > K || defined Y || __OPENCL_VERSION__ >= 120) out(0) = 1; AMP_ENDIF }), NULL));
    assert_amp_fails(lay_out(STRINGIFY({ AMP_IF(n > 2) out(0) = 1; AMP_ENDIF }), NULL), AMP_ERROR_KERNEL_BUILD,
                     "'n' is a captured variable, and a preprocessor condition is read before the kernel runs, where it would be 0: test it with if (...), or capture a constant with AMP_CONST(n)");
    assert_amp_fails(lay_out(STRINGIFY({ AMP_IF(1) AMP_ELIF(SIZE > 8) out(0) = 1; AMP_ENDIF }), NULL), AMP_ERROR_KERNEL_BUILD,
                     "'SIZE' is no macro the kernel defines, and a preprocessor condition reads such a name as 0");
    assert_amp_fails(lay_out("{\n#if SIZE > 8\nout(0) = 0;\n#endif\n}", NULL), AMP_ERROR_KERNEL_BUILD,
                     "'SIZE' is no macro the kernel defines");
    assert_amp_fails(lay_out("{\n#pragma unrol\nout(0) = 0; }", NULL), AMP_ERROR_KERNEL_BUILD,
                     "did you mean unroll?");
}

static void names_of_the_generated_kernel_are_refused(void **state)
{
    (void)state;
    assert_amp_fails(lay_out(STRINGIFY({ int amp_v_ptr = 1; out(0) = amp_v_ptr; }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "'amp_v_ptr' is a name of the generated kernel");
    assert_amp_fails(lay_out(STRINGIFY({ AMP_DEFINE(global 1) out(0) = 0; }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "AMP_DEFINE(global ...) would redefine");
    assert_amp_fails(lay_out(STRINGIFY({ AMP_DEFINE(v 1) out(0) = 0; }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "a name the kernel gives the body");
    assert_amp_fails(lay_out_tiled(STRINGIFY({ AMP_DEFINE(T t[0]) { tile_static int t[4]; out(0) = T; } }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "the macro T names 't'");
}

static void unbalanced_bodies_are_refused(void **state)
{
    (void)state;
    assert_amp_fails(lay_out("{ out(0) = 1; ", NULL), AMP_ERROR_KERNEL_BUILD, "never closed");
    assert_amp_fails(lay_out("{ out(0) = (1; }", NULL), AMP_ERROR_KERNEL_BUILD, "')' was expected");
    assert_amp_fails(lay_out("{ out(0) = [1); }", NULL), AMP_ERROR_KERNEL_BUILD, "closes");
    assert_amp_fails(lay_out("{ out(0) = 1; } }", NULL), AMP_ERROR_KERNEL_BUILD, "closes nothing");
    assert_amp_fails(lay_out("{ out(0) = 1 }", NULL), AMP_ERROR_KERNEL_BUILD, "';'");
}

/* A text that ends inside a declaration or a template is refused there, as
 * any unfinished body is: the place is its end. */
static void a_body_cut_off_inside_a_declaration_is_refused(void **state)
{
    (void)state;
    assert_amp_fails(lay_out("{ float_3 f", NULL), AMP_ERROR_KERNEL_BUILD,
                     "a declaration should end with ';'");
    assert_amp_fails(lay_out("{ index<2> p", NULL), AMP_ERROR_KERNEL_BUILD,
                     "a declaration should end with ';'");
    /* Not NUL-terminated (a fuzzer's text, a file's part): the rank is
     * read within its token. */
    static const char cut[] = "{ int r = index<2";
    char *text = malloc(sizeof cut - 1);
    assert_non_null(text);
    memcpy(text, cut, sizeof cut - 1);
    kbody b;
    assert_int_equal(amp__text_read(text, sizeof cut - 1, &ctx, &b), AMP_ERROR_KERNEL_BUILD);
    amp__body_free(&b);
    free(text);
}

/* Any depth: the reader stops with a message past its limit, and never
 * runs out of stack. */
static void deep_nesting_is_refused_at_the_limit(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *text = malloc(2 * depth + 16);
    assert_non_null(text);
    for (size_t k = 0; k < 3; k++) {
        const char *open = k == 0 ? "{" : k == 1 ? "(" : "[";
        const char *close = k == 0 ? "}" : k == 1 ? ")" : "]";
        size_t n = 0;
        if (k > 0)
            n += (size_t)sprintf(text, "{ int x = ");
        for (size_t i = 0; i < depth; i++)
            text[n++] = open[0];
        for (size_t i = 0; i < depth; i++)
            text[n++] = close[0];
        if (k > 0)
            n += (size_t)sprintf(text + n, "; }");
        text[n] = '\0';
        assert_amp_fails(lay_out(text, NULL), AMP_ERROR_KERNEL_BUILD, "nest more than 256 deep");
    }
    /* An else-if chain is not nesting. */
    size_t n = (size_t)sprintf(text, "{ int x = 0; if (n == 0) x = 0;");
    for (int i = 1; i < 2000; i++)
        n += (size_t)sprintf(text + n, " else if (n == %d) x = %d;", i, i);
    sprintf(text + n, " out(0) = x; }");
    assert_amp_ok(lay_out(text, NULL));
    free(text);
}

static void a_long_body_is_read(void **state)
{
    (void)state;
    size_t statements = 50000;
    char *text = malloc(statements * 24 + 16);
    assert_non_null(text);
    size_t n = (size_t)sprintf(text, "{ int x = 0;");
    for (size_t i = 0; i < statements; i++)
        n += (size_t)sprintf(text + n, " x += v(%zu);", i % 97);
    sprintf(text + n, " out(0) = x; }");
    int lines = 0;
    assert_amp_ok(lay_out(text, &lines));
    assert_int_equal(lines, (int)statements + 4);
    assert_int_equal(writes(text), OUT);
    free(text);
}

static void comments_cannot_be_ended_by_the_text_inside(void **state)
{
    (void)state;
    strbuf sb = STRBUF_INIT;
    amp__layout_comment_text(&sb, "a*/b\n*/", 7);
    assert_string_equal(sb.data, "a* /b * /");
    amp__sb_free(&sb);
}

/* C++ AMP takes a temporary in parentheses as a value: (int)(e.size()) and
 * (p == q) of values made in place. */
static void parenthesized_temporaries_are_values(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({ out(0) = (int)(extent<2>(3, 4).size()) + (index<2>(1, 2) == index<2>(1, 2)); }), NULL));
    assert_non_null(strstr(laid_out, "out(0) = (int)(amp_size_2((amp_extent_2)(3, 4))) +"
                                     " (amp_equal_2((amp_index_2)(1, 2), (amp_index_2)(1, 2)));"));
    /* A cast to an index type is still a cast. */
    assert_amp_ok(lay_out(STRINGIFY({ index<2> p = (index<2>)(idx); out(0) = p[0]; }), NULL));
    assert_non_null(strstr(laid_out, "amp_index_2 p = (amp_index_2)(idx);"));
}

/* <: :> <% %> are [ ] { }, as in C; the kernel spells them so. */
static void digraphs_are_the_brackets_they_spell(void **state)
{
    (void)state;
    assert_amp_ok(lay_out("<% int a<:2:> = <%1, 2%>; w<:1:><:0:> = a<:1:>; out<:idx:> = v<:0:>; %>", NULL));
    assert_non_null(strstr(laid_out, "    int a[2] = {1, 2};\n"));
    assert_non_null(strstr(laid_out, "    w(1, 0) = a[1];\n"));
    assert_non_null(strstr(laid_out, "    out(idx) = v(0);\n"));
    assert_int_equal(writes("<% out<:0:> = v<:idx:> + w<:0:><:1:>; %>"), OUT);
}

/* float(x) is C++'s: the message gives C's spelling. */
static void function_style_casts_are_refused_with_the_c_spelling(void **state)
{
    (void)state;
    assert_amp_fails(lay_out(STRINGIFY({ out(0) = (int)float(M_E); }), NULL), AMP_ERROR_KERNEL_BUILD,
                     "C has no function-style casts: write (float)(x), as in (float)(M_E)");
    assert_amp_fails(lay_out(STRINGIFY({ float4 f = float4(1.0f); }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "write (float4)(x)");
    /* C++ AMP's short vectors are made this way, and stay. */
    assert_amp_ok(lay_out(STRINGIFY({ float_4 f = float_4(1.0f); out(0) = (int)f.x; }), NULL));
}

/* C++ AMP reshapes views in restrict(amp) code; here the host does, and the
 * message names its function. */
static void reinterpret_as_and_view_as_name_the_host_functions(void **state)
{
    (void)state;
    assert_amp_fails(lay_out(STRINGIFY({ out(0) = v.reinterpret_as<int>()(0); }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "call amp_array_view_reinterpret_as(v, AMP_UINT, &bits)");
    assert_amp_fails(lay_out(STRINGIFY({ out(0) = v.view_as(extent<2>(2, 2))(0, 0); }), NULL),
                     AMP_ERROR_KERNEL_BUILD, "call amp_array_view_view_as(v, amp_extent_2d(rows, cols), &m)");
}

/* c ? a : b between two views is a view that may be either: what is done
 * with it is done with both. */
static void a_view_chosen_by_a_conditional_is_both(void **state)
{
    (void)state;
    assert_int_equal(writes(STRINGIFY({ (n ? v : out)(0) = 1; })), V | OUT);
    assert_int_equal(writes(STRINGIFY({ array_view<int, 1> s = n ? v : out; w(0, 0) = s(0); })), V | W | OUT);
    /* Kept in a const view, or given to a const parameter: only read. */
    assert_int_equal(writes(STRINGIFY({ array_view<const int, 1> s = n ? v : out; w(0, 0) = s(0); })), W);
    assert_int_equal(writes(STRINGIFY({ array_view<const int, 1> s = (idx ? (v) : out.section(1)); w(0, 0) = s[0]; })), W);
    /* A third view inside is not followed: it counts as written. */
    assert_int_equal(writes(STRINGIFY({ array_view<const int, 1> s = n ? (idx ? v : out) : w[0]; w(0, 0) = s(0); })), W | OUT);
    assert_amp_ok(lay_out(STRINGIFY({ (n ? v : out)(idx) = 1; }), NULL));
    assert_non_null(strstr(laid_out, "amp_element_int_1((n ? amp_v_value : amp_out_value), idx)[0] = 1;"));
    assert_amp_fails(lay_out(STRINGIFY({ int x = (n ? v : w)(0); }), NULL), AMP_ERROR_KERNEL_BUILD,
                     "?: chooses between a view of int of rank 1 and a view of int of rank 2");
}

/* C++ AMP's .r .g .b .a and their swizzles are OpenCL C 1.2's .x .y .z .w
 * (NVIDIA's OpenCL C is 1.2); a struct's member r stays r. */
static void swizzles_are_spelled_with_xyzw(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({ float_4 f; f.rgba = f.bgra; f.set_xy(f.get_ba()); f.ref_g() = 1; out(0) = (int)f.r + (int)vload4(0, &w(0, 0)).a; }), NULL));
    assert_non_null(strstr(laid_out, "f.xyzw = f.zyxw;"));
    assert_non_null(strstr(laid_out, "f.xy = (f.zw);"));
    assert_non_null(strstr(laid_out, "f.y = 1;"));
    assert_non_null(strstr(laid_out, "out(0) = (int)f.x + (int)vload4(0, &w(0, 0)).w;"));
    assert_amp_ok(lay_out(STRINGIFY({ struct { float r, g; } s; s.r = 1; s.g = s.r; out(0) = (int)s.g; }), NULL));
    assert_non_null(strstr(laid_out, "s.r = 1;"));
    assert_non_null(strstr(laid_out, "s.g = s.r;"));
    /* OpenCL's own names of lanes stay. */
    assert_amp_ok(lay_out(STRINGIFY({ float_4 f; out(0) = (int)(f.s0 + f.lo.y + f.odd.x); }), NULL));
    assert_non_null(strstr(laid_out, "(int)(f.s0 + f.lo.y + f.odd.x)"));
}

/* == and != of short vectors compare the whole vectors, as C++ AMP's
 * operators do. */
static void vector_equality_compares_all_lanes(void **state)
{
    (void)state;
    assert_amp_ok(lay_out(STRINGIFY({ float_3 a, b; out(0) = a == b; out(1) = (a + 1.0f) != b; }), NULL));
    assert_non_null(strstr(laid_out, "out(0) = all(a == b);"));
    assert_non_null(strstr(laid_out, "out(1) = any((a + 1.0f) != b);"));
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
        cmocka_unit_test(a_free_tile_static_name_is_kept),
        cmocka_unit_test(an_inner_tile_static_shadows_only_inside_its_block),
        cmocka_unit_test(sibling_blocks_declare_their_own_tile_static),
        cmocka_unit_test(a_tile_static_in_each_branch_keeps_one_name),
        cmocka_unit_test(opencl_words_declared_as_names_are_renamed),
        cmocka_unit_test(a_body_is_found_from_either_compilers_line),
        cmocka_unit_test(a_use_outside_the_block_is_not_the_tile_static),
        cmocka_unit_test(a_tile_static_named_like_the_kernel_vocabulary_is_renamed),
        cmocka_unit_test(reads_are_not_writes),
        cmocka_unit_test(every_kind_of_write_is_found),
        cmocka_unit_test(member_names_and_shadowing_names_are_not_the_view),
        cmocka_unit_test(function_like_macros_are_defined_as_written),
        cmocka_unit_test(pragmas_and_conditions_are_lines_of_their_own),
        cmocka_unit_test(names_of_the_generated_kernel_are_refused),
        cmocka_unit_test(unbalanced_bodies_are_refused),
        cmocka_unit_test(a_body_cut_off_inside_a_declaration_is_refused),
        cmocka_unit_test(deep_nesting_is_refused_at_the_limit),
        cmocka_unit_test(a_long_body_is_read),
        cmocka_unit_test(comments_cannot_be_ended_by_the_text_inside),
        cmocka_unit_test(identifiers_are_recognized),
        cmocka_unit_test(parenthesized_temporaries_are_values),
        cmocka_unit_test(digraphs_are_the_brackets_they_spell),
        cmocka_unit_test(function_style_casts_are_refused_with_the_c_spelling),
        cmocka_unit_test(reinterpret_as_and_view_as_name_the_host_functions),
        cmocka_unit_test(a_view_chosen_by_a_conditional_is_both),
        cmocka_unit_test(swizzles_are_spelled_with_xyzw),
        cmocka_unit_test(vector_equality_compares_all_lanes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
