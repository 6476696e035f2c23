// ub: UseAfterScope @11
// A pointer kept from the previous iteration of a loop body: each entry into the body
// creates a new `x` (C99 6.2.4p5), so `*kept` reads an object whose lifetime ended,
// even though the new `x` sits in the same stack slot.
#include <stdio.h>
int main(void) {
    int *kept = 0;
    int sum = 0;
    for (int i = 0; i < 3; i++) {
        int x = i * 10;
        if (kept) sum += *kept;
        kept = &x;
    }
    printf("%d\n", sum);
    return 0;
}
