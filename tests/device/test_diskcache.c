/*
 * tests/device/test_diskcache.c - the on-disk program binary cache: SHA-256, keys,
 * the file format against damaged and foreign files, the directory's
 * checks, the switches, two processes at once, and real programs on the
 * default OpenCL device.
 *
 * Each test gets a fresh directory (mkdtemp) as AMP_CACHE_DIR and forgets
 * the cache's settings, so that it reads the environment it sets.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"

#include "core/sha256.h"
#include "core/testing.h"
#include "kernel/diskcache.h"

static char test_dir[64];

/* ---- Helpers ---- */

/* Remove a tree that the tests made (shallow, no links followed). */
static void remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        chmod(path, 0700);
        DIR *d = opendir(path);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char child[1024];
            snprintf(child, sizeof child, "%s/%s", path, e->d_name);
            remove_tree(child);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

static int fresh_dir(void **state)
{
    (void)state;
    strcpy(test_dir, "/tmp/amp-diskcache-XXXXXX");
    assert_non_null(mkdtemp(test_dir));
    setenv("AMP_CACHE_DIR", test_dir, 1);
    unsetenv("AMP_CACHE");
    amp__dc_reset();
    return 0;
}

static int remove_dir(void **state)
{
    (void)state;
    amp__test_inject_fault(0, CL_SUCCESS);
    amp__dc_reset();
    remove_tree(test_dir);
    return 0;
}

static void key_of(const char *source, dc_key *key)
{
    dc_key_parts parts = {source, "", "device", "OpenCL 1.2, driver 1", "platform", "0.1.0"};
    amp__dc_key_from_parts(&parts, key);
}

/* Where the cache keeps key's file. */
static void path_of(const dc_key *key, char *out, size_t n)
{
    int used = snprintf(out, n, "%s/", test_dir);
    for (size_t i = 0; i < sizeof key->digest; i++)
        used += snprintf(out + used, n - (size_t)used, "%02x", key->digest[i]);
    snprintf(out + used, n - (size_t)used, ".bin");
}

static unsigned char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)len + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return data;
}

static void write_file(const char *path, const void *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, n), (ssize_t)n);
    close(fd);
}

static int exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Entries in the test directory, "." and ".." aside. */
static int entries(void)
{
    int n = 0;
    DIR *d = opendir(test_dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

/* Temporary files (".<hex>.XXXXXX") in the test directory. */
static int temp_files(void)
{
    int n = 0;
    DIR *d = opendir(test_dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        n += e->d_name[0] == '.' && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    if (d)
        closedir(d);
    return n;
}

/* Load key and say whether it missed; a hit is freed. */
static int misses(const dc_key *key)
{
    unsigned char *bin = (unsigned char *)"not touched";
    size_t size = 99;
    int hit = amp__dc_load(key, &bin, &size);
    if (hit) {
        free(bin);
        return 0;
    }
    assert_null(bin);
    assert_int_equal(size, 0);
    return 1;
}

/* A small deterministic generator for contents and garbage. */
static uint32_t rng_state = 2463534242u;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

/* stderr goes to a file between capture_begin() and capture_end(), which
 * returns what was written (the caller frees it). */
static int saved_stderr = -1;
static char capture_path[96];

static void capture_begin(void)
{
    snprintf(capture_path, sizeof capture_path, "%s.stderr", test_dir);
    fflush(stderr);
    saved_stderr = dup(2);
    int fd = open(capture_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0 && saved_stderr >= 0);
    dup2(fd, 2);
    close(fd);
}

static char *capture_end(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    size_t n;
    char *text = (char *)read_file(capture_path, &n);
    text[n] = '\0';
    unlink(capture_path);
    return text;
}

static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* ---- SHA-256 ---- */

static void hex_of(const uint8_t digest[32], char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

/* The digest of n bytes of data, through the streaming calls in one go. */
static void sha256_of(const void *data, size_t n, uint8_t out[SHA256_DIGEST_SIZE])
{
    sha256_ctx ctx;
    amp__sha256_init(&ctx);
    amp__sha256_update(&ctx, data, n);
    amp__sha256_final(&ctx, out);
}

static void sha256_matches_the_fips_vectors(void **state)
{
    (void)state;
    static const struct {
        const char *message;
        const char *digest;
    } vectors[] = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    };
    uint8_t d[32];
    char hex[65];
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++) {
        sha256_of(vectors[i].message, strlen(vectors[i].message), d);
        hex_of(d, hex);
        assert_string_equal(hex, vectors[i].digest);
        /* The same, a byte at a time, through the streaming calls. */
        sha256_ctx ctx;
        amp__sha256_init(&ctx);
        for (const char *p = vectors[i].message; *p; p++)
            amp__sha256_update(&ctx, p, 1);
        amp__sha256_final(&ctx, d);
        hex_of(d, hex);
        assert_string_equal(hex, vectors[i].digest);
    }
    /* One million 'a': whole, and in uneven pieces that cross blocks. */
    const char *million = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    char *a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    sha256_of(a, 1000000, d);
    hex_of(d, hex);
    assert_string_equal(hex, million);
    sha256_ctx ctx;
    amp__sha256_init(&ctx);
    amp__sha256_update(&ctx, NULL, 0);
    for (size_t done = 0, step = 1; done < 1000000; step = step % 130 + 1) {
        size_t n = 1000000 - done < step ? 1000000 - done : step;
        amp__sha256_update(&ctx, a + done, n);
        done += n;
    }
    amp__sha256_final(&ctx, d);
    hex_of(d, hex);
    assert_string_equal(hex, million);
    free(a);
}

/* ---- Store and load ---- */

static void store_then_load_round_trips_and_another_key_misses(void **state)
{
    (void)state;
    dc_key key, other;
    key_of("kernel one", &key);
    key_of("kernel two", &other);
    unsigned char bin[1000];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)rng();
    assert_true(amp__dc_enabled());
    assert_true(misses(&key));
    amp__dc_store(&key, bin, sizeof bin);

    unsigned char *got = NULL;
    size_t size = 0;
    assert_int_equal(amp__dc_load(&key, &got, &size), 1);
    assert_int_equal(size, sizeof bin);
    assert_memory_equal(got, bin, sizeof bin);
    free(got);
    assert_true(misses(&other));

    /* The file: <hex digest>.bin, 0600, header then the binary. */
    char path[256];
    path_of(&key, path, sizeof path);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(st.st_size, 84 + sizeof bin);
    size_t n;
    unsigned char *file = read_file(path, &n);
    assert_memory_equal(file, "AMPBIN\0\1", 8);
    assert_memory_equal(file + 8, "\1\0\0\0", 4);
    assert_memory_equal(file + 12, key.digest, 32);
    assert_memory_equal(file + 44, "\xe8\x03\0\0\0\0\0\0", 8); /* 1000 */
    assert_memory_equal(file + 84, bin, sizeof bin);
    free(file);

    /* Storing again replaces the binary; nothing else is left behind. */
    bin[0] ^= 1;
    amp__dc_store(&key, bin, sizeof bin);
    assert_int_equal(amp__dc_load(&key, &got, &size), 1);
    assert_memory_equal(got, bin, sizeof bin);
    free(got);
    assert_int_equal(entries(), 1);

    /* Nothing is stored for an empty binary or for the "no key". */
    dc_key none;
    memset(&none, 0, sizeof none);
    amp__dc_store(&none, bin, sizeof bin);
    amp__dc_store(&other, bin, 0);
    assert_int_equal(entries(), 1);
    assert_true(misses(&none));
}

/* ---- Keys ---- */

static void key_changes_with_every_input(void **state)
{
    (void)state;
    dc_key_parts base = {"source", "-DX=1", "device", "OpenCL 1.2, driver 1", "platform",
                         "0.1.0"};
    dc_key k0, k;
    amp__dc_key_from_parts(&base, &k0);
    const char **fields[] = {&base.source,   &base.options,       &base.device_name,
                             &base.versions, &base.platform_name, &base.library_version};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const char *kept = *fields[i];
        *fields[i] = "changed";
        amp__dc_key_from_parts(&base, &k);
        assert_memory_not_equal(k.digest, k0.digest, 32);
        *fields[i] = kept;
    }
    /* The same inputs give the same key. */
    amp__dc_key_from_parts(&base, &k);
    assert_memory_equal(k.digest, k0.digest, 32);
    /* Lengths are part of the key: moving a byte across a boundary. */
    dc_key_parts a = {"ab", "c", "", "", "", ""}, b = {"a", "bc", "", "", "", ""};
    dc_key ka, kb;
    amp__dc_key_from_parts(&a, &ka);
    amp__dc_key_from_parts(&b, &kb);
    assert_memory_not_equal(ka.digest, kb.digest, 32);
    /* NULL counts as "". */
    dc_key_parts n1 = {NULL, NULL, "", "", "", ""}, n2 = {"", "", "", "", "", ""};
    amp__dc_key_from_parts(&n1, &ka);
    amp__dc_key_from_parts(&n2, &kb);
    assert_memory_equal(ka.digest, kb.digest, 32);
}

/* The default accelerator's device (AMP_DEVICE chooses another, as for
 * every test that needs one), or NULL when there is none. */
static void device_key_is_the_key_of_its_strings(void **state)
{
    (void)state;
    amp_accelerator *acc = NULL;
    if (amp_accelerator_get_default(&acc) != AMP_OK || !acc)
        skip();
    /* The key is made of what the accelerator read from the device when
     * the devices were listed: no OpenCL call per kernel. */
    amp_accelerator_info info;
    assert_amp_ok(amp_accelerator_get_info(acc, &info));
    dc_key_parts parts = {"src", "-DX", info.description, info.version, info.platform,
                          AMP_VERSION_STRING};
    dc_key want, got;
    amp__dc_key_from_parts(&parts, &want);
    amp__test_inject_fault(0, CL_SUCCESS);
    assert_int_equal(amp__dc_make_key("src", "-DX", acc, &got), 1);
    assert_int_equal(amp__test_calls_counted(), 0);
    assert_memory_equal(got.digest, want.digest, 32);
    /* The accelerator's version string holds both versions, so a new
     * driver changes the key. */
    assert_non_null(strstr(info.version, "driver"));

    /* Source and options reach the key through amp__dc_make_key too. */
    dc_key other;
    assert_int_equal(amp__dc_make_key("src2", "-DX", acc, &other), 1);
    assert_memory_not_equal(other.digest, got.digest, 32);
    assert_int_equal(amp__dc_make_key("src", "-DY", acc, &other), 1);
    assert_memory_not_equal(other.digest, got.digest, 32);

    /* No accelerator gives the "no key", which never hits. */
    dc_key zero;
    memset(&zero, 0, sizeof zero);
    memset(&other, 0xAB, sizeof other);
    assert_int_equal(amp__dc_make_key("src", "", NULL, &other), 0);
    assert_memory_equal(other.digest, zero.digest, 32);
    assert_true(misses(&other));
}

/* ---- Damaged and foreign files ---- */

/* Store a binary for key and return the file's bytes. */
static unsigned char *stored_file(const dc_key *key, size_t binary_size, size_t *n)
{
    unsigned char *bin = malloc(binary_size);
    assert_non_null(bin);
    for (size_t i = 0; i < binary_size; i++)
        bin[i] = (unsigned char)rng();
    amp__dc_store(key, bin, binary_size);
    free(bin);
    char path[256];
    path_of(key, path, sizeof path);
    return read_file(path, n);
}

static void truncated_files_miss_and_are_removed(void **state)
{
    (void)state;
    dc_key key;
    key_of("truncated", &key);
    char path[256];
    path_of(&key, path, sizeof path);
    size_t full;
    unsigned char *file = stored_file(&key, 300, &full);
    for (size_t len = 0; len < full; len++) {
        write_file(path, file, len);
        if (!misses(&key))
            fail_msg("a file cut to %zu of %zu bytes loaded", len, full);
        assert_false(exists(path));
    }
    /* The whole file still loads: the cuts, not the test, were at fault. */
    write_file(path, file, full);
    assert_false(misses(&key));
    free(file);
}

static void a_flipped_byte_anywhere_misses_and_is_removed(void **state)
{
    (void)state;
    dc_key key;
    key_of("flipped", &key);
    char path[256];
    path_of(&key, path, sizeof path);
    size_t full;
    unsigned char *file = stored_file(&key, 200, &full);
    for (size_t at = 0; at < full; at++) {
        for (int bit = 0; bit < 8; bit += 7) {
            file[at] ^= (unsigned char)(1u << bit);
            write_file(path, file, full);
            file[at] ^= (unsigned char)(1u << bit);
            if (!misses(&key))
                fail_msg("a file with bit %d of byte %zu flipped loaded", bit, at);
            assert_false(exists(path));
        }
    }
    /* Appending a byte is caught as well. */
    unsigned char *longer = malloc(full + 1);
    memcpy(longer, file, full);
    longer[full] = 0;
    write_file(path, longer, full + 1);
    assert_true(misses(&key));
    assert_false(exists(path));
    free(longer);
    free(file);
}

static void another_keys_file_under_this_name_misses(void **state)
{
    (void)state;
    dc_key mine, theirs;
    key_of("mine", &mine);
    key_of("theirs", &theirs);
    size_t n;
    unsigned char *file = stored_file(&theirs, 500, &n);
    char mine_path[256], theirs_path[256];
    path_of(&mine, mine_path, sizeof mine_path);
    path_of(&theirs, theirs_path, sizeof theirs_path);
    assert_int_equal(rename(theirs_path, mine_path), 0);
    assert_true(misses(&mine));
    assert_false(exists(mine_path));
    free(file);
}

static void garbage_misses_and_is_removed(void **state)
{
    (void)state;
    dc_key key;
    key_of("garbage", &key);
    char path[256];
    path_of(&key, path, sizeof path);
    unsigned char buf[600];
    for (int round = 0; round < 300; round++) {
        size_t len = rng() % sizeof buf;
        for (size_t i = 0; i < len; i++)
            buf[i] = (unsigned char)rng();
        /* A third of them look like ours up to the size or the checksum,
         * with sizes that are wrong, huge or zero. */
        if (round % 3 != 0 && len >= 84) {
            memcpy(buf, "AMPBIN\0\1\1\0\0\0", 12);
            memcpy(buf + 12, key.digest, 32);
            if (round % 3 == 1) {
                uint64_t size = round % 2 ? UINT64_MAX - rng() % 100 : rng() % 2 * (len - 84);
                for (int b = 0; b < 8; b++)
                    buf[44 + b] = (unsigned char)(size >> (8 * b));
            }
        }
        write_file(path, buf, len);
        if (!misses(&key))
            fail_msg("garbage of %zu bytes (round %d) loaded", len, round);
        assert_false(exists(path));
    }
    /* Another format version. */
    size_t n;
    unsigned char *file = stored_file(&key, 64, &n);
    file[8] = 2;
    write_file(path, file, n);
    assert_true(misses(&key));
    assert_false(exists(path));
    /* A header alone, of the right size field and checksum: an empty
     * binary is never a program. */
    memset(file + 44, 0, 8);
    file[8] = 1;
    sha256_of(key.digest, sizeof key.digest, file + 52);
    write_file(path, file, 84);
    assert_true(misses(&key));
    assert_false(exists(path));
    free(file);
}

static void links_directories_and_fifos_are_misses_that_do_not_hang(void **state)
{
    (void)state;
    dc_key key;
    key_of("special", &key);
    char path[256], target[300];
    path_of(&key, path, sizeof path);
    /* A link to a good file is not followed, and is removed. */
    size_t n;
    dc_key other;
    key_of("target", &other);
    free(stored_file(&other, 64, &n));
    path_of(&other, target, sizeof target);
    assert_int_equal(symlink(target, path), 0);
    assert_true(misses(&key));
    assert_false(exists(path));
    assert_true(exists(target));
    /* A FIFO would block a plain open(); it is a miss, and removed. */
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_true(misses(&key));
    assert_false(exists(path));
    /* A directory: a miss; it cannot be unlinked, and that is fine. */
    assert_int_equal(mkdir(path, 0700), 0);
    assert_true(misses(&key));
    amp__dc_store(&key, (const unsigned char *)"x", 1); /* rename fails: silent */
    assert_int_equal(temp_files(), 0);            /* and cleans up */
    assert_true(misses(&key));
    rmdir(path);
    assert_true(amp__dc_enabled());
}

/* ---- The directory ---- */

static void directory_is_created_owner_only_with_its_parents(void **state)
{
    (void)state;
    char nested[256], parent[256];
    snprintf(parent, sizeof parent, "%s/a", test_dir);
    snprintf(nested, sizeof nested, "%s/a/b/cache", test_dir);
    setenv("AMP_CACHE_DIR", nested, 1);
    amp__dc_reset();
    assert_true(amp__dc_enabled());
    assert_string_equal(amp__test_disk_cache_directory(), nested);
    struct stat st;
    assert_int_equal(stat(nested, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(stat(parent, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    /* Files go there. */
    dc_key key;
    key_of("nested", &key);
    amp__dc_store(&key, (const unsigned char *)"abc", 3);
    assert_false(misses(&key));
}

static void default_directory_is_xdg_cache_home_then_home(void **state)
{
    (void)state;
    char *home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
    char *xdg = getenv("XDG_CACHE_HOME") ? strdup(getenv("XDG_CACHE_HOME")) : NULL;
    char want[256];
    unsetenv("AMP_CACHE_DIR");

    setenv("XDG_CACHE_HOME", test_dir, 1);
    setenv("HOME", "/nonexistent-home", 1);
    amp__dc_reset();
    snprintf(want, sizeof want, "%s/amp", test_dir);
    assert_string_equal(amp__test_disk_cache_directory(), want);

    /* A relative XDG_CACHE_HOME is ignored, as the specification says. */
    setenv("XDG_CACHE_HOME", "relative/path", 1);
    setenv("HOME", test_dir, 1);
    amp__dc_reset();
    snprintf(want, sizeof want, "%s/.cache/amp", test_dir);
    assert_string_equal(amp__test_disk_cache_directory(), want);
    unsetenv("XDG_CACHE_HOME");
    amp__dc_reset();
    assert_string_equal(amp__test_disk_cache_directory(), want);

    /* No home at all: off, quietly. */
    unsetenv("HOME");
    amp__dc_reset();
    assert_false(amp__dc_enabled());

    if (home)
        setenv("HOME", home, 1);
    if (xdg)
        setenv("XDG_CACHE_HOME", xdg, 1);
    free(home);
    free(xdg);
}

static void a_directory_others_can_write_is_refused_with_one_warning(void **state)
{
    (void)state;
    assert_int_equal(chmod(test_dir, 0777), 0);
    amp__dc_reset();
    capture_begin();
    int on = amp__dc_enabled();
    /* Later calls say nothing more, and touch nothing. */
    dc_key key;
    key_of("refused", &key);
    amp__dc_store(&key, (const unsigned char *)"abc", 3);
    int missed = misses(&key);
    int on_again = amp__dc_enabled();
    char *text = capture_end();
    assert_false(on);
    assert_false(on_again);
    assert_true(missed);
    assert_null(amp__test_disk_cache_directory());
    assert_int_equal(count_lines(text), 1);
    assert_non_null(strstr(text, test_dir));
    assert_non_null(strstr(text, "writable by group or others"));
    free(text);
    assert_int_equal(entries(), 0);

    /* Group-writable alone is refused as well; owner-only is accepted. */
    assert_int_equal(chmod(test_dir, 0770), 0);
    amp__dc_reset();
    capture_begin();
    on = amp__dc_enabled();
    free(capture_end());
    assert_false(on);
    assert_int_equal(chmod(test_dir, 0755), 0);
    amp__dc_reset();
    assert_true(amp__dc_enabled());
}

static void unsafe_reason_checks_type_owner_and_mode(void **state)
{
    (void)state;
    struct stat st;
    memset(&st, 0, sizeof st);
    uid_t me = geteuid();
    st.st_uid = me;
    st.st_mode = S_IFDIR | 0700;
    assert_null(amp__dc_unsafe_reason(&st, me, 1));
    assert_string_equal(amp__dc_unsafe_reason(&st, me, 0), "is not a regular file");
    st.st_mode = S_IFREG | 0644;
    assert_null(amp__dc_unsafe_reason(&st, me, 0));
    assert_string_equal(amp__dc_unsafe_reason(&st, me, 1), "is not a directory");
    /* Owned by another user: the case a test cannot make without one. */
    st.st_uid = me + 1;
    assert_string_equal(amp__dc_unsafe_reason(&st, me, 0), "is owned by another user");
    st.st_mode = S_IFDIR | 0700;
    assert_string_equal(amp__dc_unsafe_reason(&st, me, 1), "is owned by another user");
    st.st_uid = me;
    st.st_mode = S_IFREG | 0602;
    assert_string_equal(amp__dc_unsafe_reason(&st, me, 0), "is writable by group or others");
    st.st_mode = S_IFREG | 0620;
    assert_string_equal(amp__dc_unsafe_reason(&st, me, 0), "is writable by group or others");
}

/* The real thing, where the test may give a directory and a file away:
 * as root (CI and the GPU machine run the suite as root). Elsewhere the
 * test above stands in for it. */
static void a_directory_or_file_of_another_user_is_refused(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        print_message("[  NOTE    ] not root: cannot give a file to another user here\n");
        skip();
    }
    const uid_t nobody = 65534;
    /* The directory. */
    assert_int_equal(chown(test_dir, nobody, nobody), 0);
    amp__dc_reset();
    capture_begin();
    int on = amp__dc_enabled();
    char *text = capture_end();
    assert_false(on);
    assert_non_null(strstr(text, test_dir));
    assert_non_null(strstr(text, "is owned by another user"));
    assert_non_null(strstr(text, "owner uid 65534"));
    free(text);
    assert_int_equal(chown(test_dir, 0, 0), 0);
    amp__dc_reset();
    assert_true(amp__dc_enabled());

    /* A file in our own directory: never loaded, and left where it is. */
    dc_key key;
    key_of("planted", &key);
    char path[256];
    path_of(&key, path, sizeof path);
    amp__dc_store(&key, (const unsigned char *)"abc", 3);
    assert_false(misses(&key));
    assert_int_equal(chown(path, nobody, nobody), 0);
    capture_begin();
    int missed = misses(&key);
    on = amp__dc_enabled();
    text = capture_end();
    assert_true(missed);
    assert_false(on);
    assert_non_null(strstr(text, path));
    assert_non_null(strstr(text, "is owned by another user"));
    free(text);
    assert_true(exists(path));
}

static void a_file_others_can_write_turns_the_cache_off(void **state)
{
    (void)state;
    dc_key key;
    key_of("shared file", &key);
    char path[256];
    path_of(&key, path, sizeof path);
    amp__dc_store(&key, (const unsigned char *)"abc", 3);
    assert_int_equal(chmod(path, 0666), 0);
    capture_begin();
    int missed = misses(&key);
    int on = amp__dc_enabled();
    char *text = capture_end();
    assert_true(missed);
    assert_false(on);
    assert_int_equal(count_lines(text), 1);
    assert_non_null(strstr(text, path));
    assert_non_null(strstr(text, "writable by group or others"));
    free(text);
    /* Refused, not removed: it is left for the user to look at. */
    assert_true(exists(path));
}

static void switches_turn_the_cache_off(void **state)
{
    (void)state;
    static const char *offs[] = {"0", "off", "OFF", "no", "No", "false", "FALSE"};
    dc_key key;
    key_of("switched", &key);
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        setenv("AMP_CACHE", offs[i], 1);
        amp__dc_reset();
        assert_false(amp__dc_enabled());
        amp__dc_store(&key, (const unsigned char *)"abc", 3);
        assert_int_equal(entries(), 0);
        assert_true(misses(&key));
    }
    setenv("AMP_CACHE", "1", 1);
    amp__dc_reset();
    assert_true(amp__dc_enabled());
    unsetenv("AMP_CACHE");
    setenv("AMP_CACHE_DIR", "", 1);
    amp__dc_reset();
    assert_false(amp__dc_enabled());
    assert_null(amp__test_disk_cache_directory());
    amp__dc_store(&key, (const unsigned char *)"abc", 3);
    assert_int_equal(entries(), 0);
}

static void an_unusable_directory_fails_silently(void **state)
{
    (void)state;
    /* A directory AMP_CACHE_DIR names but that cannot be made: one line. */
    char blocked[256];
    snprintf(blocked, sizeof blocked, "%s/file/cache", test_dir);
    char file[256];
    snprintf(file, sizeof file, "%s/file", test_dir);
    write_file(file, "x", 1);
    setenv("AMP_CACHE_DIR", blocked, 1);
    amp__dc_reset();
    capture_begin();
    int on = amp__dc_enabled();
    char *text = capture_end();
    assert_false(on);
    assert_int_equal(count_lines(text), 1);
    assert_non_null(strstr(text, blocked));
    free(text);
    /* A directory we may not write (root may write anywhere: skipped). */
    if (geteuid() == 0)
        return;
    char readonly[256];
    snprintf(readonly, sizeof readonly, "%s/ro", test_dir);
    assert_int_equal(mkdir(readonly, 0500), 0);
    setenv("AMP_CACHE_DIR", readonly, 1);
    amp__dc_reset();
    assert_true(amp__dc_enabled());
    dc_key key;
    key_of("read-only", &key);
    capture_begin();
    amp__dc_store(&key, (const unsigned char *)"abc", 3);
    text = capture_end();
    assert_string_equal(text, ""); /* silent without AMP_TRACE */
    free(text);
    assert_true(misses(&key));
}

/* ---- Two processes ---- */

#define RACE_SIZE (256 * 1024)
#define RACE_ROUNDS 50

static void fill_race(unsigned char *buf, int who)
{
    for (size_t i = 0; i < RACE_SIZE; i++)
        buf[i] = (unsigned char)(i * (who ? 7 : 13) + (size_t)who);
}

/* A child: wait for the start, then store and load 50 times; every load
 * must hit and be one of the two contents, whole. Exits 0 when all did. */
static void race_child(int gate, int who, const dc_key *key)
{
    char c;
    while (read(gate, &c, 1) < 0 && errno == EINTR)
        ;
    amp__dc_reset(); /* a process of its own, reading the environment itself */
    unsigned char *mine = malloc(RACE_SIZE), *theirs = malloc(RACE_SIZE);
    if (!mine || !theirs)
        _exit(2);
    fill_race(mine, who);
    fill_race(theirs, !who);
    for (int i = 0; i < RACE_ROUNDS; i++) {
        amp__dc_store(key, mine, RACE_SIZE);
        unsigned char *got;
        size_t size;
        if (!amp__dc_load(key, &got, &size))
            _exit(3);
        if (size != RACE_SIZE || (memcmp(got, mine, size) != 0 && memcmp(got, theirs, size) != 0))
            _exit(4);
        free(got);
    }
    free(mine);
    free(theirs);
    _exit(0);
}

static void two_processes_store_the_same_key_at_once(void **state)
{
    (void)state;
    dc_key key;
    key_of("raced", &key);
    int gate[2];
    assert_int_equal(pipe(gate), 0);
    pid_t pids[2];
    for (int who = 0; who < 2; who++) {
        fflush(NULL);
        pids[who] = fork();
        assert_true(pids[who] >= 0);
        if (pids[who] == 0) {
            close(gate[1]);
            race_child(gate[0], who, &key);
        }
    }
    /* Both start when the gate's write end closes. */
    close(gate[0]);
    close(gate[1]);
    int status[2] = {0, 0};
    for (int who = 0; who < 2; who++)
        assert_int_equal(waitpid(pids[who], &status[who], 0), pids[who]);
    for (int who = 0; who < 2; who++)
        if (!WIFEXITED(status[who]) || WEXITSTATUS(status[who]) != 0)
            fail_msg("child %d: wait status 0x%x, child %d: 0x%x (exit 3: a load missed, 4: it"
                     " held neither content whole)",
                     who, (unsigned)status[who], !who, (unsigned)status[!who]);
    unsigned char *got, *a = malloc(RACE_SIZE), *b = malloc(RACE_SIZE);
    size_t size;
    fill_race(a, 0);
    fill_race(b, 1);
    assert_int_equal(amp__dc_load(&key, &got, &size), 1);
    assert_int_equal(size, RACE_SIZE);
    assert_true(memcmp(got, a, size) == 0 || memcmp(got, b, size) == 0);
    free(got);
    free(a);
    free(b);
    /* One file, the final one: no temporary files left over. */
    assert_int_equal(temp_files(), 0);
    assert_int_equal(entries(), 1);
    char path[256];
    path_of(&key, path, sizeof path);
    assert_true(exists(path));
}

/* ---- Real programs ---- */

static const char *add_source =
    "kernel void add_step(global int *a) { a[get_global_id(0)] += STEP; }\n";

typedef struct cl_env {
    amp_accelerator *acc;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} cl_env;

static int cl_env_open(cl_env *env)
{
    cl_int rc;
    env->acc = NULL;
    if (amp_accelerator_get_default(&env->acc) != AMP_OK || !env->acc)
        return 0;
    env->device = amp__test_cl_of_accelerator(env->acc).device;
    env->context = amp__clapi.CreateContext(NULL, 1, &env->device, NULL, NULL, &rc);
    assert_non_null(env->context);
    env->queue = amp__clapi.CreateCommandQueue(env->context, env->device, 0, &rc);
    assert_non_null(env->queue);
    return 1;
}

static void cl_env_close(cl_env *env)
{
    amp__clapi.ReleaseCommandQueue(env->queue);
    amp__clapi.ReleaseContext(env->context);
}

static cl_program build_from_source(const cl_env *env, const char *options)
{
    cl_int rc;
    cl_program prog = amp__clapi.CreateProgramWithSource(env->context, 1, &add_source, NULL, &rc);
    assert_non_null(prog);
    assert_int_equal(amp__clapi.BuildProgram(prog, 1, &env->device, options, NULL, NULL), CL_SUCCESS);
    return prog;
}

/* Run add_step over 0..63 and check that each element grew by step. */
static void check_runs(const cl_env *env, cl_program prog, int step)
{
    enum { N = 64 };
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
    cl_int rc;
    cl_kernel k = amp__clapi.CreateKernel(prog, "add_step", &rc);
    assert_non_null(k);
    cl_mem buf = amp__clapi.CreateBuffer(env->context, CL_MEM_READ_WRITE, sizeof data, NULL, &rc);
    assert_non_null(buf);
    assert_int_equal(amp__clapi.EnqueueWriteBuffer(env->queue, buf, CL_TRUE, 0, sizeof data, data, 0,
                                              NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(amp__clapi.SetKernelArg(k, 0, sizeof buf, &buf), CL_SUCCESS);
    size_t global = N;
    assert_int_equal(amp__clapi.EnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, NULL, 0, NULL,
                                                NULL),
                     CL_SUCCESS);
    assert_int_equal(amp__clapi.EnqueueReadBuffer(env->queue, buf, CL_TRUE, 0, sizeof data, data, 0,
                                             NULL, NULL),
                     CL_SUCCESS);
    for (int i = 0; i < N; i++)
        assert_int_equal(data[i], i + step);
    amp__clapi.ReleaseMemObject(buf);
    amp__clapi.ReleaseKernel(k);
}

static void a_cached_program_binary_builds_and_runs(void **state)
{
    (void)state;
    cl_env env;
    if (!cl_env_open(&env))
        skip();
    const char *options = "-DSTEP=2";
    dc_key key;
    assert_int_equal(amp__dc_make_key(add_source, options, env.acc, &key), 1);

    /* First run: a miss, a build from source, a store. */
    assert_null(amp__dc_program_from_cache(env.context, env.device, &key, options));
    cl_program built = build_from_source(&env, options);
    amp__dc_store_program(built, &key);
    amp__clapi.ReleaseProgram(built);
    assert_int_equal(entries(), 1);

    /* Next run: the binary, which runs as the source would. */
    cl_program cached = amp__dc_program_from_cache(env.context, env.device, &key, options);
    assert_non_null(cached);
    check_runs(&env, cached, 2);
    amp__clapi.ReleaseProgram(cached);

    /* Off: no program, and amp__dc_store_program makes no OpenCL call. */
    setenv("AMP_CACHE", "0", 1);
    amp__dc_reset();
    assert_null(amp__dc_program_from_cache(env.context, env.device, &key, options));
    amp__test_inject_fault(0, CL_SUCCESS);
    amp__dc_store_program((cl_program)NULL, &key);
    assert_int_equal(amp__test_calls_counted(), 0);
    cl_env_close(&env);
}

static void a_bad_cached_binary_falls_back_to_null(void **state)
{
    (void)state;
    cl_env env;
    if (!cl_env_open(&env))
        skip();
    const char *options = "-DSTEP=3";
    dc_key key;
    assert_int_equal(amp__dc_make_key(add_source, options, env.acc, &key), 1);
    char path[256];
    path_of(&key, path, sizeof path);
    cl_program built = build_from_source(&env, options);
    amp__dc_store_program(built, &key);
    amp__clapi.ReleaseProgram(built);
    size_t n;
    unsigned char *good = read_file(path, &n);
    assert_true(n > 84);

    /* A damaged file: caught by the checksum, removed. */
    unsigned char *bad = malloc(n);
    memcpy(bad, good, n);
    bad[84 + (n - 84) / 2] ^= 0x40;
    write_file(path, bad, n);
    assert_null(amp__dc_program_from_cache(env.context, env.device, &key, options));
    assert_false(exists(path));

    /* An intact file whose binary the driver rejects: removed. (Long
     * enough for any driver's header: PoCL 5 reads some 32 bytes into a
     * binary before it checks the length.) */
    unsigned char junk[4096];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)("not a program binary "[i % 21]);
    amp__dc_store(&key, junk, sizeof junk);
    assert_true(exists(path));
    assert_null(amp__dc_program_from_cache(env.context, env.device, &key, options));
    assert_false(exists(path));

    /* A failure for want of resources keeps the file; a rejection removes
     * it. The calls: 1 clCreateProgramWithBinary, 2 clBuildProgram. */
    write_file(path, good, n);
    amp__test_inject_fault(2, CL_OUT_OF_RESOURCES);
    assert_null(amp__dc_program_from_cache(env.context, env.device, &key, options));
    assert_true(exists(path));
    amp__test_inject_fault(1, CL_OUT_OF_HOST_MEMORY);
    assert_null(amp__dc_program_from_cache(env.context, env.device, &key, options));
    assert_true(exists(path));
    amp__test_inject_fault(1, CL_INVALID_BINARY);
    assert_null(amp__dc_program_from_cache(env.context, env.device, &key, options));
    assert_false(exists(path));

    /* Storing fails quietly when the driver's answers fail. */
    amp__test_inject_fault(0, CL_SUCCESS);
    built = build_from_source(&env, options);
    for (long call = 1; call <= 3; call++) {
        amp__test_inject_fault(call, CL_OUT_OF_HOST_MEMORY);
        amp__dc_store_program(built, &key);
        assert_false(exists(path));
    }
    amp__test_inject_fault(0, CL_SUCCESS);

    /* And the good file still works after all that. */
    amp__dc_store_program(built, &key);
    amp__clapi.ReleaseProgram(built);
    cl_program cached = amp__dc_program_from_cache(env.context, env.device, &key, options);
    assert_non_null(cached);
    check_runs(&env, cached, 3);
    amp__clapi.ReleaseProgram(cached);
    free(bad);
    free(good);
    cl_env_close(&env);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, fresh_dir, remove_dir)
    const struct CMUnitTest tests[] = {
        T(sha256_matches_the_fips_vectors),
        T(store_then_load_round_trips_and_another_key_misses),
        T(key_changes_with_every_input),
        T(truncated_files_miss_and_are_removed),
        T(a_flipped_byte_anywhere_misses_and_is_removed),
        T(another_keys_file_under_this_name_misses),
        T(garbage_misses_and_is_removed),
        T(links_directories_and_fifos_are_misses_that_do_not_hang),
        T(directory_is_created_owner_only_with_its_parents),
        T(default_directory_is_xdg_cache_home_then_home),
        T(a_directory_others_can_write_is_refused_with_one_warning),
        T(unsafe_reason_checks_type_owner_and_mode),
        T(a_directory_or_file_of_another_user_is_refused),
        T(a_file_others_can_write_turns_the_cache_off),
        T(switches_turn_the_cache_off),
        T(an_unusable_directory_fails_silently),
        /* Before anything starts OpenCL's threads, so that fork() copies a
         * process of one thread. */
        T(two_processes_store_the_same_key_at_once),
        T(device_key_is_the_key_of_its_strings),
        T(a_cached_program_binary_builds_and_runs),
        T(a_bad_cached_binary_falls_back_to_null),
    };
#undef T
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    amp_shutdown();
    return failed;
}
