// The defined twin of signed_mul_long.c: the product in unsigned long wraps to 0, and
// 2^31 * 2^31 fits a long.
#include <stdio.h>
long x = 1L << 32;
long y = 1L << 31;
int main(void) {
    unsigned long r = (unsigned long)x * (unsigned long)x;
    printf("%lu %ld\n", r, y * y);
    return 0;
}
