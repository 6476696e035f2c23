// ub: BadCall @7
// A call through a function pointer whose type is not the function's (C99 6.3.2.3p8).
#include <stdio.h>
static int twice(int x) { return 2 * x; }
int main(void) {
    long (*f)(long, long) = (long (*)(long, long))twice;
    printf("%ld\n", f(3, 4));
    return 0;
}
