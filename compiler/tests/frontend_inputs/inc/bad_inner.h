int fine;
#include "sub/bad_deepest.h"
