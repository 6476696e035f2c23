// ub: DeadFrame @11
// Using a pointer to a local of a function that has returned.
#include <stdio.h>
static int *leak(void) {
    int x = 3;
    int *p = &x;
    return p;
}
int main(void) {
    int *p = leak();
    printf("%d\n", *p);
    return 0;
}
