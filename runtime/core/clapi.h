/*
 * runtime/core/clapi.h - every OpenCL call the runtime makes, through one table.
 *
 * The runtime never calls clXxx() directly: it calls amp__clapi.Xxx(). The table
 * normally points at the ICD loader's functions. Tests can switch it to
 * wrappers that make the Nth call fail with a chosen error
 * (amp__test_inject_fault, core/testing.h), to prove that every failure gives
 * a status, leaks nothing and loses no host data.
 */
#ifndef AMP_CORE_CLAPI_H
#define AMP_CORE_CLAPI_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdint.h>

/* From cl_khr_icd: what the ICD loader answers when no platform is
 * installed. Defined here so that cl_ext.h is not needed. */
#ifndef CL_PLATFORM_NOT_FOUND_KHR
#define CL_PLATFORM_NOT_FOUND_KHR -1001
#endif

/* Calls that return a cl_int status: X(name, parameters, arguments). */
#define CLAPI_STATUS_CALLS(X)                                                                      \
    X(GetPlatformIDs, (cl_uint n, cl_platform_id * p, cl_uint * np), (n, p, np))                   \
    X(GetPlatformInfo, (cl_platform_id p, cl_platform_info i, size_t s, void *v, size_t *r),       \
      (p, i, s, v, r))                                                                             \
    X(GetDeviceIDs,                                                                                \
      (cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id * d, cl_uint * nd),             \
      (p, t, n, d, nd))                                                                            \
    X(GetDeviceInfo, (cl_device_id d, cl_device_info i, size_t s, void *v, size_t *r),             \
      (d, i, s, v, r))                                                                             \
    X(EnqueueWriteBuffer,                                                                          \
      (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t n, const void *p, cl_uint ne,     \
       const cl_event *w, cl_event *e),                                                            \
      (q, m, b, o, n, p, ne, w, e))                                                                \
    X(EnqueueReadBuffer,                                                                           \
      (cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t n, void *p, cl_uint ne,           \
       const cl_event *w, cl_event *e),                                                            \
      (q, m, b, o, n, p, ne, w, e))                                                                \
    X(BuildProgram,                                                                                \
      (cl_program p, cl_uint n, const cl_device_id *d, const char *o,                              \
       void(CL_CALLBACK * f)(cl_program, void *), void *u),                                        \
      (p, n, d, o, f, u))                                                                          \
    X(GetProgramBuildInfo,                                                                         \
      (cl_program p, cl_device_id d, cl_program_build_info i, size_t s, void *v, size_t *r),       \
      (p, d, i, s, v, r))                                                                          \
    X(GetProgramInfo, (cl_program p, cl_program_info i, size_t s, void *v, size_t *r),             \
      (p, i, s, v, r))                                                                             \
    X(SetKernelArg, (cl_kernel k, cl_uint i, size_t s, const void *v), (k, i, s, v))               \
    X(GetKernelWorkGroupInfo,                                                                      \
      (cl_kernel k, cl_device_id d, cl_kernel_work_group_info i, size_t s, void *v, size_t *r),    \
      (k, d, i, s, v, r))                                                                          \
    X(EnqueueNDRangeKernel,                                                                        \
      (cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *o, const size_t *g,             \
       const size_t *l, cl_uint ne, const cl_event *w, cl_event *e),                               \
      (q, k, dim, o, g, l, ne, w, e))                                                              \
    X(EnqueueWriteBufferRect,                                                                      \
      (cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho,                \
       const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, const void *p, cl_uint ne, \
       const cl_event *w, cl_event *e),                                                            \
      (q, m, b, bo, ho, r, brp, bsp, hrp, hsp, p, ne, w, e))                                       \
    X(EnqueueReadBufferRect,                                                                       \
      (cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho,                \
       const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, void *p, cl_uint ne,       \
       const cl_event *w, cl_event *e),                                                            \
      (q, m, b, bo, ho, r, brp, bsp, hrp, hsp, p, ne, w, e))                                       \
    X(EnqueueCopyBufferRect,                                                                       \
      (cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *dO,                 \
       const size_t *r, size_t srp, size_t ssp, size_t drp, size_t dsp, cl_uint ne,                \
       const cl_event *w, cl_event *e),                                                            \
      (q, s, d, so, dO, r, srp, ssp, drp, dsp, ne, w, e))                                          \
    X(EnqueueUnmapMemObject,                                                                       \
      (cl_command_queue q, cl_mem m, void *p, cl_uint ne, const cl_event *w, cl_event *ev),        \
      (q, m, p, ne, w, ev))                                                                        \
    X(Finish, (cl_command_queue q), (q))                                                           \
    X(Flush, (cl_command_queue q), (q))                                                            \
    X(GetSupportedImageFormats,                                                                    \
      (cl_context c, cl_mem_flags f, cl_mem_object_type t, cl_uint n, cl_image_format * v,         \
       cl_uint * nv),                                                                              \
      (c, f, t, n, v, nv))                                                                         \
    X(EnqueueWriteImage,                                                                           \
      (cl_command_queue q, cl_mem m, cl_bool b, const size_t *o, const size_t *r, size_t rp,       \
       size_t sp, const void *p, cl_uint ne, const cl_event *w, cl_event *e),                      \
      (q, m, b, o, r, rp, sp, p, ne, w, e))                                                        \
    X(EnqueueReadImage,                                                                            \
      (cl_command_queue q, cl_mem m, cl_bool b, const size_t *o, const size_t *r, size_t rp,       \
       size_t sp, void *p, cl_uint ne, const cl_event *w, cl_event *e),                            \
      (q, m, b, o, r, rp, sp, p, ne, w, e))                                                        \
    X(EnqueueCopyImage,                                                                            \
      (cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *dO,                 \
       const size_t *r, cl_uint ne, const cl_event *w, cl_event *e),                               \
      (q, s, d, so, dO, r, ne, w, e))                                                              \
    X(EnqueueCopyImageToBuffer,                                                                    \
      (cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *r, size_t off,      \
       cl_uint ne, const cl_event *w, cl_event *e),                                                \
      (q, s, d, so, r, off, ne, w, e))                                                             \
    X(EnqueueCopyBufferToImage,                                                                    \
      (cl_command_queue q, cl_mem s, cl_mem d, size_t off, const size_t *dO, const size_t *r,      \
       cl_uint ne, const cl_event *w, cl_event *e),                                                \
      (q, s, d, off, dO, r, ne, w, e))                                                             \
    X(EnqueueFillImage,                                                                            \
      (cl_command_queue q, cl_mem m, const void *c, const size_t *o, const size_t *r, cl_uint ne,  \
       const cl_event *w, cl_event *e),                                                            \
      (q, m, c, o, r, ne, w, e))                                                                   \
    X(EnqueueMarkerWithWaitList, (cl_command_queue q, cl_uint ne, const cl_event *w, cl_event *e), \
      (q, ne, w, e))                                                                               \
    X(EnqueueBarrierWithWaitList,                                                                  \
      (cl_command_queue q, cl_uint ne, const cl_event *w, cl_event *e), (q, ne, w, e))             \
    X(WaitForEvents, (cl_uint n, const cl_event *w), (n, w))                                       \
    X(GetEventInfo, (cl_event ev, cl_event_info i, size_t s, void *v, size_t *r),                  \
      (ev, i, s, v, r))                                                                            \
    X(GetEventProfilingInfo, (cl_event ev, cl_profiling_info i, size_t s, void *v, size_t *r),     \
      (ev, i, s, v, r))                                                                            \
    X(RetainEvent, (cl_event ev), (ev))                                                            \
    X(GetCommandQueueInfo,                                                                         \
      (cl_command_queue q, cl_command_queue_info i, size_t s, void *v, size_t *r),                 \
      (q, i, s, v, r))                                                                             \
    X(CreateSubDevices,                                                                            \
      (cl_device_id d, const cl_device_partition_property *p, cl_uint n, cl_device_id *o,          \
       cl_uint *no),                                                                               \
      (d, p, n, o, no))

/* Calls that create an object and report through their last parameter:
 * X(return type, name, parameters before errcode_ret, arguments). They are
 * CLAPI_OBJECT_CALLS and CLAPI_MEM_CALLS. */
#define CLAPI_OBJECT_CALLS(X)                                                                      \
    X(cl_context, CreateContext,                                                                   \
      (const cl_context_properties *p, cl_uint n, const cl_device_id *d,                           \
       void(CL_CALLBACK * f)(const char *, const void *, size_t, void *), void *u, cl_int *e),     \
      (p, n, d, f, u, e))                                                                          \
    X(cl_command_queue, CreateCommandQueue,                                                        \
      (cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int * e), (c, d, p, e))     \
    X(cl_program, CreateProgramWithSource,                                                         \
      (cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *e), (c, n, s, l, e))      \
    X(cl_program, CreateProgramWithBinary,                                                         \
      (cl_context c, cl_uint n, const cl_device_id *d, const size_t *l, const unsigned char **b,   \
       cl_int *s, cl_int *e),                                                                      \
      (c, n, d, l, b, s, e))                                                                       \
    X(cl_kernel, CreateKernel, (cl_program p, const char *n, cl_int *e), (p, n, e))                \
    X(void *, EnqueueMapBuffer,                                                                    \
      (cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t o, size_t n, cl_uint ne,    \
       const cl_event *w, cl_event *ev, cl_int *e),                                                \
      (q, m, b, f, o, n, ne, w, ev, e))

/* Those that make a memory object, counted inside the table
 * (amp__clapi_mems_made). */
#define CLAPI_MEM_CALLS(X)                                                                         \
    X(cl_mem, CreateBuffer, (cl_context c, cl_mem_flags f, size_t s, void *h, cl_int *e),          \
      (c, f, s, h, e))                                                                             \
    X(cl_mem, CreateImage,                                                                         \
      (cl_context c, cl_mem_flags f, const cl_image_format *fmt, const cl_image_desc *d, void *h,  \
       cl_int *e),                                                                                 \
      (c, f, fmt, d, h, e))

#define CLAPI_CREATE_CALLS(X) CLAPI_OBJECT_CALLS(X) CLAPI_MEM_CALLS(X)

/* Releases: never made to fail, since a failed release can only leak. */
#define CLAPI_RELEASE_CALLS(X)                                                                     \
    X(ReleaseContext, cl_context)                                                                  \
    X(ReleaseCommandQueue, cl_command_queue)                                                       \
    X(ReleaseMemObject, cl_mem)                                                                    \
    X(ReleaseProgram, cl_program)                                                                  \
    X(ReleaseKernel, cl_kernel)                                                                    \
    X(ReleaseEvent, cl_event)                                                                      \
    X(ReleaseDevice, cl_device_id)

typedef struct clapi_table {
#define CLAPI_STATUS_FIELD(name, params, args) cl_int(CL_API_CALL *name) params;
#define CLAPI_CREATE_FIELD(ret, name, params, args) ret(CL_API_CALL *name) params;
#define CLAPI_RELEASE_FIELD(name, type) cl_int(CL_API_CALL *name)(type);
    CLAPI_STATUS_CALLS(CLAPI_STATUS_FIELD)
    CLAPI_CREATE_CALLS(CLAPI_CREATE_FIELD)
    CLAPI_RELEASE_CALLS(CLAPI_RELEASE_FIELD)
#undef CLAPI_STATUS_FIELD
#undef CLAPI_CREATE_FIELD
#undef CLAPI_RELEASE_FIELD
} clapi_table;

/* The table the runtime calls through. */
extern clapi_table amp__clapi;

/* Point the table at another OpenCL implementation (AMP_CHECK's Oclgrind,
 * device/oclcheck.c): every call goes to table's functions from now on,
 * and memory objects are still counted. */
void amp__clapi_install(const clapi_table *table);

/* How many buffers and images were made through the table. Every call of
 * CLAPI_MEM_CALLS is counted inside the table, whoever makes it, so that a
 * new maker of memory objects cannot forget to count. A handle one of them
 * returns may be the handle of an object released before: a cache of
 * handles (the kernels' argument memo, kernel/bind.c) holds its handles
 * only while this count stands still. */
extern uint64_t amp__clapi_mems;

static inline uint64_t amp__clapi_mems_made(void)
{
    return amp__clapi_mems;
}

/*
 * In a process forked after the library had used OpenCL: make every later
 * OpenCL call return CLAPI_FORKED at once, and every release do nothing.
 * OpenCL implementations do not survive fork(): the child has their state
 * but none of their threads, and a call that waits for one never returns.
 * Called from the child's fork handler (device/accel.c); the error layer
 * turns the code into a message that says what to do.
 */
#define CLAPI_FORKED (-9999) /* none of OpenCL's codes */
void amp__clapi_disable_after_fork(void);

#endif
