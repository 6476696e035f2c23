x
#if 1
#include "unterminated_if.h"
#endif
