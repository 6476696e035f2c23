// ub: IndexOutOfBounds @11
// The bounds travel with the pointer variable through `p++`: the fifth `*p` reads one
// past the end of `a` (the bytes of `b`), which is undefined (C99 6.5.6p8).
#include <stdio.h>
struct rec { int a[4]; int b; };
int main(void) {
    struct rec s = {{1, 2, 3, 4}, 5};
    int *p = &s.a[0];
    int sum = 0;
    for (int i = 0; i < 5; i++) {
        sum += *p;
        p++;
    }
    printf("%d\n", sum);
    return 0;
}
