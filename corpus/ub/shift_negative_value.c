// ub: SignedShift @6
// Left shift of a negative int (C99 6.5.7p4).
#include <stdio.h>
int minus = -1;
int main(void) {
    int r = minus << 1;
    printf("%d\n", r);
    return 0;
}
