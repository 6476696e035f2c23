// The defined twin of signed_neg_int.c: -INT_MIN computed in unsigned is 2^31, and
// -INT_MAX is in range.
#include <limits.h>
#include <stdio.h>
int small = INT_MIN;
int big = INT_MAX;
int main(void) {
    unsigned r = -(unsigned)small;
    printf("%u %d\n", r, -big);
    return 0;
}
