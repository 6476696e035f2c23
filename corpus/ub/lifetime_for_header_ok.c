// The defined twin of lifetime_for_header.c: the loop variable's address used inside
// the loop, after `continue`, and before a `break`; the value copied out (C99 6.8.5p5).
#include <stdio.h>
int main(void) {
    int sum = 0, seen = 0;
    for (int i = 0; i < 10; i++) {
        int *p = &i;
        if (*p % 2)
            continue;
        sum += *p;
        if (*p == 6) {
            seen = *p;
            break;
        }
    }
    for (int j = 0, *q = &j; j < 3; j++)
        sum += *q;
    printf("%d %d\n", sum, seen);
    return 0;
}
