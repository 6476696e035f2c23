// The defined twin of shift_too_large.c: a 64-bit shift by 32.
#include <stdio.h>
unsigned long long x = 1;
int n = 32;
int main(void) {
    printf("%llu\n", x << n);
    return 0;
}
