/*
 * runtime/core/clapi.c - the OpenCL call table, its count of memory objects
 * made, and what it does in the child of a fork(). Its fault-injecting
 * wrappers, for tests, are core/fault.c's.
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
