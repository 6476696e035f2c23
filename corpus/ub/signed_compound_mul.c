// ub: SignedOverflow @7
// x *= 2 in int past INT_MAX.
#include <stdio.h>
int main(void) {
    int x = 1;
    for (int k = 0; k < 31; k++)
        x *= 2;
    printf("%d\n", x);
    return 0;
}
