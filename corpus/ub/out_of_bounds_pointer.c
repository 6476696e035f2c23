// ub: OutOfBounds @8
// A read past the end of an array through a pointer.
#include <stdio.h>
int k = 4;
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int *p = a;
    printf("%d\n", p[k]);
    return 0;
}
