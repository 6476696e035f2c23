// ub: SignedOverflow @7
// Unary minus of INT_MIN (C99 6.5p5: the result is not representable).
#include <limits.h>
#include <stdio.h>
int small = INT_MIN;
int main(void) {
    int r = -small;
    printf("%d\n", r);
    return 0;
}
