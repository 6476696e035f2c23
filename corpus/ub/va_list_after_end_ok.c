// The defined twin of va_list_after_end.c: the list is started again after va_end.
#include <stdarg.h>
#include <stdio.h>
static int second(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int a = va_arg(ap, int);
    va_end(ap);
    va_start(ap, n);
    int b = va_arg(ap, int);
    b = va_arg(ap, int);
    va_end(ap);
    return a + b;
}
int main(void) {
    printf("%d\n", second(2, 1, 2));
    return 0;
}
