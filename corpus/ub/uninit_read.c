// ub: UninitRead @8
// A read of an automatic object never written (C99 J.2: its value is indeterminate).
#include <stdio.h>
int main(void) {
    int a[2];
    int *p = a;
    a[0] = 1;
    printf("%d\n", p[1]);
    return 0;
}
