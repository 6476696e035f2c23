// The defined twin of va_arg_wrong_type.c: the argument has the type va_arg reads
// (signed and unsigned versions of one type may be mixed, C99 7.15.1.1p2).
#include <stdarg.h>
#include <stdio.h>
static long long first(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long long v = va_arg(ap, long long);
    unsigned u = va_arg(ap, unsigned);
    va_end(ap);
    return v + u;
}
int main(void) {
    printf("%lld\n", first(2, 5LL, 7));
    return 0;
}
