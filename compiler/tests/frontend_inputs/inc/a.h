/* a.h */
int a_h;
#include "sub/b.h"
int a_h_end;
