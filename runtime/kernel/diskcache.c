/*
 * runtime/kernel/diskcache.c - the on-disk cache of built program binaries: the
 * key, the directory and its checks, the file format, and the OpenCL part
 * (binary in, binary out).
 */
#include "kernel/diskcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "amp/amp.h"
#include "core/env.h"
#include "core/error.h"
#include "core/sha256.h"
#include "core/strbuf.h"
#include "core/testing.h"
#include "device/accel.h"

static const unsigned char dc_magic[8] = {'A', 'M', 'P', 'B', 'I', 'N', '\0', '\1'};

/* Where each header field starts, and the header's size. */
#define DC_AT_VERSION 8
#define DC_AT_DIGEST 12
#define DC_AT_SIZE 44
#define DC_AT_SUM 52
#define DC_HEADER_SIZE 84

/* The settings, read on first use after start-up or amp__dc_reset(). */
static int dc_resolved;
static char *dc_dir; /* NULL when the cache is off */

/* An AMP_TRACE=kernels line; the only voice of the cache's failures, since
 * a failing cache must not disturb a program that runs without it. */
static void dc_trace(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void dc_trace(const char *fmt, ...)
{
    if (!amp__env_trace_kernels())
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("[amp] disk cache: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---- The key ---- */

/* Little-endian integers, byte by byte, so that a file means the same on
 * every host. */
static void dc_put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void dc_put_le64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t dc_get_le32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t dc_get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Hash one part with its length in front, so that moving bytes from one
 * part to the next ("ab","c" against "a","bc") changes the key. */
static void dc_hash_part(sha256_ctx *ctx, const char *text)
{
    if (!text)
        text = "";
    size_t n = strlen(text);
    unsigned char len[8];
    dc_put_le64(len, (uint64_t)n);
    amp__sha256_update(ctx, len, sizeof len);
    amp__sha256_update(ctx, text, n);
}

void amp__dc_key_from_parts(const dc_key_parts *parts, dc_key *out)
{
    sha256_ctx ctx;
    amp__sha256_init(&ctx);
    dc_hash_part(&ctx, parts->source);
    dc_hash_part(&ctx, parts->options);
    dc_hash_part(&ctx, parts->device_name);
    dc_hash_part(&ctx, parts->versions);
    dc_hash_part(&ctx, parts->platform_name);
    dc_hash_part(&ctx, parts->library_version);
    amp__sha256_final(&ctx, out->digest);
}

int amp__dc_make_key(const char *source, const char *options, const amp_accelerator *acc,
                     dc_key *out)
{
    memset(out, 0, sizeof *out);
    /* Without the device's strings, two devices could share a key and one
     * load the other's binary: better no key at all. */
    if (!acc || !acc->name || !acc->version || !acc->platform_name) {
        dc_trace("no device strings for the key; not cached");
        return 0;
    }
    dc_key_parts parts = {
        source, options, acc->name, acc->version, acc->platform_name, AMP_VERSION_STRING};
    amp__dc_key_from_parts(&parts, out);
    return 1;
}

/* Zero is the "no key" of a failed amp__dc_make_key(); a real SHA-256 digest is
 * all zeros with probability 2^-256. */
static int dc_key_usable(const dc_key *key)
{
    if (!key)
        return 0;
    for (size_t i = 0; i < sizeof key->digest; i++)
        if (key->digest[i])
            return 1;
    return 0;
}

/* ---- The directory ---- */

const char *amp__dc_unsafe_reason(const struct stat *st, uid_t euid, int want_dir)
{
    if (want_dir && !S_ISDIR(st->st_mode))
        return "is not a directory";
    if (!want_dir && !S_ISREG(st->st_mode))
        return "is not a regular file";
    /* Another user could put a binary there that we would run. */
    if (st->st_uid != euid)
        return "is owned by another user";
    if (st->st_mode & (S_IWGRP | S_IWOTH))
        return "is writable by group or others";
    return NULL;
}

/* Refuse the cache for the rest of the process (until amp__dc_reset()), saying
 * once, on stderr, which path and why, and what to do about it. */
static void dc_refuse(const char *path, const char *why, const struct stat *st)
{
    fprintf(stderr,
            "[amp] program cache off: %s %s (owner uid %u, mode %04o; this process is uid %u);"
            " make it yours and writable only by you (chmod go-w), or set AMP_CACHE_DIR"
            " elsewhere\n",
            path, why, (unsigned)st->st_uid, (unsigned)(st->st_mode & 07777), (unsigned)geteuid());
    free(dc_dir);
    dc_dir = NULL;
}

/* The directory the environment names, malloc'ed; NULL when the cache is
 * off or no home is known. *chosen is set when AMP_CACHE_DIR named it, so
 * that a failure to create it is worth a warning. */
static char *dc_dir_from_env(int *chosen)
{
    *chosen = 0;
    const char *dir = amp__env_cache_dir();
    if (dir) {
        *chosen = 1;
        return dir[0] ? strdup(dir) : NULL;
    }
    strbuf sb = STRBUF_INIT;
    const char *xdg = amp__env_xdg_cache_home();
    const char *home = amp__env_home();
    /* The XDG base directory specification says a relative path there is
     * invalid and is to be ignored. */
    if (xdg && xdg[0] == '/')
        amp__sb_printf(&sb, "%s/amp", xdg);
    else if (home && home[0])
        amp__sb_printf(&sb, "%s/.cache/amp", home);
    else
        dc_trace("neither AMP_CACHE_DIR, XDG_CACHE_HOME nor HOME is set; cache off");
    if (sb.length == 0) {
        amp__sb_free(&sb);
        return NULL;
    }
    return amp__sb_take(&sb);
}

/* mkdir -p, each created level owner-only. Levels that exist are left as
 * they are (the final one is checked by the caller). */
static int dc_make_dirs(char *path)
{
    if (!path[0]) {
        errno = ENOENT;
        return -1;
    }
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(path, 0700);
        int err = errno;
        *p = '/';
        if (rc != 0 && err != EEXIST)
            return -1;
    }
    return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* Read the settings once (until amp__dc_reset()): the switch, the directory,
 * creating it, checking it. Leaves dc_dir NULL when the cache is off. */
static void dc_resolve(void)
{
    if (dc_resolved)
        return;
    dc_resolved = 1;
    free(dc_dir);
    dc_dir = NULL;
    if (!amp__env_cache())
        return;
    int chosen = 0;
    char *dir = dc_dir_from_env(&chosen);
    if (!dir)
        return;
    if (dc_make_dirs(dir) != 0) {
        /* A home that cannot hold a cache (read-only, in a sandbox) is
         * common and not worth a line on every run; a directory the user
         * asked for is. */
        if (chosen)
            fprintf(stderr, "[amp] program cache off: cannot create %s: %s\n", dir,
                    strerror(errno));
        else
            dc_trace("cannot create %s: %s; cache off", dir, strerror(errno));
        free(dir);
        return;
    }
    /* Check what was opened, not the name, so that a symbolic link is
     * judged by the directory it leads to. */
    struct stat st;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (chosen)
            fprintf(stderr, "[amp] program cache off: cannot open %s: %s\n", dir, strerror(errno));
        else
            dc_trace("cannot open %s: %s; cache off", dir, strerror(errno));
        if (fd >= 0)
            close(fd);
        free(dir);
        return;
    }
    close(fd);
    const char *why = amp__dc_unsafe_reason(&st, geteuid(), 1);
    if (why) {
        dc_refuse(dir, why, &st);
        free(dir);
        return;
    }
    dc_dir = dir;
}

int amp__dc_enabled(void)
{
    dc_resolve();
    return dc_dir != NULL;
}

const char *amp__test_disk_cache_directory(void)
{
    dc_resolve();
    return dc_dir;
}

void amp__dc_reset(void)
{
    free(dc_dir);
    dc_dir = NULL;
    dc_resolved = 0;
}

/* ---- Files ---- */

/* "<dir>/<64 hex digits><suffix>", malloc'ed, or NULL. */
static char *dc_file_path(const dc_key *key, const char *prefix, const char *suffix)
{
    strbuf sb = STRBUF_INIT;
    amp__sb_printf(&sb, "%s/%s", dc_dir, prefix);
    for (size_t i = 0; i < sizeof key->digest; i++)
        amp__sb_printf(&sb, "%02x", key->digest[i]);
    amp__sb_append(&sb, suffix);
    return amp__sb_take(&sb);
}

/* Remove a bad file, but only if the name still leads to the file that was
 * read: another process may have just renamed a good one over it. */
static void dc_discard(const char *path, const struct stat *seen, const char *why)
{
    struct stat now;
    if (seen &&
        (lstat(path, &now) != 0 || now.st_dev != seen->st_dev || now.st_ino != seen->st_ino))
        return;
    if (unlink(path) == 0)
        dc_trace("removed %s: %s", path, why);
    else
        dc_trace("cannot remove %s (%s): %s", path, why, strerror(errno));
}

/* Read exactly n bytes; 0 on an error or an early end of file. */
static int dc_read_all(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n > 0) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        p += got;
        n -= (size_t)got;
    }
    return 1;
}

/* Write exactly n bytes; 0 on an error. */
static int dc_write_all(int fd, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n > 0) {
        ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return 0;
        p += put;
        n -= (size_t)put;
    }
    return 1;
}

/* SHA-256 of (key digest || binary): what a file's checksum must be. */
static void dc_checksum(const dc_key *key, const unsigned char *binary, size_t size,
                        uint8_t out[32])
{
    sha256_ctx ctx;
    amp__sha256_init(&ctx);
    amp__sha256_update(&ctx, key->digest, sizeof key->digest);
    amp__sha256_update(&ctx, binary, size);
    amp__sha256_final(&ctx, out);
}

/* Check the header of a file of file_size bytes against key; the reason it
 * is bad, or NULL when it is good. */
static const char *dc_check_header(const unsigned char *h, const dc_key *key, off_t file_size)
{
    if (memcmp(h, dc_magic, sizeof dc_magic) != 0)
        return "not a program cache file (wrong magic)";
    if (dc_get_le32(h + DC_AT_VERSION) != DC_FORMAT_VERSION)
        return "another format version";
    if (memcmp(h + DC_AT_DIGEST, key->digest, sizeof key->digest) != 0)
        return "the file of another key";
    uint64_t size = dc_get_le64(h + DC_AT_SIZE);
    if (size == 0 || size != (uint64_t)file_size - DC_HEADER_SIZE)
        return "size mismatch (truncated?)";
    return NULL;
}

int amp__dc_load(const dc_key *key, unsigned char **binary, size_t *size)
{
    *binary = NULL;
    *size = 0;
    if (!dc_key_usable(key) || !amp__dc_enabled())
        return 0;
    char *path = dc_file_path(key, "", ".bin");
    if (!path)
        return 0;
    /* O_NOFOLLOW: never read through a link; O_NONBLOCK: a FIFO put there
     * must not hang the open. */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ELOOP)
            dc_discard(path, NULL, "a symbolic link");
        free(path);
        return 0;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        dc_trace("cannot examine %s: %s", path, strerror(errno));
        close(fd);
        free(path);
        return 0;
    }
    unsigned char header[DC_HEADER_SIZE];
    unsigned char *data = NULL;
    const char *why = NULL;
    const char *unsafe = amp__dc_unsafe_reason(&st, geteuid(), 0);
    size_t n = 0;
    if (!S_ISREG(st.st_mode)) {
        why = "not a regular file";
    } else if (unsafe) {
        /* Not ours to remove, nor to trust: the whole cache is suspect. */
        dc_refuse(path, unsafe, &st);
        close(fd);
        free(path);
        return 0;
    } else if (st.st_size < DC_HEADER_SIZE) {
        why = "shorter than the header (truncated?)";
    } else if ((uint64_t)st.st_size - DC_HEADER_SIZE > SIZE_MAX) {
        why = "too large for this process";
    } else if (!dc_read_all(fd, header, sizeof header)) {
        why = "cannot be read";
    } else if ((why = dc_check_header(header, key, st.st_size)) == NULL) {
        /* Only now, with the size checked against the file's, allocate. */
        n = (size_t)dc_get_le64(header + DC_AT_SIZE);
        data = malloc(n);
        uint8_t sum[32];
        if (!data) {
            dc_trace("no memory for %zu bytes of %s", n, path);
        } else if (!dc_read_all(fd, data, n)) {
            why = "cannot be read";
        } else {
            dc_checksum(key, data, n, sum);
            if (memcmp(sum, header + DC_AT_SUM, sizeof sum) != 0)
                why = "checksum mismatch (corrupt)";
        }
    }
    close(fd);
    if (why)
        dc_discard(path, &st, why);
    free(path);
    if (why || !data) {
        free(data);
        return 0;
    }
    *binary = data;
    *size = n;
    return 1;
}

void amp__dc_store(const dc_key *key, const unsigned char *binary, size_t size)
{
    if (!dc_key_usable(key) || !binary || size == 0 || !amp__dc_enabled())
        return;
    unsigned char header[DC_HEADER_SIZE];
    memcpy(header, dc_magic, sizeof dc_magic);
    dc_put_le32(header + DC_AT_VERSION, DC_FORMAT_VERSION);
    memcpy(header + DC_AT_DIGEST, key->digest, sizeof key->digest);
    dc_put_le64(header + DC_AT_SIZE, (uint64_t)size);
    dc_checksum(key, binary, size, header + DC_AT_SUM);

    /* A unique name per writer in the same directory, so that rename() is
     * atomic and two processes storing one key never write one file. The
     * leading dot keeps it apart from the finished ".bin" files. */
    char *tmp = dc_file_path(key, ".", ".XXXXXX");
    char *path = dc_file_path(key, "", ".bin");
    if (!tmp || !path) {
        free(tmp);
        free(path);
        return;
    }
    int fd = mkstemp(tmp); /* mode 0600 */
    if (fd < 0) {
        dc_trace("cannot create a file in %s: %s", dc_dir, strerror(errno));
        free(tmp);
        free(path);
        return;
    }
    /* fsync before rename: after a crash the final name holds either
     * nothing or the whole file, never a file whose blocks were not written
     * yet. (The checksum would catch that too, at the cost of a rebuild.) */
    int ok = dc_write_all(fd, header, sizeof header) && dc_write_all(fd, binary, size) &&
             fsync(fd) == 0;
    int err = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = 0;
        err = errno;
    }
    if (ok) {
        dc_trace("stored %zu bytes as %s", size, path);
    } else {
        dc_trace("cannot store %s: %s", path, strerror(err));
        unlink(tmp);
    }
    free(tmp);
    free(path);
}

/* ---- Programs ---- */

/* Errors that say the binary itself is bad, as opposed to the device
 * lacking memory for the moment: only those remove the file. */
static int dc_binary_rejected(cl_int rc)
{
    return rc == CL_INVALID_BINARY || rc == CL_BUILD_PROGRAM_FAILURE || rc == CL_INVALID_PROGRAM ||
           rc == CL_LINK_PROGRAM_FAILURE;
}

cl_program amp__dc_program_from_cache(cl_context ctx, cl_device_id dev, const dc_key *key,
                                      const char *options)
{
    unsigned char *binary = NULL;
    size_t size = 0;
    if (!amp__dc_load(key, &binary, &size))
        return NULL;
    const unsigned char *bins[1] = {binary};
    cl_int status = CL_SUCCESS, rc = CL_SUCCESS;
    cl_program prog = amp__clapi.CreateProgramWithBinary(ctx, 1, &dev, &size, bins, &status, &rc);
    free(binary);
    if (prog && status != CL_SUCCESS)
        rc = status; /* not expected of a driver, but not trusted either */
    else if (!prog && rc == CL_SUCCESS)
        rc = status != CL_SUCCESS ? status : CL_INVALID_BINARY;
    if (rc == CL_SUCCESS)
        rc = amp__clapi.BuildProgram(prog, 1, &dev, options ? options : "", NULL, NULL);
    if (rc == CL_SUCCESS) {
        dc_trace("built a program from its cached binary (%zu bytes)", size);
        return prog;
    }
    if (prog)
        amp__clapi.ReleaseProgram(prog);
    char *path = dc_file_path(key, "", ".bin");
    if (!path)
        return NULL;
    if (dc_binary_rejected(rc))
        dc_discard(path, NULL, amp__err_cl_name(rc));
    else
        dc_trace("cannot use %s now (%s); kept", path, amp__err_cl_name(rc));
    free(path);
    return NULL;
}

void amp__dc_remove(const dc_key *key, const char *why)
{
    if (!dc_key_usable(key) || !amp__dc_enabled())
        return;
    char *path = dc_file_path(key, "", ".bin");
    if (path)
        dc_discard(path, NULL, why);
    free(path);
}

void amp__dc_store_program(cl_program prog, const dc_key *key)
{
    if (!dc_key_usable(key) || !amp__dc_enabled())
        return;
    cl_uint ndevices = 0;
    size_t size = 0;
    cl_int rc = amp__clapi.GetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof ndevices, &ndevices,
                                          NULL);
    /* The key names one device; a program for several has several binaries
     * and is not this cache's to keep. */
    if (rc == CL_SUCCESS && ndevices != 1) {
        dc_trace("a program for %u devices is not cached", (unsigned)ndevices);
        return;
    }
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (rc != CL_SUCCESS || size == 0) {
        dc_trace("the driver gave no program binary (%s)",
                 rc != CL_SUCCESS ? amp__err_cl_name(rc) : "its size is 0");
        return;
    }
    unsigned char *binary = malloc(size);
    if (!binary)
        return;
    unsigned char *bins[1] = {binary};
    rc = amp__clapi.GetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL);
    if (rc == CL_SUCCESS)
        amp__dc_store(key, binary, size);
    else
        dc_trace("cannot read the program binary (%s)", amp__err_cl_name(rc));
    free(binary);
}
