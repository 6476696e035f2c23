/* A function that no library defines, called only in code no path reaches (c-torture
 * medce-1.c's link_error): gcc -O0 drops the call, and the oracle must not refuse the
 * program for a declaration only dead code uses. Expected values from gcc 12 -O0. */
#include "test.h"

extern void link_error(void);

static int reached;

static void jump_into_dead_block(int x) {
    switch (x) {
    case 0:
        if (0) {
            link_error();
    case 1:
            reached = 1;
        }
    }
}

int main(void) {
    jump_into_dead_block(1);
    ASSERT(1, reached);
    jump_into_dead_block(0);
    ASSERT(1, reached);
    return 0;
}
