// The defined twin of lifetime_break.c: the object outlives the loop.
#include <stdio.h>
int main(void) {
    int *p = 0;
    int v = 0;
    while (1) {
        v = 5;
        p = &v;
        break;
    }
    printf("%d\n", *p);
    return 0;
}
