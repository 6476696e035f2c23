// The defined twin of fnptr_same_ir_signature.c: calls through pointers whose types are
// compatible with the function's although they are spelled differently (top-level
// qualifiers of parameters do not count, an array parameter is a pointer, and an
// unprototyped pointer type is compatible with a prototype of promoted parameters), and
// a pointer converted to another type and back (C99 6.7.5.3p15, 6.3.2.3p8).
#include <stdio.h>
static int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
static long twice(long x) { return 2 * x; }
int main(void) {
    int v[3] = {1, 2, 3};
    int (*f)(int[], const int) = sum;
    long (*g)() = twice;
    void (*h)(void) = (void (*)(void))sum;
    int (*back)(int *, int) = (int (*)(int *, int))h;
    printf("%d %ld %d\n", f(v, 3), g(21L), back(v, 2));
    return 0;
}
