// ub: Unsequenced @8
// Two arguments of one call: one modifies `i`, the other reads it; arguments are
// unsequenced with each other (C99 6.5p2, 6.5.2.2p10).
#include <stdio.h>
static int pair(int a, int b) { return 10 * a + b; }
int main(void) {
    int i = 3;
    printf("%d\n", pair(i++, i));
    return 0;
}
