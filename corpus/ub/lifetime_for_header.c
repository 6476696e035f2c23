// ub: UseAfterScope @10
// An object declared in a `for` statement's first clause lives only as long as the loop
// (C99 6.8.5p5: the `for` statement is a block); its address used after the loop
// dangles.
#include <stdio.h>
int main(void) {
    int *last = 0;
    for (int i = 0; i < 3; i++)
        last = &i;
    printf("%d\n", *last);
    return 0;
}
