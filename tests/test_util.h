/*
 * tests/test_util.h - helpers shared by the cmocka tests of every folder.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <amp/amp.h>

/* RUNNING_ON_VALGRIND: nonzero under valgrind, where long tests do less
 * (PoCL runs kernels in the process, on valgrind's simulated CPU); 0 where
 * valgrind's header is not installed. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* Assert a call succeeded, showing the library's message when it did not. */
#define assert_amp_ok(call)                                                                        \
    do {                                                                                           \
        amp_status st_ = (call);                                                                   \
        if (st_ != AMP_OK)                                                                         \
            fail_msg("%s returned %s: %s", #call, amp_status_name(st_), amp_last_error());         \
    } while (0)

/* Assert a call failed with the given status, and that its message holds
 * the given text. */
#define assert_amp_fails(call, status, text)                                                      \
    do {                                                                                           \
        amp_clear_error();                                                                         \
        amp_status st_ = (call);                                                                   \
        if (st_ != (status))                                                                       \
            fail_msg("%s returned %s, expected %s: %s", #call, amp_status_name(st_),               \
                     amp_status_name(status), amp_last_error());                                   \
        if (!strstr(amp_last_error(), (text)))                                                     \
            fail_msg("%s: message lacks \"%s\": %s", #call, (text), amp_last_error());             \
    } while (0)

/* A group teardown: release everything the library holds, so that
 * valgrind and LeakSanitizer see only what a test itself leaked. */
static inline int shutdown_library(void **state)
{
    (void)state;
    amp_shutdown();
    return 0;
}

/* The process-wide transfer counts since the last reset. */
static inline amp_transfer_stats transfers_now(void)
{
    amp_transfer_stats s;
    amp_transfer_get_stats(&s);
    return s;
}

/* Nonzero when the default accelerator has double precision. */
static inline int device_has_double(void)
{
    amp_accelerator *acc;
    amp_accelerator_info info;
    if (amp_accelerator_get_default(&acc) != AMP_OK || amp_accelerator_get_info(acc, &info) != AMP_OK)
        return 0;
    return info.supports_double;
}

static inline amp_kernel_stats kernels_now(void)
{
    amp_kernel_stats s;
    amp_kernel_get_stats(&s);
    return s;
}

#endif
