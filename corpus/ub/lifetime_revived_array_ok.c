// The defined twin of lifetime_revived_array.c: what is kept across iterations is a copy
// of the element, and the pointer in the struct is taken again in each iteration before
// it is used; pointers into one iteration's array compare within that array.
#include <stdio.h>
struct keep { int *at; int round; };
int main(void) {
    struct keep k = { 0, -1 };
    int total = 0, kept = 0;
    int round = 0;
    do {
        int buf[3] = { round, round + 1, round + 2 };
        total += kept;
        k.at = &buf[2];
        total += *k.at + (int)(k.at - buf) + (k.at > &buf[0]);
        kept = *k.at;
        k.round = round;
    } while (++round < 3);
    printf("%d %d\n", total, k.round);
    return 0;
}
