/*
 * runtime/core/sha256.h - SHA-256 (FIPS 180-4), streaming.
 *
 * Written here rather than taken from a crypto library so that the runtime
 * keeps its few dependencies. It names on-disk program binaries and checks
 * their integrity; it is not used for secrets, so it makes no attempt at
 * constant-time behaviour.
 */
#ifndef AMP_CORE_SHA256_H
#define AMP_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE 32

typedef struct sha256_ctx {
    uint32_t state[8];
    uint64_t length;   /* bytes hashed so far */
    uint8_t block[64]; /* the partial block not yet compressed */
    size_t used;       /* bytes in block */
} sha256_ctx;

/* Start a new digest in ctx (which the caller owns; nothing is allocated). */
void amp__sha256_init(sha256_ctx *ctx);

/* Hash n more bytes of data (data may be NULL when n is 0). */
void amp__sha256_update(sha256_ctx *ctx, const void *data, size_t n);

/* Finish: write the 32-byte digest to out. ctx must be initialized again
 * before it is reused. */
void amp__sha256_final(sha256_ctx *ctx, uint8_t out[SHA256_DIGEST_SIZE]);

#endif
