// ub: OutOfBounds @10
// Writing one element past a variable-length array (C99 6.5.6p8): its storage is a
// `dynalloca` of exactly n * sizeof(int) bytes, so the oracle sees the bound.
#include <stdio.h>
static volatile int n = 4;
int main(void) {
    int a[n];
    for (int i = 0; i < n; i++)
        a[i] = i;
    a[n] = 9;
    printf("%d\n", a[0]);
    return 0;
}
