#include "test.h"
#include <stdarg.h>

/* Variadic functions called through pointers with floats in the `...` part: RISC-V LP64D
   passes an unnamed double in an integer register (a named one in fa0..), so the call
   must say where `...` starts (the IR call's named-argument count, docs/ir-notes.md).
   Named doubles before `...`, unnamed doubles and promoted floats after it, more of them
   than the argument registers, mixed with ints; a pointer to libc's sprintf (c-torture's
   930513-1.c); a pointer held in a struct and in an array. Expected values are exact
   binary fractions summed by hand; gcc -O0 confirms them. */

static double mix(double named, int n, ...) {
    va_list ap;
    double s = named;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        s += va_arg(ap, double);
        s += va_arg(ap, int);
    }
    va_end(ap);
    return s;
}

static double only_doubles(int n, ...) {
    va_list ap;
    double s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s = s * 2 + va_arg(ap, double);
    va_end(ap);
    return s;
}

static long long ints_after(double a, float b, ...) {
    va_list ap;
    va_start(ap, b);
    long long s = (long long)(a * 4) + (long long)(b * 4);
    s += va_arg(ap, long long) * 100;
    s += (long long)(va_arg(ap, double) * 8) * 10000;
    va_end(ap);
    return s;
}

struct holder {
    double (*f)(int, ...);
};

int main(void) {
    double (*pm)(double, int, ...) = mix;
    /* 0.5 + (1.25 + 1) + (2.5 + 2) + (-0.75 + 3) = 9.5 */
    ASSERT(38, pm(0.5, 3, 1.25, 1, 2.5, 2, -0.75, 3) * 4);
    /* Twelve unnamed doubles: past the eight argument registers of every target. */
    double (*pd)(int, ...) = only_doubles;
    /* s = 2s + d for d = 1,0,1,0,1,0,1,0,1,0,1,0.5: 0b101010101010 + 0.5 = 2730.5 */
    ASSERT(5461, pd(12, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.5) * 2);
    /* A float promoted to double in `...`. */
    float quarter = 0.25f;
    /* 0.25 * 2 + 0.25 */
    ASSERT(3, pd(2, 0.25, quarter) * 4);
    long long (*pi)(double, float, ...) = ints_after;
    /* 1.5*4 + 0.75*4 + 7*100 + (0.125*8)*10000 = 6 + 3 + 700 + 10000 */
    ASSERT(10709, pi(1.5, 0.75f, 7LL, 0.125));
    struct holder h = {only_doubles};
    ASSERT(7, h.f(3, 1.0, 1.0, 1.0));
    double (*table[2])(int, ...) = {only_doubles, only_doubles};
    ASSERT(-2, table[1](2, -1.0, 0.0));
    /* libc through a pointer (930513-1.c). */
    int (*sp)(char *, const char *, ...) = sprintf;
    char buf[64];
    sp(buf, "%g %d %.3f %s", 2.5, 7, -0.125, "x");
    ASSERT(0, strcmp(buf, "2.5 7 -0.125 x"));
    printf("%s\n", buf);
    return 0;
}
