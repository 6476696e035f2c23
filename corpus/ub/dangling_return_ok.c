// The defined twin of dangling_return.c: a static local outlives its function.
#include <stdio.h>
static int *keep(void) {
    static int x = 3;
    return &x;
}
int main(void) {
    int *p = keep();
    printf("%d\n", *p);
    return 0;
}
