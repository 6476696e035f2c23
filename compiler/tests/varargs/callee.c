#include "varargs.h"
#include <stdio.h>

long long sum_ll(int n, ...) {
    va_list ap;
    long long s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long long);
    va_end(ap);
    return s;
}

int sum_int(int n, ...) {
    va_list ap;
    int s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s = s * 3 + va_arg(ap, int);
    va_end(ap);
    return s;
}

long long mixed(int n, ...) {
    va_list ap;
    long long s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        switch (i % 4) {
        case 0: s += va_arg(ap, int); break;
        case 1: s += va_arg(ap, long long) * 2; break;
        case 2: s += va_arg(ap, unsigned) % 1000; break;
        default: s += *va_arg(ap, int *) * 3; break;
        }
    }
    va_end(ap);
    return s;
}

long long after9(int a, int b, int c, int d, int e, int f, int g, int h, int k, ...) {
    va_list ap;
    va_start(ap, k);
    long long x = va_arg(ap, long long);
    int y = va_arg(ap, int);
    va_end(ap);
    return a + b + c + d + e + f + g + h + k + x * 10 + y * 100;
}

long long vtake(const char *kinds, va_list ap) {
    long long s = 0;
    for (const char *k = kinds; *k; k++) {
        s *= 3;
        switch (*k) {
        case '1': { struct S1 x = va_arg(ap, struct S1); s += x.a; break; }
        case '3': { struct S3 x = va_arg(ap, struct S3); s += x.a + x.b * 10 + x.c * 100; break; }
        case '6': { struct S6 x = va_arg(ap, struct S6); s += x.a - x.b + x.c; break; }
        case '8': { struct S8 x = va_arg(ap, struct S8); s += x.a; break; }
        case 'c': { struct S12 x = va_arg(ap, struct S12); s += x.a * x.b - x.c; break; }
        case 'g': { struct S16 x = va_arg(ap, struct S16); s += x.a - x.b; break; }
        case 'o': { struct S24 x = va_arg(ap, struct S24); s += x.a + x.b + x.c; break; }
        case 'x': {
            struct S40 x = va_arg(ap, struct S40);
            for (int i = 0; i < 5; i++)
                s += x.a[i] * (i + 1);
            break;
        }
        case 'm': { struct M x = va_arg(ap, struct M); s += x.c + x.l + x.s; break; }
        case 'i': s += va_arg(ap, int); break;
        case 'l': s += va_arg(ap, long long); break;
        case 'p': s += *va_arg(ap, long long *); break;
        default: return -1;
        }
    }
    return s;
}

long long take(const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    long long s = vtake(kinds, ap);
    va_end(ap);
    return s;
}

long long named(struct S16 first, int n, ...) {
    va_list ap;
    long long s = first.a * 1000 + first.b;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, struct S12).b;
    va_end(ap);
    return s;
}

long long copies(int n, ...) {
    va_list ap, aq;
    va_start(ap, n);
    va_copy(aq, ap);
    long long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 10 + va_arg(aq, int);
    va_end(aq);
    for (int i = 0; i < n; i++)
        s = s * 10 + va_arg(ap, int);
    va_end(ap);
    return s;
}

int fwd(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsprintf(buf, fmt, ap);
    va_end(ap);
    return n;
}

long long vsum(int n, va_list ap) {
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long long);
    return s;
}
