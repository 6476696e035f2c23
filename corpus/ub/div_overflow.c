// ub: DivOverflow
// INT_MIN / -1: the quotient is not representable (C99 6.5p5).
#include <limits.h>
#include <stdio.h>
int small = INT_MIN;
int minus_one = -1;
int main(void) {
    printf("%d\n", small / minus_one);
    return 0;
}
