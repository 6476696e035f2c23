// ub: UseAfterScope @14
// A pointer into an array of a loop body, kept in a struct from the previous iteration:
// each entry into the body creates a new `buf` (C99 6.2.4p5), on every data model (the
// i686 judge gives the new object a new address too: docs/ub-judge.md).
#include <stdio.h>
struct keep { int *at; int round; };
int main(void) {
    struct keep k = { 0, -1 };
    int total = 0;
    int round = 0;
    do {
        int buf[3] = { round, round + 1, round + 2 };
        if (k.at)
            total += *k.at;
        k.at = &buf[2];
        k.round = round;
    } while (++round < 3);
    printf("%d %d\n", total, k.round);
    return 0;
}
