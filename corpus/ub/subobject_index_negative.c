// ub: IndexOutOfBounds @8
// A negative index into an array member.
#include <stdio.h>
struct rec { int b; int a[4]; };
int k = -1;
int main(void) {
    struct rec s = {5, {1, 2, 3, 4}};
    printf("%d\n", s.a[k]);
    return 0;
}
