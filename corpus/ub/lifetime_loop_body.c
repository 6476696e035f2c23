// ub: UseAfterScope @10
// A pointer to a loop body's local, used after the loop.
#include <stdio.h>
int main(void) {
    int *p = 0;
    for (int i = 0; i < 3; i++) {
        int v = i * 10;
        p = &v;
    }
    printf("%d\n", *p);
    return 0;
}
