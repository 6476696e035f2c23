int next_from_I;
#include_next <next.h>
