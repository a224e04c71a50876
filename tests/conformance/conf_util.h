/*
 * tests/conformance/conf_util.h - what the conformance tests share: the
 * helpers of test_util.h, a view's ledger, and checks that name the element
 * that differs.
 */
#ifndef CONF_UTIL_H
#define CONF_UTIL_H

#include "test_util.h"

/* The transfers of a view's data source since it was made. */
static inline amp_transfer_stats ledger_of(const amp_array_view *v)
{
    amp_transfer_stats s;
    memset(&s, 0, sizeof s);
    if (amp_array_view_get_transfers(v, &s) != AMP_OK)
        fail_msg("amp_array_view_get_transfers: %s", amp_last_error());
    return s;
}

/* p[k] = first + k for k in [0, n). */
static inline void iota(int *p, int n, int first)
{
    for (int k = 0; k < n; k++)
        p[k] = first + k;
}

/* Fail, naming the element, unless got[k] == want[k] for every k. */
#define assert_ints(got, want, n)                                                                  \
    do {                                                                                           \
        for (int k_ = 0; k_ < (int)(n); k_++)                                                      \
            if ((got)[k_] != (want)[k_])                                                           \
                fail_msg("%s[%d] is %d, not %d", #got, k_, (got)[k_], (want)[k_]);                 \
    } while (0)

#endif
