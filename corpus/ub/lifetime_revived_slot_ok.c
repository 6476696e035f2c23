// The defined twin of lifetime_revived_slot.c: the pointer is taken again in every
// iteration before it is used, the kept value is a copy, and a pointer to an object of
// the enclosing block survives the inner block's iterations.
#include <stdio.h>
int main(void) {
    int *kept = 0;
    int sum = 0, previous = -1;
    int outer = 5;
    int *to_outer = &outer;
    for (int i = 0; i < 3; i++) {
        int x = i * 10;
        kept = &x;
        sum += *kept + *to_outer;
        if (previous >= 0) sum += previous;
        previous = *kept;
        *to_outer += 1;
    }
    int k = 0;
again: {
        int w = k * 3;
        int *q = &w;
        sum += *q;
        if (++k < 3) goto again;
    }
    printf("%d %d\n", sum, outer);
    return 0;
}
