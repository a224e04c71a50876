/*
 * runtime/core/handle.h - the registry of every handle the library hands
 * out, at addresses never handed out twice.
 *
 * Accelerators, accelerator views, array views, arrays, textures,
 * completions, kernel sources loaded from files and accelerator sets are
 * all allocated here,
 * each with its kind. The registry answers, for any address and without
 * reading the memory there, whether it is a live handle (and of which
 * kind), a handle that was released, or no handle of the library at all:
 * so a stale, foreign or made-up pointer is refused with a message, never
 * followed.
 *
 * If a new handle could take the address of a released one, the stale
 * pointer a user still holds would name the new object, and a release
 * through it would release that. Handles are therefore cut in sequence
 * from blocks of address space that are never given back to the system: a
 * block whose handles have all been freed returns its memory (its pages
 * are dropped) but keeps its addresses, so resident memory stays flat
 * while addresses are never reused for the life of the process.
 *
 * The handles the caller owns remember the file and line that made them
 * (the public headers' macros record them, amp__handle_site), and with
 * AMP_LEAKS=1 those still alive at exit are listed on stderr.
 *
 * Everything here but amp__handle_site and amp__handle_site_end expects
 * the runtime lock.
 */
#ifndef AMP_CORE_HANDLE_H
#define AMP_CORE_HANDLE_H

#include <stddef.h>
#include <stdint.h>

#include "amp/status.h"
#include "core/changes.h"
#include "core/lock.h"

/* What a handle is. */
typedef enum hd_kind {
    HD_ACCELERATOR = 1,
    HD_ACCELERATOR_VIEW,
    HD_VIEW,
    HD_ARRAY,
    HD_TEXTURE,
    HD_COMPLETION,
    HD_KERNEL_SOURCE,
    HD_ACCELERATOR_SET,
    HD_KIND_COUNT
} hd_kind;

/* Who releases it: the caller (the leak report lists it while it lives) or
 * the library (accelerators, default views, an array's own view). */
typedef enum hd_owner { HD_CALLER, HD_LIBRARY } hd_owner;

/* What the registry knows of an address. */
typedef enum hd_state {
    HD_FOREIGN,  /* never a handle of the library */
    HD_RELEASED, /* in the library's handle memory, and not live */
    HD_LIVE
} hd_state;

/* size bytes of zeroed memory for a handle of kind, registered live, at an
 * address no earlier call returned; NULL when out of memory. A caller's
 * handle takes the site the calling thread recorded (amp__handle_site). */
void *amp__handle_alloc(hd_kind kind, size_t size, hd_owner owner);

/* The handle is no longer live: lookups call it released. Its memory stays
 * until amp__handle_free() (a released accelerator view that a queue still
 * needs). Ending a handle twice does nothing. */
void amp__handle_end(void *p);

/* How many handles have ended so far: the core layer's count of change
 * (core/changes.h), counted by amp__handle_end alone. A pointer that was a
 * live handle when this was N is the same live handle while it is still N:
 * nothing ended since, so nothing was freed or reused. */
static inline uint64_t amp__handle_ended(void)
{
    LOCK_ASSERT_HELD();
    return amp__changes_of(CHANGES_CORE);
}

/* End the handle, if not done yet, and give its memory back; NULL is a
 * no-op. The address is never returned again. */
void amp__handle_free(void *p);

/* What p is, without reading the memory it points to; for a live handle,
 * its kind in *kind (when kind is not NULL). */
hd_state amp__handle_state(const void *p, hd_kind *kind);

/* Nonzero when p is a live handle of kind: the fast check of hot paths. */
int amp__handle_is(const void *p, hd_kind kind);

/* AMP_OK when p is a live handle of kind. Otherwise record, as the failure
 * of the public call fn, what p is (NULL, a released handle and what
 * released it, a handle of another kind, or no handle of the library)
 * and what to do, and return AMP_ERROR_INVALID_ARGUMENT. */
amp_status amp__handle_check(const char *fn, const void *p, hd_kind kind);
/* The same for one of several handles of the call, named by its role
 * ("source ", "destination "): "amp_copy: the source array ...". */
amp_status amp__handle_check_as(const char *fn, const char *role, const void *p, hd_kind kind);

/* The handles of kind that are live, in the order they were made: call
 * fn(handle, user) for each (a handle may be freed by fn). */
void amp__handle_each(hd_kind kind, void (*fn)(void *handle, void *user), void *user);

/* The public headers' macros (amp/status.h): the calling thread's next
 * handle was asked for at file:line by call, and the call has returned. No
 * lock needed. */
void amp__handle_site(const char *file, int line, const char *call);
void amp__handle_site_data(int data_type);
amp_status amp__handle_site_end(amp_status status);
/* What the calling thread's data pointer points to, as the macro of the
 * call in progress saw it: AMP_INT, AMP_UINT, AMP_FLOAT, AMP_DOUBLE, or 0
 * (another type, void *, or a call without the macro). */
int amp__handle_site_data_type(void);

#endif
