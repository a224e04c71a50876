/*
 * runtime/core/changes.c - one count of change per layer, which a repeated
 * launch watches (changes.h).
 */
#include "core/changes.h"

change_counts amp__changes;
