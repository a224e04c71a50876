/*
 * runtime/core/json.c - JSON text out (json.h).
 */
#include "core/json.h"

#include <inttypes.h>
#include <stdio.h>

/* The length of the valid UTF-8 sequence at s, or 0. */
static int utf8_length(const unsigned char *s)
{
    int n = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (s[0] >= 0xF8 || n == 0)
        return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    /* No overlong three- or four-byte forms, surrogates or code points
     * past U+10FFFF. */
    if ((n == 3 && s[0] == 0xE0 && s[1] < 0xA0) || (n == 3 && s[0] == 0xED && s[1] >= 0xA0) ||
        (n == 4 && s[0] == 0xF0 && s[1] < 0x90) || (n == 4 && s[0] == 0xF4 && s[1] >= 0x90))
        return 0;
    return n;
}

void amp__json_string(strbuf *sb, const char *s)
{
    if (!s) {
        amp__sb_append(sb, "null");
        return;
    }
    amp__sb_append_n(sb, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        const unsigned char *run = p;
        while (*p >= 0x20 && *p < 0x80 && *p != '"' && *p != '\\')
            p++;
        amp__sb_append_n(sb, (const char *)run, (size_t)(p - run));
        if (!*p)
            break;
        char esc[8];
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            amp__sb_append_n(sb, esc, 2);
            p++;
        } else if (*p == '\n') {
            amp__sb_append_n(sb, "\\n", 2);
            p++;
        } else if (*p == '\t') {
            amp__sb_append_n(sb, "\\t", 2);
            p++;
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", (unsigned)*p);
            amp__sb_append(sb, esc);
            p++;
        } else {
            int n = utf8_length(p);
            if (n > 0)
                amp__sb_append_n(sb, (const char *)p, (size_t)n);
            else
                amp__sb_append(sb, "\\ufffd");
            p += n > 0 ? n : 1;
        }
    }
    amp__sb_append_n(sb, "\"", 1);
}

void amp__json_key(strbuf *sb, int *first, const char *key)
{
    if (!*first)
        amp__sb_append_n(sb, ", ", 2);
    *first = 0;
    amp__json_string(sb, key);
    amp__sb_append_n(sb, ": ", 2);
}

void amp__json_ints(strbuf *sb, const int64_t *v, int n)
{
    amp__sb_append_n(sb, "[", 1);
    for (int i = 0; i < n; i++)
        amp__sb_printf(sb, "%s%" PRId64, i ? ", " : "", v[i]);
    amp__sb_append_n(sb, "]", 1);
}

void amp__json_micros(strbuf *sb, int64_t ns)
{
    if (ns < 0)
        ns = 0;
    int64_t frac = ns % 1000;
    if (frac == 0)
        amp__sb_printf(sb, "%" PRId64, ns / 1000);
    else if (frac % 100 == 0)
        amp__sb_printf(sb, "%" PRId64 ".%" PRId64, ns / 1000, frac / 100);
    else if (frac % 10 == 0)
        amp__sb_printf(sb, "%" PRId64 ".%02" PRId64, ns / 1000, frac / 10);
    else
        amp__sb_printf(sb, "%" PRId64 ".%03" PRId64, ns / 1000, frac);
}
