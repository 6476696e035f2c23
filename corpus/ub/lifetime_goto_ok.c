// The defined twin of lifetime_goto.c: a goto that stays inside the block, and one out
// of it after which the pointer is not used; then a jump back into a block, whose object
// lives again and is written before it is read (C99 6.2.4p5, 6.8.6.1).
#include <stdio.h>
int main(void) {
    int *kept = 0, total = 0, rounds = 0;
    {
        int inner = 42;
        kept = &inner;
        goto inside;
    inside:
        total += *kept;
        if (total > 0)
            goto out;
    }
out:
    kept = &total;
    if (rounds++ < 2) {
        int again = rounds;
        total += again;
        goto out;
    }
    printf("%d %d\n", *kept, rounds);
    return 0;
}
