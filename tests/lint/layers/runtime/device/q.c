/* A module of the device layer that reaches up: refused. */
#include "data/v.h"
