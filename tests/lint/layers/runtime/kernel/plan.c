/* The other of the two. */
#include "kernel/cache.h"
