// ub: Unsequenced @7
// A variable modified twice between two sequence points: by `++` and by the assignment
// (C99 6.5p2; C11 6.5p2). gcc -Wsequence-point warns; no sanitizer reports it.
#include <stdio.h>
int main(void) {
    int i = 1;
    i = i++ + 1;
    printf("%d\n", i);
    return 0;
}
