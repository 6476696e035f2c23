// ub: VaArgWrongType @9
// va_arg of a type the next argument does not have (C99 7.15.1.1p2): an int is passed,
// a long long is read (its upper half is whatever the register or slot held).
#include <stdarg.h>
#include <stdio.h>
static long long first(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long long v = va_arg(ap, long long);
    va_end(ap);
    return v;
}
int main(void) {
    printf("%lld\n", first(1, 5));
    return 0;
}
