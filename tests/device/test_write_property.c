/*
 * tests/device/test_write_property.c - random kernel bodies that use views in
 * randomly chosen syntactic forms, run on the device, against the same
 * body run as C on the host: the host must see what C computes, and a view
 * the body only reads must be left as it was.
 *
 * Each thread i works on its own elements v(i) (read and written) and w(i)
 * (only read), and three private ints. The generator builds a small tree,
 * prints it as OpenCL C in one of several spellings per construct, and
 * evaluates it as C would. AMP_TEST_SEED=<n> picks other bodies; the
 * failing body is printed whole.
 */
#include <stdlib.h>

#include "test_util.h"


enum { N = 16, PROGRAMS = 40, MAX_NODES = 256 };

typedef enum node_kind {
    /* expressions */
    E_LITERAL,
    E_INDEX,
    E_LOCAL,
    E_READ_V,
    E_READ_W,
    E_ADD,
    E_SUB,
    E_XOR,
    E_LESS_CHOICE,
    /* statements */
    S_SET_LOCAL,
    S_ASSIGN_V,
    S_ADD_V,
    S_STEP_V, /* ++ or -- */
    S_IF,
    S_BLOCK,
    S_LOOP
} node_kind;

typedef struct node {
    node_kind kind;
    int value;    /* a literal, a local's number, a step (+1, -1), a loop's count */
    int spelling; /* which of the construct's spellings is printed */
    int a, b, c;  /* children, by node number, -1 for none */
} node;

typedef struct program {
    node nodes[MAX_NODES];
    int count;
    unsigned seed;
} program;

static unsigned next_random(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static int pick(program *p, int n)
{
    return (int)(next_random(&p->seed) % (unsigned)n);
}

static int add_node(program *p, node_kind kind, int value, int a, int b, int c)
{
    if (p->count >= MAX_NODES)
        return -1;
    node *n = &p->nodes[p->count];
    n->kind = kind;
    n->value = value;
    n->spelling = pick(p, 8);
    n->a = a;
    n->b = b;
    n->c = c;
    return p->count++;
}

static int gen_expr(program *p, int depth)
{
    int k = depth <= 0 ? pick(p, 5) : pick(p, 9);
    switch (k) {
    case 0: return add_node(p, E_LITERAL, pick(p, 21), -1, -1, -1);
    case 1: return add_node(p, E_INDEX, 0, -1, -1, -1);
    case 2: return add_node(p, E_LOCAL, pick(p, 3), -1, -1, -1);
    case 3: return add_node(p, E_READ_V, 0, -1, -1, -1);
    case 4: return add_node(p, E_READ_W, 0, -1, -1, -1);
    case 5: return add_node(p, E_ADD, 0, gen_expr(p, depth - 1), gen_expr(p, depth - 1), -1);
    case 6: return add_node(p, E_SUB, 0, gen_expr(p, depth - 1), gen_expr(p, depth - 1), -1);
    case 7: return add_node(p, E_XOR, 0, gen_expr(p, depth - 1), gen_expr(p, depth - 1), -1);
    default:
        return add_node(p, E_LESS_CHOICE, 0, gen_expr(p, depth - 1), gen_expr(p, depth - 1),
                        gen_expr(p, depth - 1));
    }
}

static int gen_stmt(program *p, int depth)
{
    int k = depth <= 0 ? pick(p, 4) : pick(p, 7);
    switch (k) {
    case 0: return add_node(p, S_SET_LOCAL, pick(p, 3), gen_expr(p, 2), -1, -1);
    case 1: return add_node(p, S_ASSIGN_V, 0, gen_expr(p, 2), -1, -1);
    case 2: return add_node(p, S_ADD_V, 0, gen_expr(p, 2), -1, -1);
    case 3: return add_node(p, S_STEP_V, pick(p, 2) ? 1 : -1, -1, -1, -1);
    case 4:
        return add_node(p, S_IF, 0, gen_expr(p, 1), gen_stmt(p, depth - 1), gen_stmt(p, depth - 1));
    case 5: return add_node(p, S_BLOCK, 0, gen_stmt(p, depth - 1), gen_stmt(p, depth - 1), -1);
    default: return add_node(p, S_LOOP, 1 + pick(p, 3), gen_stmt(p, depth - 1), -1, -1);
    }
}

/* ---- Printing, as OpenCL C ---- */

static void print_expr(const program *p, int e, FILE *out)
{
    const node *n = &p->nodes[e];
    static const char *const reads_v[] = {"v(i)", "(v(i))", "v(idx)", "((v(i)))"};
    static const char *const reads_w[] = {"w(i)", "(w(i))", "w(idx)", "w(idx[0])"};
    switch (n->kind) {
    case E_LITERAL: fprintf(out, "%d", n->value); break;
    case E_INDEX: fputs(n->spelling % 2 ? "i" : "idx[0]", out); break;
    case E_LOCAL: fprintf(out, "t%d", n->value); break;
    case E_READ_V: fputs(reads_v[n->spelling % 4], out); break;
    case E_READ_W: fputs(reads_w[n->spelling % 4], out); break;
    case E_ADD:
    case E_SUB:
    case E_XOR:
        fputs("((", out);
        print_expr(p, n->a, out);
        fputs(n->kind == E_ADD ? " + " : n->kind == E_SUB ? " - " : " ^ ", out);
        print_expr(p, n->b, out);
        fputs(") & 1023)", out);
        break;
    case E_LESS_CHOICE:
        fputs("(", out);
        print_expr(p, n->a, out);
        fputs(" < 10 ? ", out);
        print_expr(p, n->b, out);
        fputs(" : ", out);
        print_expr(p, n->c, out);
        fputs(")", out);
        break;
    default: break;
    }
}

static void print_stmt(const program *p, int s, FILE *out)
{
    const node *n = &p->nodes[s];
    static const char *const assigns[] = {
        "v(i) = %s;", "(v(i)) = %s;", "((v(i))) = %s;", "*(&(v(i))) = %s;",
        "{ __global int *p = &(v(i)); *p = %s; }", "SET(v(i), %s);", "put(&(v(i)), %s);",
        "atomic_exchange(&(v(i)), %s);"};
    static const char *const adds[] = {
        "v(i) += %s;", "(v(i)) += %s;", "atomic_fetch_add(&(v(i)), %s);", "atomic_add(&v(i), %s);",
        "ADD(v(i), %s);", "{ int a = %s; v(idx) += a; }", "*(&v(i)) += %s;", "((v(i))) += %s;"};
    static const char *const ups[] = {"++(v(i));", "(v(i))++;", "v(i)++;", "++v(idx);",
                                      "atomic_inc(&(v(i)));", "atomic_fetch_inc(&v(i));",
                                      "v(i) += 1;", "STEP(v(i), 1);"};
    static const char *const downs[] = {"--(v(i));", "(v(i))--;", "v(i)--;", "--v(idx);",
                                        "atomic_dec(&(v(i)));", "atomic_fetch_dec(&v(i));",
                                        "v(i) -= 1;", "STEP(v(i), -1);"};
    /* The text of the statement's expression, printed first. */
    char *e = NULL;
    size_t e_length = 0;
    FILE *expr = open_memstream(&e, &e_length);
    assert_non_null(expr);
    if (n->kind == S_SET_LOCAL || n->kind == S_ASSIGN_V || n->kind == S_ADD_V || n->kind == S_IF)
        print_expr(p, n->a, expr);
    assert_int_equal(fclose(expr), 0);
    switch (n->kind) {
    case S_SET_LOCAL:
        fprintf(out, "t%d = %s;\n", n->value, e);
        break;
    case S_ASSIGN_V:
    case S_ADD_V:
        fprintf(out, (n->kind == S_ASSIGN_V ? assigns : adds)[n->spelling], e);
        fputs("\n", out);
        break;
    case S_STEP_V:
        fputs((n->value > 0 ? ups : downs)[n->spelling], out);
        fputs("\n", out);
        break;
    case S_IF:
        fprintf(out, "if (%s < 10) {\n", e);
        print_stmt(p, n->b, out);
        fputs("} else {\n", out);
        print_stmt(p, n->c, out);
        fputs("}\n", out);
        break;
    case S_BLOCK:
        fputs("{\n", out);
        print_stmt(p, n->a, out);
        print_stmt(p, n->b, out);
        fputs("}\n", out);
        break;
    case S_LOOP:
        fprintf(out, "for (int k%d = 0; k%d < %d; k%d++) {\n", s, s, n->value, s);
        print_stmt(p, n->a, out);
        fputs("}\n", out);
        break;
    default: break;
    }
    free(e);
}

/* ---- Running it as C ---- */

typedef struct thread_state {
    int i, v, w, t[3];
} thread_state;

static int eval(const program *p, int e, thread_state *s)
{
    const node *n = &p->nodes[e];
    switch (n->kind) {
    case E_LITERAL: return n->value;
    case E_INDEX: return s->i;
    case E_LOCAL: return s->t[n->value];
    case E_READ_V: return s->v;
    case E_READ_W: return s->w;
    case E_ADD: return (eval(p, n->a, s) + eval(p, n->b, s)) & 1023;
    case E_SUB: return (eval(p, n->a, s) - eval(p, n->b, s)) & 1023;
    case E_XOR: return (eval(p, n->a, s) ^ eval(p, n->b, s)) & 1023;
    case E_LESS_CHOICE: return eval(p, n->a, s) < 10 ? eval(p, n->b, s) : eval(p, n->c, s);
    default: return 0;
    }
}

static void run(const program *p, int st, thread_state *s)
{
    const node *n = &p->nodes[st];
    switch (n->kind) {
    case S_SET_LOCAL: s->t[n->value] = eval(p, n->a, s); break;
    case S_ASSIGN_V: s->v = eval(p, n->a, s); break;
    case S_ADD_V: s->v += eval(p, n->a, s); break;
    case S_STEP_V: s->v += n->value; break;
    case S_IF:
        if (eval(p, n->a, s) < 10)
            run(p, n->b, s);
        else
            run(p, n->c, s);
        break;
    case S_BLOCK:
        run(p, n->a, s);
        run(p, n->b, s);
        break;
    case S_LOOP:
        for (int k = 0; k < n->value; k++)
            run(p, n->a, s);
        break;
    default: break;
    }
}

AMP_FUNCTION(void, put, (__global int *p, int x), { *p = x; });

static char *bodies[PROGRAMS];

static void random_bodies_give_what_c_computes(void **state)
{
    (void)state;
    const char *env = getenv("AMP_TEST_SEED");
    unsigned seed = env ? (unsigned)strtoul(env, NULL, 10) : 2026u;
    int programs = RUNNING_ON_VALGRIND ? 4 : PROGRAMS;
    for (int k = 0; k < programs; k++) {
        program p;
        memset(&p, 0, sizeof p);
        p.seed = seed + (unsigned)k * 7919u;
        int first = gen_stmt(&p, 3), second = gen_stmt(&p, 3);
        if (first < 0 || second < 0)
            continue; /* too large: the next one */
        size_t length = 0;
        FILE *body = open_memstream(&bodies[k], &length);
        assert_non_null(body);
        fputs("{\nAMP_DEFINE(SET(e, x) (e) = (x))\nAMP_DEFINE(ADD(e, x) ((e) += (x)))\n"
              "AMP_DEFINE(STEP(e, d) (e) += (d))\nint i = idx[0];\n"
              "int t0 = 1, t1 = 2, t2 = 3;\n",
              body);
        print_stmt(&p, first, body);
        print_stmt(&p, second, body);
        fputs("}\n", body);
        assert_int_equal(fclose(body), 0);
        assert_non_null(bodies[k]);

        int v[N], w[N], want_v[N];
        for (int i = 0; i < N; i++) {
            v[i] = 5 * i + 1;
            w[i] = 900 - 3 * i;
            thread_state s = {i, v[i], w[i], {1, 2, 3}};
            run(&p, first, &s);
            run(&p, second, &s);
            want_v[i] = s.v;
        }
        amp_array_view *vv, *wv;
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), v, &vv));
        assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), w, &wv));
        amp_kernel_source src = {__FILE__, __LINE__, "idx", bodies[k], strlen(bodies[k]), 0};
        amp_capture caps[3] = {AMP__CAPTURE_ONE(vv), AMP__CAPTURE_ONE(wv), AMP__CAPTURE_ONE(put)};
        caps[0].name = "v";
        caps[1].name = "w";
        amp_status st = amp_parallel_for_each(NULL, amp_extent_1d(N), &src, (amp_capture_list){3, caps});
        if (st != AMP_OK)
            fail_msg("program %d (seed %u) failed: %s\n%s", k, p.seed, amp_last_error(), bodies[k]);
        assert_amp_ok(amp_array_view_release(vv));
        assert_amp_ok(amp_array_view_release(wv));
        for (int i = 0; i < N; i++) {
            if (v[i] != want_v[i])
                fail_msg("program %d (seed %u): v(%d) is %d on the device, %d in C:\n%s", k,
                         p.seed, i, v[i], want_v[i], bodies[k]);
            if (w[i] != 900 - 3 * i)
                fail_msg("program %d (seed %u): w(%d), only read, changed to %d:\n%s", k, p.seed,
                         i, w[i], bodies[k]);
        }
    }
}

static int free_bodies(void **state)
{
    shutdown_library(state);
    for (int k = 0; k < PROGRAMS; k++)
        free(bodies[k]);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(random_bodies_give_what_c_computes),
    };
    return cmocka_run_group_tests(tests, NULL, free_bodies);
}
