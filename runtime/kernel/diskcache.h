/*
 * runtime/kernel/diskcache.h - the on-disk cache of built program binaries.
 *
 * Compiling a generated kernel costs tens to hundreds of milliseconds on
 * every run of a program; the in-process cache (kcache.c) only saves the
 * repeats within one run. This cache keeps each program's device binary in a
 * directory, one file per program, named by a SHA-256 key over everything the
 * binary depends on (source, build options, device, driver, library
 * version), so that a later run, or another process, builds from the binary
 * instead of the source.
 *
 * The cache is an optimization: every failure here is a miss, never an
 * error, and is silent except for an AMP_TRACE=kernels line. Files are
 * checked (magic, format version, key, size, SHA-256 checksum) before use;
 * a file that fails is removed so that it is written again.
 *
 * Environment:
 *   AMP_CACHE      0, off, no or false (any case) turns the cache off.
 *   AMP_CACHE_DIR  the directory; "" turns the cache off. Without it:
 *                  $XDG_CACHE_HOME/amp (when absolute), else
 *                  $HOME/.cache/amp.
 * The directory is created owner-only (0700). One owned by another user or
 * writable by group or others, or holding such a file, is refused: the
 * cache is off for the rest of the process, with one warning on stderr.
 *
 * File format (integers little-endian, 84-byte header):
 *   "AMPBIN\0\1"  8 bytes of magic
 *   uint32        format version (DC_FORMAT_VERSION)
 *   32 bytes      the key digest (a renamed file is caught)
 *   uint64        binary size (must equal the file size less the header)
 *   32 bytes      SHA-256 of (key digest || binary)
 *   the binary
 *
 * Files are written to a temporary file in the same directory, fsync'ed and
 * renamed over the final name, so several processes may store and load the
 * same key at once: a reader sees a whole old file or a whole new one.
 *
 * All functions expect the runtime lock to be held (the cache's settings
 * are process state); processes need no lock between them.
 */
#ifndef AMP_KERNEL_DISKCACHE_H
#define AMP_KERNEL_DISKCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "amp/accelerator.h"
#include "core/clapi.h"

/* The version written into, and required of, every file. Raise it when the
 * layout changes, so that old files read as misses and are replaced. */
#define DC_FORMAT_VERSION 1u

/* A program's key: the SHA-256 digest of what its binary depends on. The
 * all-zero digest means "no key" (see amp__dc_make_key): it never hits and is
 * never stored. */
typedef struct dc_key {
    uint8_t digest[32];
} dc_key;

/*
 * The key of a program built from source with options for acc: SHA-256
 * over, each prefixed by its length as a uint64: the source, the options,
 * the device name, its device and driver versions (CL_DEVICE_VERSION,
 * CL_DRIVER_VERSION), the platform name and AMP_VERSION_STRING. NULL source
 * or options count as "". Uses the strings the accelerator read when the
 * devices were listed, so it makes no OpenCL call.
 *
 * Returns 1, or 0 when acc is NULL or lacks those strings; *out is then the
 * all-zero "no key", which every function here treats as a miss, so a
 * caller that ignores the result is still safe.
 */
int amp__dc_make_key(const char *source, const char *options, const amp_accelerator *acc,
                     dc_key *out);

/*
 * Nonzero when the cache is on (see the environment above). The first call
 * after start-up or amp__dc_reset() reads the environment, creates the directory
 * and checks it; refusing it prints the one warning. Later calls only
 * return the answer.
 */
int amp__dc_enabled(void);

/*
 * Load the binary stored for key. Returns 1 with *binary malloc'ed (the
 * caller frees it) and *size set; returns 0, with *binary NULL and *size 0,
 * on a miss, when the cache is off, or when the file is truncated, corrupt,
 * tampered with or another key's (the file is then removed). Reads any
 * content without crashing and allocates only what the file's checked
 * header promises.
 */
int amp__dc_load(const dc_key *key, unsigned char **binary, size_t *size);

/*
 * Store size bytes of binary (copied; the caller keeps it) for key,
 * atomically: a unique temporary file (mkstemp, mode 0600) in the cache
 * directory, written, fsync'ed and renamed to the final name. Does nothing
 * when the cache is off, the key is the "no key" or size is 0. Failures are
 * silent except for an AMP_TRACE=kernels line.
 */
void amp__dc_store(const dc_key *key, const unsigned char *binary, size_t size);

/*
 * Make a built program from the cache: load the binary, then
 * clCreateProgramWithBinary and clBuildProgram(options) for dev in ctx.
 * Returns the program (the caller releases it), or NULL on a miss or any
 * failure. A binary the driver rejects (invalid binary, build failure) is
 * removed; one that failed for want of resources is kept.
 */
cl_program amp__dc_program_from_cache(cl_context ctx, cl_device_id dev, const dc_key *key,
                                      const char *options);

/*
 * Remove the file stored for key (a program that loaded but could not make
 * its kernel), saying why under AMP_TRACE=kernels, so that the next run
 * compiles and stores it again.
 */
void amp__dc_remove(const dc_key *key, const char *why);

/*
 * After prog was built from source for exactly one device: fetch its binary
 * (CL_PROGRAM_BINARY_SIZES, CL_PROGRAM_BINARIES) and amp__dc_store() it under
 * key. Does nothing (and makes no OpenCL call) when the cache is off; any
 * failure is silent, as in amp__dc_store().
 */
void amp__dc_store_program(cl_program prog, const dc_key *key);

/*
 * Forget the settings (directory, on/off) so that the next call reads the
 * environment again; frees what they held. For tests, and for shutdown.
 */
void amp__dc_reset(void);

/* ---- Internals, exposed for tests ---- */

/* The inputs of a key, as amp__dc_make_key() reads them from the device. */
typedef struct dc_key_parts {
    const char *source;
    const char *options;
    const char *device_name;
    const char *versions; /* device and driver versions */
    const char *platform_name;
    const char *library_version; /* AMP_VERSION_STRING in amp__dc_make_key() */
} dc_key_parts;

/* The key of these parts (NULL counts as ""). amp__dc_make_key() is this with
 * the device's strings and AMP_VERSION_STRING; tests call it to vary the
 * device and the library version. */
void amp__dc_key_from_parts(const dc_key_parts *parts, dc_key *out);

/*
 * Why an entry with status st may not be used by the user euid, or NULL
 * when it may: want_dir says whether it must be a directory (else a regular
 * file). Reasons: not a directory / not a regular file, owned by another
 * user, writable by group or others. Pure; tests pass a faked st_uid.
 */
const char *amp__dc_unsafe_reason(const struct stat *st, uid_t euid, int want_dir);

#endif
