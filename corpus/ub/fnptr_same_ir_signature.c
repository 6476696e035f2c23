// ub: BadCall @9
// A call through a pointer whose function type is not compatible with the function's,
// although both have the same IR signature (int and unsigned are both i32): C99
// 6.3.2.3p8 makes the call undefined.
#include <stdio.h>
static int negate(int x) { return -x; }
int main(void) {
    int (*f)(unsigned) = (int (*)(unsigned))negate;
    printf("%d\n", f(5u));
    return 0;
}
