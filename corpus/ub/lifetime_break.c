// ub: UseAfterScope @11
// A pointer to a loop body's local, used after a break left the body.
#include <stdio.h>
int main(void) {
    int *p = 0;
    while (1) {
        int v = 5;
        p = &v;
        break;
    }
    printf("%d\n", *p);
    return 0;
}
