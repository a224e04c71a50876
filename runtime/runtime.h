/*
 * runtime/runtime.h - the process-wide lock, and settings read from the
 * environment once.
 *
 * Every public entry point takes the lock for its whole duration, so that
 * the caches, the data sources and the OpenCL objects (a cl_kernel's
 * arguments are not thread-safe) are changed by one thread at a time.
 * Internal functions never take it: they expect the caller to hold it.
 */
#ifndef RT_RUNTIME_H
#define RT_RUNTIME_H

void rt_lock(void);
/* Releases the lock, then reports a failure of the call to the error
 * callback, if one is waiting (error.c). */
void rt_unlock(void);
/* Nonzero when this thread holds the lock. */
int rt_holds_lock(void);

/* AMP_PROFILE: print the profile table to stderr at exit (registered
 * once). */
void rt_profile_at_exit(void);

/* AMP_TRACE=transfers (or all): print every transfer to stderr. */
int rt_trace_transfers(void);
/* AMP_TRACE=kernels (or all): print every kernel build and cache hit. */
int rt_trace_kernels(void);
/* AMP_DUMP_KERNELS: the folder that receives generated kernels, or NULL. */
const char *rt_dump_dir(void);

#endif
