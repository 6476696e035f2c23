// ub: UseAfterScope @10
// A pointer to a block's local, used after the block ended (C99 6.2.4p2,p5).
#include <stdio.h>
int main(void) {
    int *p;
    {
        int x = 42;
        p = &x;
    }
    printf("%d\n", *p);
    return 0;
}
