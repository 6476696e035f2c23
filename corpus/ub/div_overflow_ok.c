// The defined twin of div_overflow.c: INT_MIN / 1, and the unsigned quotient.
#include <limits.h>
#include <stdio.h>
int small = INT_MIN;
int one = 1;
int main(void) {
    printf("%d %u\n", small / one, (unsigned)small / 1u);
    return 0;
}
