/* Two modules of one layer that include each other. */
#include "kernel/plan.h"
