// The defined twin of vla_out_of_bounds.c: the last element is a[n - 1].
#include <stdio.h>
static volatile int n = 4;
int main(void) {
    int a[n];
    for (int i = 0; i < n; i++)
        a[i] = i;
    a[n - 1] = 9;
    printf("%d\n", a[0] + a[3]);
    return 0;
}
