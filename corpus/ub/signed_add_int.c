// ub: SignedOverflow @7
// int + int past INT_MAX (C99 6.5p5).
#include <limits.h>
#include <stdio.h>
int big = INT_MAX;
int main(void) {
    int r = big + 1;
    printf("%d\n", r);
    return 0;
}
