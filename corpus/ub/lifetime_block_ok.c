// The defined twin of lifetime_block.c: the pointer is used inside the block, and an
// outer object outlives the inner block.
#include <stdio.h>
int main(void) {
    int *p;
    int y = 7;
    {
        int x = 42;
        p = &x;
        printf("%d\n", *p);
        p = &y;
    }
    printf("%d\n", *p);
    return 0;
}
