// ub: PointerSubtraction @9
// Subtracting pointers into two different arrays (C99 6.5.6p9).
#include <stdio.h>
int a[4];
int b[4];
int main(void) {
    int *p = &a[1];
    int *q = &b[2];
    long d = q - p;
    printf("%d\n", d != 0);
    return 0;
}
