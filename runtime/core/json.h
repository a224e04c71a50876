/*
 * runtime/core/json.h - JSON text out: strings escaped, numbers, arrays of
 * integers, appended to a strbuf. The library writes JSON (the timeline,
 * core/timeline.h) and never reads it.
 */
#ifndef AMP_CORE_JSON_H
#define AMP_CORE_JSON_H

#include <stdint.h>

#include "core/strbuf.h"

/* s as a JSON string, quoted and escaped; NULL as null. Bytes that are
 * not valid UTF-8 are written as U+FFFD, so that the text always is. */
void amp__json_string(strbuf *sb, const char *s);

/* A member's name and colon, after a comma unless *first (which it
 * clears): `"key": ` or `, "key": `. */
void amp__json_key(strbuf *sb, int *first, const char *key);

/* n integers as an array: [1, 2, 3]. */
void amp__json_ints(strbuf *sb, const int64_t *v, int n);

/* Nanoseconds as microseconds with three decimals at most: 1500 as 1.5,
 * 2000 as 2 (a negative count as 0). */
void amp__json_micros(strbuf *sb, int64_t ns);

#endif
