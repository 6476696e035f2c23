// ub: UseAfterScope @13
// A block left by a `goto` ends the lifetime of its objects (C99 6.2.4p5: "execution of
// the block ends in any way"); the pointer kept across the jump dangles.
#include <stdio.h>
int main(void) {
    int *kept = 0;
    {
        int inner = 42;
        kept = &inner;
        goto out;
    }
out:
    printf("%d\n", *kept);
    return 0;
}
