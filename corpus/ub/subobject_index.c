// ub: IndexOutOfBounds @8
// Indexing past an array member, though the struct goes on (C99 6.5.6p8, J.2).
#include <stdio.h>
struct rec { int a[4]; int b; };
int n = 4;
int main(void) {
    struct rec s = {{1, 2, 3, 4}, 5};
    printf("%d\n", s.a[n]);
    return 0;
}
