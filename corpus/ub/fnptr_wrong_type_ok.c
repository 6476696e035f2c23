// The defined twin of fnptr_wrong_type.c: a pointer converted to another function type
// and back compares equal and calls the function (C99 6.3.2.3p8).
#include <stdio.h>
static int twice(int x) { return 2 * x; }
int main(void) {
    long (*f)(long, long) = (long (*)(long, long))twice;
    int (*g)(int) = (int (*)(int))f;
    printf("%d\n", g(3));
    return 0;
}
