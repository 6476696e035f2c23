// ub: UseAfterScope @13
// A pointer into a variable-length array used after its block ended (C99 6.2.4p2): the
// block's end frees the storage (`stackrestore`).
#include <stdio.h>
static volatile int n = 4;
int main(void) {
    int *p;
    {
        int a[n];
        a[0] = 5;
        p = a;
    }
    printf("%d\n", *p);
    return 0;
}
