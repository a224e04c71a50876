/*
 * samples/common/sample_check.h - what the samples do when a call fails:
 * print the status and the library's message, and stop. C++ AMP threw an
 * exception in the same places.
 */
#ifndef SAMPLE_CHECK_H
#define SAMPLE_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <amp/amp.h>

static inline void check(amp_status status)
{
    if (status != AMP_OK) {
        fprintf(stderr, "error: %s: %s\n", amp_status_name(status), amp_last_error());
        exit(EXIT_FAILURE);
    }
}

#endif
