// ub: SignedShift @7
// 1 << 31 in int: 2^31 is not representable (C99 6.5.7p4).
#include <stdio.h>
int one = 1;
int n = 31;
int main(void) {
    int r = one << n;
    printf("%d\n", r);
    return 0;
}
