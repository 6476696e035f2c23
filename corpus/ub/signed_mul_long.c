// ub: SignedOverflow
// long * long past LONG_MAX (x86_64: 2^32 * 2^32).
#include <stdio.h>
long x = 1L << 32;
int main(void) {
    long r = x * x;
    printf("%ld\n", r);
    return 0;
}
