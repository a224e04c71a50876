/* A module in a folder of a layer, whose own private header includes its
 * header: a circle, though no file includes itself. */
#include "kernel/reader/parse_facts.h"
