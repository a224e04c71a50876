/*
 * amp/amp.h - the one header to include: C++ AMP's tile-parallel model in
 * C, on any OpenCL device.
 *
 *   status.h       status codes, amp_last_error()
 *   limits.h       every limit a program can reach, AMP_MAX_*
 *   extent.h       amp_extent, amp_index, amp_tiled_extent
 *   accelerator.h  devices, their views (queues), the default choice
 *   array_view.h   views of host memory that move to the device lazily
 *   texture.h      read-only textures (OpenCL images) for kernels
 *   struct_type.h  plain structs as element types
 *   transfer.h     the ledger of every transfer
 *   kernel.h       amp_parallel_for_each and the kernel macros
 *   profile.h      device time and data moved per kernel (AMP_PROFILE=1)
 *
 * Thread safety: every function may be called from any thread, with
 * handles shared between threads; one process-wide lock makes each call
 * atomic, and kernels run in the order their calls took the lock. What the
 * caller orders itself: its own reads and writes of host memory against
 * calls that copy the same elements, a release against other uses of the
 * handle (a released handle then gives AMP_ERROR_INVALID_ARGUMENT, never
 * another object), and amp_shutdown() against every other call. The whole
 * contract is in docs/reliability.md.
 *
 * Handles: every handle the library hands out is known by its address,
 * which is never handed out again. A released, made-up or foreign pointer,
 * a second release, or a handle used after amp_shutdown() released it,
 * gets AMP_ERROR_INVALID_ARGUMENT with a message naming the call; releasing
 * NULL does nothing. With AMP_LEAKS=1 in the environment, the handles the
 * program made and never released are listed on stderr at exit, each with
 * the file and line that made it.
 */
#ifndef AMP_AMP_H
#define AMP_AMP_H

#include "accelerator.h"
#include "array.h"
#include "array_view.h"
#include "completion.h"
#include "extent.h"
#include "kernel.h"
#include "limits.h"
#include "profile.h"
#include "status.h"
#include "struct_type.h"
#include "texture.h"
#include "transfer.h"

/* The headers' version: AMP_VERSION_MAJOR, _MINOR, _PATCH and _STRING.
 * amp/version.h is generated from the build's project(VERSION): it lies in
 * the build tree's include/ (on the include path of whatever links
 * amp::amp) or, installed, next to this header. */
#include <amp/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library that is linked, as "major.minor.patch". */
const char *amp_version(void);

#ifdef __cplusplus
}
#endif

#endif
