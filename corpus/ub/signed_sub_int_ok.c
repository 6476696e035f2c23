// The defined twin of signed_sub_int.c: INT_MIN - (-1) and INT_MIN + 0 stay in range.
#include <limits.h>
#include <stdio.h>
int small = INT_MIN;
int minus_one = -1;
int main(void) {
    int r = small - minus_one;
    printf("%d %d\n", r, small - 0);
    return 0;
}
