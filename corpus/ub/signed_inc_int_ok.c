// The defined twin of signed_inc_int.c: ++ of a signed char at 127 is computed in int
// (no overflow) and converted back, which is implementation-defined, not undefined (C99
// 6.3.1.3p3; gcc wraps); ++ stops short of INT_MAX.
#include <limits.h>
#include <stdio.h>
int start = INT_MAX - 5;
signed char c = 127;
int main(void) {
    int i = start;
    for (int k = 0; k < 5; k++)
        i++;
    c++;
    printf("%d %d\n", i, c);
    return 0;
}
