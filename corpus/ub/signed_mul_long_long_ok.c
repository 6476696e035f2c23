// The defined twin of signed_mul_long_long.c: the product in unsigned long long wraps to
// 0, and 2^31 * 2^31 fits a long long.
#include <stdio.h>
long long x = 1LL << 32;
long long y = 1LL << 31;
int main(void) {
    unsigned long long r = (unsigned long long)x * (unsigned long long)x;
    printf("%llu %lld\n", r, y * y);
    return 0;
}
