// The defined twin of shift_signed_count_too_large.c. Shifts of unsigned values never
// overflow, and 1 << 30 is representable (C11 6.5.7p4). The signed shifts into and past
// the sign bit are undefined in ISO C but defined by gcc ("GCC does not use the latitude
// given in C99 and C11 only to treat certain aspects of signed '<<' as undefined",
// gcc manual, "Integers implementation"): the two's-complement bits shifted left. The UB
// judge follows gcc there (docs/ub-judge.md), so this program is judged against gcc -O0
// at every stage: `1 << 31` is INT_MIN, `0x1234 << 28` is 0x40000000 (c-torture's
// 20020508-2.c), `3 << 30` is -2^30, and 64-bit `1LL << 63` is LLONG_MIN.
#include <stdio.h>
unsigned one = 1;
int ione = 1;
int n = 31;
int v1234 = 0x1234;
int three = 3;
long long lone = 1;
int main(void) {
    unsigned r = one << n;
    unsigned w = 0xffffffffu << 4;
    printf("%u %u %d\n", r, w, ione << (n - 1));
    printf("%d %d %d\n", ione << n, v1234 << (n - 3), three << (n - 1));
    printf("%lld %lld\n", lone << 63, (lone + 0x1234567) << 40);
    return 0;
}
