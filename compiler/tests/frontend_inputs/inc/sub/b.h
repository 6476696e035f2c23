int b_h; const char *b_file = __FILE__;
#include "c.h"
