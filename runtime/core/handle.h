/*
 * runtime/core/handle.h - memory for handles, at addresses never handed out
 * twice.
 *
 * The library knows a live handle by its address. If a new handle could
 * take the address of a released one, the stale pointer a user still holds
 * would name the new object, and a release through it would release that.
 * Handles are therefore cut in sequence from blocks of address space that
 * are never given back to the system: a block whose handles have all been
 * released returns its memory (its pages are dropped) but keeps its
 * addresses, so resident memory stays flat while addresses are never
 * reused for the life of the process.
 */
#ifndef AMP_CORE_HANDLE_H
#define AMP_CORE_HANDLE_H

#include <stddef.h>

/* size bytes of zeroed memory at an address no earlier amp__handle_alloc() returned;
 * NULL when out of memory. Expects the runtime lock. */
void *amp__handle_alloc(size_t size);

/* Give back what amp__handle_alloc() returned; NULL is a no-op. The address is
 * never returned again. Expects the runtime lock. */
void amp__handle_free(void *p);

#endif
