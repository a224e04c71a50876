/*
 * runtime/core/fault.c - the OpenCL call table's fault-injecting wrappers:
 * the hooks amp__test_inject_fault, amp__test_calls_counted and
 * amp__test_call_name (core/testing.h). Tests make the nth call fail with a
 * chosen error and learn which calls a piece of work makes; the library
 * never calls these.
 */
#include "core/clapi.h"
#include "core/limits.h"
#include "core/testing.h"

/* The table the wrappers call through: the loader's functions, or the ones
 * amp__ock_install() put in (AMP_CHECK), whichever the table held when faults
 * were first injected. */
static clapi_table real;

static long fault_at;
static long fault_calls;
static cl_int fault_code;
/* The names of the first calls since amp__test_inject_fault(), so that a test
 * can tell which call it made to fail, or choose calls of one kind. */
static const char *call_names[LIMIT_NAMED_CALLS + 1];

/* One more call: is it the one that must fail? */
static int fault_now(const char *name)
{
    fault_calls++;
    if (fault_calls <= LIMIT_NAMED_CALLS)
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

void amp__test_inject_fault(long n, cl_int code)
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

long amp__test_calls_counted(void)
{
    return fault_calls;
}

const char *amp__test_call_name(long n)
{
    return n >= 1 && n <= fault_calls && n <= LIMIT_NAMED_CALLS ? call_names[n] : NULL;
}
