// The defined twin of vla_after_scope.c: the pointer is used inside the block.
#include <stdio.h>
static volatile int n = 4;
int main(void) {
    int *p;
    {
        int a[n];
        a[0] = 5;
        p = a;
        printf("%d\n", *p);
    }
    return 0;
}
