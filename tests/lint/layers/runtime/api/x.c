/* An include that does not name its layer: refused. */
#include "x.h"
