// ub: IndexOutOfBounds @10
// A pointer derived from an array member keeps the member's bounds (C99 6.5.6p8):
// `p[4]` of `int *p = s.a` with `int a[4]` is undefined like `s.a[4]`, although the
// bytes read are `s.b`, inside the same struct.
#include <stdio.h>
struct rec { int a[4]; int b; };
int main(void) {
    struct rec s = {{1, 2, 3, 4}, 5};
    int *p = s.a;
    printf("%d\n", p[4]);
    return 0;
}
