// The defined twin of div_by_zero.c: the divisor is tested first; negative operands
// truncate toward zero (C99 6.5.5p6).
#include <stdio.h>
int zero = 0;
int m = -7;
int main(void) {
    printf("%d %d %d\n", zero ? 7 / zero : -1, m / 2, m % 2);
    return 0;
}
