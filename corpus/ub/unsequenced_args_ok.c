// The defined twin of unsequenced_args.c: arguments that modify different objects, a
// modification sequenced by a comma inside one argument, and one inside a call that is
// an argument (its own arguments are complete before it runs) (C99 6.5p2, 6.5.2.2p10).
#include <stdio.h>
static int pair(int a, int b) { return 10 * a + b; }
static int id(int x) { return x; }
int main(void) {
    int i = 3, j = 4;
    printf("%d\n", pair(i++, j++));
    printf("%d\n", pair((i++, i), j));
    printf("%d\n", pair(id(j), 0 && i++ ? i : 1));
    printf("%d %d\n", i, j);
    return 0;
}
