// ub: VaListInvalid @11
// A va_list used after va_end (C99 7.15.1.3p2: it must be initialised again by va_start
// or va_copy before it is used).
#include <stdarg.h>
#include <stdio.h>
static int second(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int a = va_arg(ap, int);
    va_end(ap);
    int b = va_arg(ap, int);
    return a + b;
}
int main(void) {
    printf("%d\n", second(2, 1, 2));
    return 0;
}
