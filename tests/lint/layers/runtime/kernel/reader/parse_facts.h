/* Declared here, defined in parse.c. */
#include "kernel/reader/parse.h"
