/*
 * runtime/core/changes.c - the counts of change that a repeated launch
 * watches (changes.h).
 */
#include "core/changes.h"

change_counts amp__changes;
