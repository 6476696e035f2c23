// ub: PointerComparison @7
// A relational comparison of pointers into two different objects (C99 6.5.8p5).
#include <stdio.h>
int main(void) {
    int a[4], b[4];
    int *p = a, *q = b;
    int lt = p < q;
    printf("%d\n", lt | 1);
    return 0;
}
