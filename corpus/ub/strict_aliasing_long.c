// ub: StrictAliasing @10
// `long` and `long long` are different types even where they have the same size
// (C11 6.2.5p4, 6.7.2): a `long long` element read through a `long *` is undefined on
// every target, and gcc's alias analysis keeps them apart.
#include <stdio.h>
int main(void) {
    long long a[2];
    a[1] = 7;
    long *p = (long *)&a[1];
    printf("%ld\n", *p);
    return 0;
}
