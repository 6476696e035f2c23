// ub: SignedOverflow @8
// int - int below INT_MIN.
#include <limits.h>
#include <stdio.h>
int small = INT_MIN;
int one = 1;
int main(void) {
    int r = small - one;
    printf("%d\n", r);
    return 0;
}
