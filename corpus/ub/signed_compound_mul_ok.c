// The defined twin of signed_compound_mul.c: unsigned doubling wraps to 0.
#include <stdio.h>
int main(void) {
    unsigned x = 1;
    for (int k = 0; k < 32; k++)
        x *= 2;
    int y = 1;
    for (int k = 0; k < 30; k++)
        y *= 2;
    printf("%u %d\n", x, y);
    return 0;
}
