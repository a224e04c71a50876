/*
 * runtime/core/testing.h - what tests may reach inside the runtime, in one
 * place: the OpenCL call table (core/clapi.h, whose entries a test may
 * point at fakes), the runtime's limits (core/limits.h), and the hooks below,
 * amp__test_*, which the library never calls.
 *
 * A test of the library's behaviour includes this header and no other of
 * the runtime's. A unit test of one module (the kernel front end, the disk
 * cache, the environment ...) includes that module's header instead: it is
 * the interface under test.
 *
 * Each hook is defined in the module whose state it reaches, which
 * includes this header so that both agree; this header declares them for
 * every layer, and so includes nothing above core. None is thread-safe:
 * call them between a test's calls of the library, not during one.
 */
#ifndef AMP_CORE_TESTING_H
#define AMP_CORE_TESTING_H

#include <stddef.h>

#include "amp/amp.h"
#include "core/clapi.h"
#include "core/limits.h"

/* ---- core/clapi.c: failing one OpenCL call ---- */

/*
 * Make the nth OpenCL call from now on (1 = the next one; releases are not
 * counted) fail with code, and every other call behave as usual; n = 0
 * switches injection off. Counting starts afresh at each call.
 */
void amp__test_inject_fault(long n, cl_int code);

/* The calls counted since the last amp__test_inject_fault(), so that a test
 * can learn how many calls a scenario makes and try each one. */
long amp__test_calls_counted(void);

/* The name of the nth call since the last amp__test_inject_fault()
 * ("clCreateBuffer"), or NULL when there has been no nth call (or n is past
 * the first LIMIT_NAMED_CALLS, whose names are kept). */
const char *amp__test_call_name(long n);

/* ---- core/clock.c: how the clock is read ---- */

/* Read the kernel's clocksource from path instead of sysfs, and decide
 * again at the next reading how to read the clock (core/clock.h); this
 * thread's readings start afresh. */
void amp__test_clock_source_file(const char *path);

/* ---- device/queue.c: the OpenCL objects behind a handle ---- */

/* An accelerator's or a view's OpenCL objects. They stay the library's: a
 * test may query them and queue work of its own, and releases nothing. */
typedef struct test_cl_objects {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;     /* NULL while the accelerator has no view yet */
    cl_command_queue queue; /* a view's; NULL for an accelerator */
} test_cl_objects;

/* The objects of a live accelerator, and of a live accelerator view. */
test_cl_objects amp__test_cl_of_accelerator(const amp_accelerator *acc);
test_cl_objects amp__test_cl_of_view(const amp_accelerator_view *av);

/* ---- device/accel.c: what a device can do, as the runtime believes ---- */

/* The features and limits that the runtime checks a call against, read
 * from the device when it was listed. A test sets them to make a device
 * without double precision, say, and sets them back after. */
typedef struct test_device_caps {
    int fp64;             /* double precision */
    int atomics;          /* 32-bit global and local atomics */
    cl_uint address_bits; /* CL_DEVICE_ADDRESS_BITS */
    size_t max_arg_bytes; /* CL_DEVICE_MAX_PARAMETER_SIZE */
} test_device_caps;

test_device_caps amp__test_device_caps(const amp_accelerator *acc);
void amp__test_set_device_caps(amp_accelerator *acc, test_device_caps caps);

/* ---- device/oclcheck.c: AMP_CHECK ---- */

/* What AMP_CHECK does to put Oclgrind in place, with the one library path
 * given. Statuses as amp__ock_install(), plus AMP_ERROR_INVALID_ARGUMENT
 * for NULL. */
amp_status amp__test_install_oclgrind(const char *path);

/* ---- device/profile.c ---- */

/* How many profiled launches have events not read yet (AMP_PROFILE). */
size_t amp__test_profile_pending(void);

/* ---- api/timeline.c ---- */

/* Stop the timeline's recording without writing its file (which
 * amp_timeline_stop() writes): amp_timeline_start(NULL) goes on recording
 * in the same file. For a benchmark that times launches with the timeline
 * on and off in turns. Takes the library's lock. */
void amp__test_timeline_pause(void);

/* ---- data/staging.c: the path a transfer takes ---- */

/* The ways host memory and a device buffer exchange bytes: one OpenCL
 * call, a mapped buffer, or chunks through page-locked staging buffers. */
typedef enum test_transfer_path {
    TEST_PATH_AUTO,   /* as the device and the size decide (set: the defaults again) */
    TEST_PATH_DIRECT, /* one read or write call */
    TEST_PATH_MAPPED, /* a mapped buffer, filled on several threads */
    TEST_PATH_STAGED  /* chunks through page-locked buffers, as on a GPU, and
                         page-locked memory direct */
} test_transfer_path;

/* Take path for every transfer of at least min_bytes (smaller ones go
 * direct), with staging buffers of slot_bytes (0: the default).
 * TEST_PATH_AUTO with 0, 0 restores the defaults. Takes the library's lock. */
void amp__test_set_transfer_path(test_transfer_path path, size_t slot_bytes, size_t min_bytes);

/* The path the last transfer took. */
test_transfer_path amp__test_last_transfer_path(void);

/* ---- data/texture.c ---- */

/* How a texture's image is kept. */
typedef struct test_texture_image {
    int folded;          /* rank 1, in the rows of a 2D image (wider than the
                            device's 1D image limit) */
    int stored_channels; /* channels per texel in the image: 4 where the
                            device lacks the format of the texture's own */
} test_texture_image;

test_texture_image amp__test_texture_image(const amp_texture *texture);

/* ---- kernel/diskcache.c ---- */

/* The disk cache's directory (the module's, valid until amp__dc_reset()),
 * or NULL when the cache is off; the settings are read as for a kernel. */
const char *amp__test_disk_cache_directory(void);

/* ---- kernel/codegen.c: the safety net ---- */

/* While on is nonzero, code generation ignores the write analysis (as if
 * it had missed every write), so that only the rebuild after a compiler's
 * complaint makes a view writable. */
void amp__test_blind_analysis(int on);

#endif
