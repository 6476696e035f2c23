// The defined twin of uninit_read.c: every element written first.
#include <stdio.h>
int main(void) {
    int a[2];
    int *p = a;
    a[0] = 1;
    a[1] = 2;
    printf("%d\n", p[1]);
    return 0;
}
