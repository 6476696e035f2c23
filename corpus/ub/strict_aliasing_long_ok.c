// The defined twin of strict_aliasing_long.c: the same element read through
// `unsigned long long *` (the unsigned variant) and through `char *`.
#include <stdio.h>
int main(void) {
    long long a[2];
    a[1] = 7;
    unsigned long long *p = (unsigned long long *)&a[1];
    char *c = (char *)&a[1];
    printf("%llu %d\n", *p, c[0]);
    return 0;
}
