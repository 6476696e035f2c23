// The defined twin of signed_add_long_long.c: the same sum in unsigned long long.
#include <limits.h>
#include <stdio.h>
long long big = LLONG_MAX;
int main(void) {
    unsigned long long r = (unsigned long long)big + 2u;
    printf("%llu\n", r);
    long long near = big - 2 + 2;
    printf("%lld\n", near);
    return 0;
}
