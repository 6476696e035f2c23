// The defined twin of lifetime_loop_body.c: the value is copied out of the body, each
// iteration uses its own object, and continue/break leave the body cleanly; a goto back
// into a block re-enters it.
#include <stdio.h>
int main(void) {
    int last = 0, sum = 0;
    for (int i = 0; i < 6; i++) {
        int v = i * 10;
        int *p = &v;
        if (i == 1)
            continue;
        if (i == 4)
            break;
        last = *p;
        sum += *p;
    }
    int k = 0;
again: {
        int w = k;
        int *q = &w;
        sum += *q;
        if (++k < 3)
            goto again;
    }
    printf("%d %d\n", last, sum);
    return 0;
}
