/*
 * runtime/translate/vocabulary.c - the OpenCL C spelling of C++ AMP's kernel
 * language: the prelude and the vocabulary's groups are pieces of
 * runtime/translate/cl/ (cl.h); the functions of index values and the
 * element access of ranks 4 to 8 are written here, for the ranks a kernel
 * uses.
 */
#include "translate/vocabulary.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/limits.h"
#include "translate/cl.h"
#include "translate/lexer.h"

const char *amp__vocab_prelude(void)
{
    return amp__cl_prelude;
}

/* The groups of the vocabulary, in the order a kernel gets them: each a
 * piece of runtime/translate/cl/ (cl.h). */
enum { ATOMICS, FENCES, FAST_MATH, PRECISE_MATH, SHORT_VECTORS, NORMS, GROUPS };

/* An entry: the text that defines name, which a kernel gets when one of
 * its texts uses the name. */
typedef struct vocab_entry {
    int group;
    char name[48];
    const char *text;
    size_t length;
} vocab_entry;

/* The groups' headings and entries, read once from the pieces. */
static struct {
    const char *heading[GROUPS]; /* what a group needs once, before its first entry */
    size_t heading_length[GROUPS];
    vocab_entry entries[LIMIT_VOCABULARY];
    size_t nentries;
} vocab;

static const char **reserved;
static size_t nreserved;
static pthread_once_t vocab_once = PTHREAD_ONCE_INIT;

static void build_vocabulary(void);

/* The end of the line that starts at s, past its newline and the lines a
 * backslash continues. */
static const char *line_end(const char *s)
{
    for (;;) {
        const char *nl = strchr(s, '\n');
        if (!nl)
            return s + strlen(s);
        if (nl == s || nl[-1] != '\\')
            return nl + 1;
        s = nl + 1;
    }
}

/* Split a group's piece: its heading runs to the first blank line; then
 * each entry runs to the end of the line that #defines its name (blank
 * lines between entries are the file's, not the kernel's). */
static void split_group(int group, const char *text)
{
    const char *blank = strstr(text, "\n\n");
    const char *at = blank ? blank + 1 : text + strlen(text);
    vocab.heading[group] = text;
    vocab.heading_length[group] = (size_t)(at - text);
    while (*at && vocab.nentries < LIMIT_VOCABULARY) {
        while (*at == '\n')
            at++;
        const char *first = at;
        while (*at && strncmp(at, "#define ", 8) != 0)
            at = line_end(at);
        if (!*at)
            break; /* text after the last entry: none in the pieces */
        vocab_entry *e = &vocab.entries[vocab.nentries++];
        size_t n = strcspn(at + 8, "( \n");
        if (n >= sizeof e->name)
            n = sizeof e->name - 1;
        memcpy(e->name, at + 8, n);
        e->name[n] = '\0';
        at = line_end(at);
        e->group = group;
        e->text = first;
        e->length = (size_t)(at - first);
    }
}

int amp__vocab_append_used(strbuf *out, size_t ntexts, const char *const *texts,
                           const size_t *lengths)
{
    pthread_once(&vocab_once, build_vocabulary);
    int headed[GROUPS] = {0};
    int appended = 0;
    for (size_t i = 0; i < vocab.nentries; i++) {
        const vocab_entry *e = &vocab.entries[i];
        int used = 0;
        /* C's float functions (sqrtf) are precise_math's (spell.c). */
        static const char bare[] = "precise_math_";
        size_t n = strlen(e->name);
        const char *c_name = strncmp(e->name, bare, sizeof bare - 1) == 0 && e->name[n - 1] == 'f'
                                 ? e->name + sizeof bare - 1
                                 : NULL;
        for (size_t t = 0; t < ntexts && !used; t++)
            used = amp__lex_text_uses(texts[t], lengths[t], e->name, 0) ||
                   (c_name && amp__lex_text_uses(texts[t], lengths[t], c_name, 0));
        if (!used)
            continue;
        if (!headed[e->group]) {
            amp__sb_append(out, "\n");
            amp__sb_append_n(out, vocab.heading[e->group], vocab.heading_length[e->group]);
            headed[e->group] = 1;
        }
        amp__sb_append_n(out, e->text, e->length);
        appended++;
    }
    return appended;
}

/* ---- amp/short_vector.h's names ---- */

/* The operations of amp_T_N_OP and their definitions, printed with the
 * name and OpenCL's type (float3); "" for amp_T_N itself, the type. */
static const struct {
    const char *op;
    const char *definition;
    int integer; /* int and uint only */
} vector_ops[] = {
    {"", "", 0},
    {"make", "#define %s(...) ((%s)(__VA_ARGS__))\n", 0},
    {"splat", "#define %s(s) ((%s)(s))\n", 0},
    {"add", "#define %s(a, b) ((a) + (b))\n", 0},
    {"sub", "#define %s(a, b) ((a) - (b))\n", 0},
    {"mul", "#define %s(a, b) ((a) * (b))\n", 0},
    {"div", "#define %s(a, b) ((a) / (b))\n", 0},
    {"scale", "#define %s(a, s) ((a) * (s))\n", 0},
    {"neg", "#define %s(a) (-(a))\n", 0},
    {"eq", "#define %s(a, b) all((a) == (b))\n", 0},
    {"ne", "#define %s(a, b) any((a) != (b))\n", 0},
    {"mod", "#define %s(a, b) ((a) %% (b))\n", 1},
    {"and", "#define %s(a, b) ((a) & (b))\n", 1},
    {"or", "#define %s(a, b) ((a) | (b))\n", 1},
    {"xor", "#define %s(a, b) ((a) ^ (b))\n", 1},
    {"shl", "#define %s(a, b) ((a) << (b))\n", 1},
    {"shr", "#define %s(a, b) ((a) >> (b))\n", 1},
    {"not", "#define %s(a) (~(a))\n", 1},
};
enum { VECTOR_OPS = sizeof vector_ops / sizeof vector_ops[0] };

/* Which name of amp/short_vector.h name[0 .. n) is: its type's index (0 to
 * 11, AMP_INT_2 on) and operation (an index into vector_ops, or
 * VECTOR_OPS + u for _from_U_N, u the scalar type's index); -1 for none. */
static int vector_name(const char *name, size_t n, int *op)
{
    static const char *const scalars[] = {"int", "uint", "float", "double"};
    if (n < 9 || memcmp(name, "amp_", 4) != 0)
        return -1;
    for (int s = 0; s < 4; s++) {
        size_t len = strlen(scalars[s]);
        const char *p = name + 4;
        if (n < 4 + len + 2 || memcmp(p, scalars[s], len) != 0 || p[len] != '_' ||
            p[len + 1] < '2' || p[len + 1] > '4')
            continue;
        int lanes = p[len + 1] - '0';
        int type = s * 3 + lanes - 2;
        const char *rest = p + len + 2;
        size_t left = n - (size_t)(rest - name);
        if (left == 0) {
            *op = 0;
            return type;
        }
        if (rest[0] != '_')
            return -1;
        rest++;
        left--;
        for (int k = 1; k < VECTOR_OPS; k++)
            if (strlen(vector_ops[k].op) == left && memcmp(rest, vector_ops[k].op, left) == 0) {
                if (vector_ops[k].integer && s > 1)
                    return -1;
                if (k == 8 && s == 1) /* uint has no neg, as C++ AMP's uint_N has no - */
                    return -1;
                *op = k;
                return type;
            }
        for (int u = 0; u < 4; u++) {
            char from[16];
            int m = snprintf(from, sizeof from, "from_%s_%d", scalars[u], lanes);
            if (u != s && (size_t)m == left && memcmp(rest, from, left) == 0) {
                *op = VECTOR_OPS + u;
                return type;
            }
        }
        return -1;
    }
    return -1;
}

int amp__vocab_is_vector_name(const char *name, size_t length)
{
    int op;
    return vector_name(name, length, &op) >= 0;
}

void amp__vocab_append_vector_names(strbuf *out, size_t ntexts, const char *const *texts,
                                    const size_t *lengths)
{
    static const char *const scalars[] = {"int", "uint", "float", "double"};
    uint8_t used[12][VECTOR_OPS + 4];
    memset(used, 0, sizeof used);
    int any = 0;
    for (size_t t = 0; t < ntexts; t++) {
        lex_tokens toks;
        if (amp__lex(texts[t], lengths[t], &toks) != AMP_OK)
            continue;
        for (size_t i = 0; i < toks.count; i++) {
            int op, type = toks.items[i].kind == LEX_IDENT
                               ? vector_name(toks.items[i].text, toks.items[i].length, &op)
                               : -1;
            if (type >= 0)
                any = used[type][op] = 1;
        }
        amp__lex_free(&toks);
    }
    if (!any)
        return;
    amp__sb_append(out, "\n/* amp/short_vector.h's names, for code written for both sides. */\n");
    for (int type = 0; type < 12; type++)
        for (int op = 0; op < VECTOR_OPS + 4; op++) {
            if (!used[type][op])
                continue;
            int s = type / 3, lanes = type % 3 + 2;
            char cl[16], name[48];
            snprintf(cl, sizeof cl, "%s%d", scalars[s], lanes);
            if (op >= VECTOR_OPS) {
                amp__sb_printf(out, "#define amp_%s_%d_from_%s_%d(v) convert_%s(v)\n", scalars[s],
                               lanes, scalars[op - VECTOR_OPS], lanes, cl);
                continue;
            }
            snprintf(name, sizeof name, "amp_%s_%d%s%s", scalars[s], lanes, op ? "_" : "",
                     vector_ops[op].op);
            if (op == 0)
                amp__sb_printf(out, "typedef %s %s;\n", cl, name);
            else
                amp__sb_printf(out, vector_ops[op].definition, name, cl);
        }
}

/* ---- Index and extent functions ---- */

/* Lane d of a value of rank n: the int itself for rank 1. */
static void index_lane(strbuf *out, const char *name, int rank, int d)
{
    if (rank == 1)
        amp__sb_append(out, name);
    else
        amp__sb_printf(out, "%s.s%d", name, d);
}

void amp__vocab_append_index_functions(strbuf *out, uint32_t ranks)
{
    if (!(ranks & 0x1feu))
        return;
    amp__sb_append(out,
                   "\n/* index<N> and extent<N>: the body's p == q, e.contains(p), e.size() and\n"
                   "   v.extent, for the ranks it uses. */\n");
    for (int n = 1; n <= 8; n++) {
        if (!(ranks & (1u << n)))
            continue;
        amp__sb_printf(out, "int amp_equal_%d(amp_index_%d a, amp_index_%d b)\n{\n    return ", n,
                       n, n);
        for (int d = 0; d < n; d++) {
            amp__sb_append(out, d ? " && " : "");
            index_lane(out, "a", n, d);
            amp__sb_append(out, " == ");
            index_lane(out, "b", n, d);
        }
        amp__sb_printf(out,
                       ";\n}\nint amp_contains_%d(amp_extent_%d e, amp_index_%d p)\n{\n    return ",
                       n, n, n);
        for (int d = 0; d < n; d++) {
            amp__sb_append(out, d ? " && " : "");
            index_lane(out, "p", n, d);
            amp__sb_append(out, " >= 0 && ");
            index_lane(out, "p", n, d);
            amp__sb_append(out, " < ");
            index_lane(out, "e", n, d);
        }
        amp__sb_printf(out, ";\n}\nuint amp_size_%d(amp_extent_%d e)\n{\n    return ", n, n);
        for (int d = 0; d < n; d++) {
            amp__sb_append(out, d ? " * " : "(uint)");
            index_lane(out, "e", n, d);
        }
        amp__sb_printf(out, ";\n}\namp_extent_%d amp_extent_of_%d(const int *e)\n{\n    return ", n,
                       n);
        if (n == 1) {
            amp__sb_append(out, "e[0]");
        } else {
            amp__sb_printf(out, "(amp_extent_%d)(", n);
            int lanes = n <= 4 ? n : 8;
            for (int d = 0; d < lanes; d++) {
                amp__sb_append(out, d ? ", " : "");
                if (d < n)
                    amp__sb_printf(out, "e[%d]", d);
                else
                    amp__sb_append(out, "0");
            }
            amp__sb_append(out, ")");
        }
        amp__sb_append(out, ";\n}\n");
    }
}

/* ---- Element access for ranks 4 to 8 ---- */

/* The vector type of an index of rank n (4 to 8): int4, or int8 with lanes
 * past the rank unused. */
static int lanes_of(int n)
{
    return n <= 4 ? 4 : 8;
}

void amp__vocab_append_access_rank(strbuf *out, int n)
{
    int k = lanes_of(n);
    amp__sb_printf(
        out,
        "\n/* Views of rank %d: v(i0, ..., i%d) or v(index), an index being an int%d%s. */\n"
        "int%d __attribute__((overloadable)) amp_to_index_%d(int%d index) { return index; }\n"
        "int%d __attribute__((overloadable)) amp_to_index_%d(const int *index)\n{\n"
        "    return (int%d)(",
        n, n - 1, k, n < k ? " (its last lanes unused)" : "", k, n, k, k, n, k);
    for (int d = 0; d < k; d++) {
        if (d < n)
            amp__sb_printf(out, "%sindex[%d]", d ? ", " : "", d);
        else
            amp__sb_append(out, ", 0");
    }
    amp__sb_append(out, ");\n}\n");
    amp__sb_printf(
        out,
        "AMP_RANK_TAKES(%d, int%d)\n#define AMP_INDEX_OF_RANK_%d(ix) AMP_INDEX_OF_RANK(ix, %d)\n",
        n, k, n, n);
    amp__sb_printf(out, "amp_off_t amp_offset_%d(int%d x", n, k);
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(out, ", amp_off_t stride%d", d);
    amp__sb_append(out, ")\n{\n    return ");
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(out, "(amp_off_t)x.s%d * stride%d + ", d, d);
    amp__sb_printf(out, "x.s%d;\n}\n#define AMP_OFFSET_%d(v, x) amp_offset_%d(x", n - 1, n, n);
    for (int d = 0; d + 1 < n; d++)
        amp__sb_printf(out, ", amp_##v##_stride%d", d);
    amp__sb_printf(out, ")\n#define AMP_PICK%d(", n);
    for (int d = 1; d <= n; d++)
        amp__sb_printf(out, "_%d, ", d);
    amp__sb_printf(out, "which, ...) which\n#define AMP_ELEMENT_%d(v", n);
    for (int d = 0; d < n; d++)
        amp__sb_printf(out, ", i%d", d);
    amp__sb_printf(out, ") AMP_PLACE(v, AMP_OFFSET_%d(v, (int%d)(", n, k);
    for (int d = 0; d < k; d++) {
        if (d < n)
            amp__sb_printf(out, "%s(i%d)", d ? ", " : "", d);
        else
            amp__sb_append(out, ", 0");
    }
    amp__sb_printf(out,
                   ")))\n"
                   "#define AMP_INDEXED_%d(v, ix) \\\n"
                   "    AMP_PLACE(v, AMP_OFFSET_%d(v, amp_to_index_%d(AMP_INDEX_OF_RANK_%d(ix))))\n"
                   "#define AMP_ACCESS_%d(v, ...) AMP_PICK%d(__VA_ARGS__, AMP_ELEMENT_%d, ",
                   n, n, n, n, n, n, n);
    for (int d = 0; d + 2 < n; d++)
        amp__sb_printf(out, "AMP_ACCESS_%d_TAKES_1_OR_%d, ", n, n);
    amp__sb_printf(out, "AMP_INDEXED_%d, )(v, __VA_ARGS__)\n", n);
}

/* ---- Names the generated kernel uses ---- */

/* Names the generated code around a body uses besides the prelude's and
 * the vocabulary's: the index set-up, the kernel's own declarations. */
static const char *const generated_names[] = {"get_global_id",
                                              "get_local_id",
                                              "get_group_id",
                                              "get_global_offset",
                                              "get_global_size",
                                              "get_local_size",
                                              "get_num_groups",
                                              "get_work_dim",
                                              "barrier",
                                              "mem_fence",
                                              "read_imagei",
                                              "read_imageui",
                                              "read_imagef",
                                              "get_image_width",
                                              "get_image_height",
                                              "atomic_cmpxchg",
                                              "printf",
                                              "tile_static",
                                              "global",
                                              "local",
                                              "wait",
                                              "all", /* a short vectors' == and != */
                                              "any",
                                              "select",
                                              NULL};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Collect into reserved (capacity cap) the names text defines or calls:
 * #define names, names followed by '(' (functions, built-ins, macros),
 * and OpenCL's CLK_ and M_ constants. A macro's parameters and a
 * function's locals are not the kernel's names. */
static void collect(const char *text, size_t cap)
{
    lex_tokens toks;
    if (!reserved || amp__lex(text, strlen(text), &toks) != AMP_OK)
        return;
    const lex_token *t = toks.items;
    for (size_t i = 0; i < toks.count && nreserved < cap; i++) {
        if (t[i].kind != LEX_IDENT)
            continue;
        int defined = i >= 2 && amp__lex_is(&t[i - 1], "define") && amp__lex_is(&t[i - 2], "#");
        int called = i + 1 < toks.count && amp__lex_is(&t[i + 1], "(");
        int constant = (t[i].length > 4 && memcmp(t[i].text, "CLK_", 4) == 0) ||
                       (t[i].length > 2 && memcmp(t[i].text, "M_", 2) == 0);
        if (!defined && !called && !constant)
            continue;
        char *word = malloc(t[i].length + 1);
        if (!word)
            break;
        memcpy(word, t[i].text, t[i].length);
        word[t[i].length] = '\0';
        reserved[nreserved++] = word;
    }
    amp__lex_free(&toks);
}

static void build_vocabulary(void)
{
    static const char *const pieces[GROUPS] = {amp__cl_atomics,       amp__cl_fences,
                                               amp__cl_fast_math,     amp__cl_precise_math,
                                               amp__cl_short_vectors, amp__cl_norm};
    for (int g = 0; g < GROUPS; g++)
        split_group(g, pieces[g]);
    size_t cap = 16384;
    reserved = malloc(cap * sizeof *reserved);
    if (!reserved)
        return;
    for (const char *const *w = generated_names; *w && nreserved < cap; w++)
        reserved[nreserved++] = *w;
    for (size_t i = 0; i < vocab.nentries && nreserved < cap; i++)
        reserved[nreserved++] = vocab.entries[i].name;
    collect(amp__cl_prelude, cap);
    for (int g = 0; g < GROUPS; g++)
        collect(pieces[g], cap);
    qsort(reserved, nreserved, sizeof *reserved, by_name);
}

int amp__vocab_reserves(const char *name, size_t length)
{
    pthread_once(&vocab_once, build_vocabulary);
    char word[128];
    if (length >= sizeof word)
        return 0;
    memcpy(word, name, length);
    word[length] = '\0';
    const char *key = word;
    return reserved && bsearch(&key, reserved, nreserved, sizeof *reserved, by_name) != NULL;
}
