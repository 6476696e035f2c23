// ub: SignedOverflow @7
// long long + long long past LLONG_MAX.
#include <limits.h>
#include <stdio.h>
long long big = LLONG_MAX;
int main(void) {
    long long r = big + 2;
    printf("%lld\n", r);
    return 0;
}
