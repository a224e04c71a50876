/*
 * runtime/core/env.h - every setting the library takes from the
 * environment, read in this one place.
 *
 * Each getter reads its variable when it is called, and its caller calls
 * it at the moment the setting takes effect, as the documentation of each
 * variable says: AMP_SPLIT_CPU, AMP_PROFILE and AMP_CHECK when the devices
 * are listed (the first call, and the first after amp_shutdown()),
 * AMP_TIMELINE and AMP_TIMELINE_MAX_EVENTS as the library is loaded,
 * AMP_DEVICE when the default accelerator is chosen, AMP_CACHE and its
 * folder when the disk cache is first used after a start. The settings read
 * on hot paths, AMP_TRACE and AMP_DUMP_KERNELS, are read once per process.
 *
 * On/off settings follow one rule (amp__env_flag): unset or empty gives the
 * default; 1, on, true, yes (any case) or any nonzero number is on; 0, off,
 * false, no is off; anything else is off, with a warning on stderr naming
 * the variable and the words it takes.
 *
 * Strings returned point into the environment: use them before the next
 * setenv(), or copy them.
 */
#ifndef AMP_CORE_ENV_H
#define AMP_CORE_ENV_H

/* The on/off value of the variable name; def when unset or empty. */
int amp__env_flag(const char *name, int def);

/* AMP_TRACE=transfers (or all, or 1): print every transfer. */
int amp__env_trace_transfers(void);
/* AMP_TRACE=kernels (or all, or 1): print every kernel build and cache hit. */
int amp__env_trace_kernels(void);
/* AMP_DUMP_KERNELS: the folder that receives generated kernels, or NULL. */
const char *amp__env_dump_dir(void);

/* AMP_PROFILE, a flag, off by default. */
int amp__env_profile(void);
/* AMP_CHECK: a flag, or a list holding "races" or "all"; off by default. */
int amp__env_check(void);
/* AMP_TIMELINE: the file the timeline is written to, or NULL (read once,
 * as the library is loaded: core/timeline.c). */
const char *amp__env_timeline(void);
/* AMP_TIMELINE_KERNELS: 1 for "all" (every kernel timed on the device), 0
 * for "sampled" or unset (device/devtime.h); another value is warned of and
 * taken as "sampled". */
int amp__env_timeline_kernels(void);

/* AMP_TIMELINE_MAX_EVENTS: the bound on the timeline's events; def when
 * unset or empty, and (with a warning) when it is not a number >= 1. */
long long amp__env_timeline_max_events(long long def);
/* AMP_LEAKS, a flag, off by default. */
int amp__env_leaks(void);
/* AMP_CACHE, a flag, on by default. */
int amp__env_cache(void);

/* AMP_DEVICE, AMP_SPLIT_CPU, TMPDIR: NULL when unset or empty. */
const char *amp__env_device(void);
const char *amp__env_split_cpu(void);
const char *amp__env_tmpdir(void);
/* AMP_CACHE_DIR as given ("" when set empty), XDG_CACHE_HOME, HOME: NULL
 * when unset. */
const char *amp__env_cache_dir(void);
const char *amp__env_xdg_cache_home(void);
const char *amp__env_home(void);

#endif
