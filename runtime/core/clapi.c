/*
 * runtime/core/clapi.c - the OpenCL call table, its count of memory objects
 * made, and its fault-injecting wrappers.
 */
#include "core/clapi.h"

uint64_t amp__clapi_mems;

/* The implementation's makers of memory objects, which the table's
 * counting entries call: the loader's, or those amp__clapi_install() put
 * in. Only its CLAPI_MEM_CALLS are used. */
static clapi_table makers = {
#define CLAPI_MAKER_INIT(ret, name, params, args) .name = cl##name,
    CLAPI_MEM_CALLS(CLAPI_MAKER_INIT)
#undef CLAPI_MAKER_INIT
};

#define CLAPI_COUNT(ret, name, params, args)                                                       \
    static ret CL_API_CALL counted_##name params                                                   \
    {                                                                                              \
        amp__clapi_mems++;                                                                         \
        return makers.name args;                                                                   \
    }
CLAPI_MEM_CALLS(CLAPI_COUNT)
#undef CLAPI_COUNT

clapi_table amp__clapi = {
#define CLAPI_STATUS_INIT(name, params, args) .name = cl##name,
#define CLAPI_OBJECT_INIT(ret, name, params, args) .name = cl##name,
#define CLAPI_COUNTED_INIT(ret, name, params, args) .name = counted_##name,
#define CLAPI_RELEASE_INIT(name, type) .name = cl##name,
    CLAPI_STATUS_CALLS(CLAPI_STATUS_INIT) CLAPI_OBJECT_CALLS(CLAPI_OBJECT_INIT)
        CLAPI_MEM_CALLS(CLAPI_COUNTED_INIT) CLAPI_RELEASE_CALLS(CLAPI_RELEASE_INIT)
#undef CLAPI_STATUS_INIT
#undef CLAPI_OBJECT_INIT
#undef CLAPI_COUNTED_INIT
#undef CLAPI_RELEASE_INIT
};

void amp__clapi_install(const clapi_table *table)
{
    amp__clapi = *table;
    /* A table that counts already (this one, saved and put back) keeps
     * the makers it counts for. */
#define CLAPI_COUNT_INSTALL(ret, name, params, args)                                               \
    if (table->name != counted_##name)                                                             \
        makers.name = table->name;                                                                 \
    amp__clapi.name = counted_##name;
    CLAPI_MEM_CALLS(CLAPI_COUNT_INSTALL)
#undef CLAPI_COUNT_INSTALL
}

/* The table the wrappers call through: the loader's functions, or the ones
 * amp__ock_install() put in (AMP_CHECK), whichever the table held when faults
 * were first injected. */
static clapi_table real;

static long fault_at;
static long fault_calls;
static cl_int fault_code;
/* The names of the first calls since amp__clapi_inject_fault(), so that a test
 * can tell which call it made to fail, or choose calls of one kind. */
#define CLAPI_NAMED_CALLS 4096
static const char *call_names[CLAPI_NAMED_CALLS + 1];

/* One more call: is it the one that must fail? */
static int fault_now(const char *name)
{
    fault_calls++;
    if (fault_calls <= CLAPI_NAMED_CALLS)
        call_names[fault_calls] = name;
    return fault_at > 0 && fault_calls == fault_at;
}

#define CLAPI_STATUS_WRAP(name, params, args)                                                      \
    static cl_int CL_API_CALL fault_##name params                                                  \
    {                                                                                              \
        if (fault_now("cl" #name))                                                                 \
            return fault_code;                                                                     \
        return real.name args;                                                                     \
    }
#define CLAPI_CREATE_WRAP(ret, name, params, args)                                                 \
    static ret CL_API_CALL fault_##name params                                                     \
    {                                                                                              \
        if (fault_now("cl" #name)) {                                                               \
            if (e)                                                                                 \
                *e = fault_code;                                                                   \
            return NULL;                                                                           \
        }                                                                                          \
        return real.name args;                                                                     \
    }
CLAPI_STATUS_CALLS(CLAPI_STATUS_WRAP)
CLAPI_CREATE_CALLS(CLAPI_CREATE_WRAP)
#undef CLAPI_STATUS_WRAP
#undef CLAPI_CREATE_WRAP

void amp__clapi_inject_fault(long n, cl_int code)
{
    /* Save the functions in use, unless they are the wrappers already. */
    if (amp__clapi.Finish != fault_Finish)
        real = amp__clapi;
    fault_at = n;
    fault_code = code;
    fault_calls = 0;
#define CLAPI_STATUS_SET(name, params, args) amp__clapi.name = fault_##name;
#define CLAPI_CREATE_SET(ret, name, params, args) amp__clapi.name = fault_##name;
    CLAPI_STATUS_CALLS(CLAPI_STATUS_SET)
    CLAPI_CREATE_CALLS(CLAPI_CREATE_SET)
#undef CLAPI_STATUS_SET
#undef CLAPI_CREATE_SET
}

long amp__clapi_calls_counted(void)
{
    return fault_calls;
}

const char *amp__clapi_call_name(long n)
{
    return n >= 1 && n <= fault_calls && n <= CLAPI_NAMED_CALLS ? call_names[n] : NULL;
}

/* ---- After fork ---- */

/* The wrappers take OpenCL's parameters and use none of them. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

#define CLAPI_STATUS_FORKED(name, params, args)                                                    \
    static cl_int CL_API_CALL forked_##name params                                                 \
    {                                                                                              \
        return CLAPI_FORKED;                                                                       \
    }
#define CLAPI_CREATE_FORKED(ret, name, params, args)                                               \
    static ret CL_API_CALL forked_##name params                                                    \
    {                                                                                              \
        if (e)                                                                                     \
            *e = CLAPI_FORKED;                                                                     \
        return NULL;                                                                               \
    }
#define CLAPI_RELEASE_FORKED(name, type)                                                           \
    static cl_int CL_API_CALL forked_##name(type object)                                           \
    {                                                                                              \
        return CL_SUCCESS;                                                                         \
    }
CLAPI_STATUS_CALLS(CLAPI_STATUS_FORKED)
CLAPI_CREATE_CALLS(CLAPI_CREATE_FORKED)
CLAPI_RELEASE_CALLS(CLAPI_RELEASE_FORKED)
#undef CLAPI_STATUS_FORKED
#undef CLAPI_CREATE_FORKED
#undef CLAPI_RELEASE_FORKED
#pragma GCC diagnostic pop

void amp__clapi_disable_after_fork(void)
{
#define CLAPI_STATUS_SET(name, params, args) amp__clapi.name = forked_##name;
#define CLAPI_CREATE_SET(ret, name, params, args) amp__clapi.name = forked_##name;
#define CLAPI_RELEASE_SET(name, type) amp__clapi.name = forked_##name;
    CLAPI_STATUS_CALLS(CLAPI_STATUS_SET)
    CLAPI_CREATE_CALLS(CLAPI_CREATE_SET)
    CLAPI_RELEASE_CALLS(CLAPI_RELEASE_SET)
#undef CLAPI_STATUS_SET
#undef CLAPI_CREATE_SET
#undef CLAPI_RELEASE_SET
}
