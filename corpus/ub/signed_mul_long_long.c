// ub: SignedOverflow @6
// long long * long long past LLONG_MAX (2^32 * 2^32).
#include <stdio.h>
long long x = 1LL << 32;
int main(void) {
    long long r = x * x;
    printf("%lld\n", r);
    return 0;
}
