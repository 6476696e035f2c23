#include "test.h"
#include <stdarg.h>

/* Variadic definitions with <stdarg.h>: ints, long longs, unsigned values and pointers
   through '...', more of them than any target has argument registers, after 0 to 9
   named parameters (so the first unnamed argument starts in every register and on the
   stack); va_copy; a va_list passed to another function; nested variadic calls; a
   va_list forwarded to libc's vprintf and vsprintf. Expected values are computed by
   hand (sums of 1..n and the like); gcc -O0 confirms them. */

static long long sum_ll(int n, ...) {
    va_list ap;
    long long s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long long);
    va_end(ap);
    return s;
}

static int sum_int(int n, ...) {
    va_list ap;
    int s = 0;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s = s * 3 + va_arg(ap, int);
    va_end(ap);
    return s;
}

/* Alternating types: int, long long, unsigned, pointer, ... */
static long long mixed(int n, ...) {
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

/* Named parameters before '...': the first unnamed argument moves through every
   argument register and onto the stack. */
static long long after9(int a, int b, int c, int d, int e, int f, int g, int h, int k, ...) {
    va_list ap;
    va_start(ap, k);
    long long x = va_arg(ap, long long);
    int y = va_arg(ap, int);
    va_end(ap);
    return a + b + c + d + e + f + g + h + k + x * 10 + y * 100;
}

static long long after5(long a, long b, long c, long d, long e, ...) {
    va_list ap;
    va_start(ap, e);
    long long x = va_arg(ap, long long);
    long long y = va_arg(ap, long long);
    long long z = va_arg(ap, long long);
    va_end(ap);
    return a + b + c + d + e + x * 10 + y * 100 + z * 1000;
}

static long long after7(long a, long b, long c, long d, long e, long f, long g, ...) {
    va_list ap;
    va_start(ap, g);
    long long x = va_arg(ap, long long);
    long long y = va_arg(ap, long long);
    va_end(ap);
    return a + b + c + d + e + f + g + x * 10 + y * 100;
}

/* va_copy: read the list twice. */
static long long twice(int n, ...) {
    va_list ap, aq;
    va_start(ap, n);
    va_copy(aq, ap);
    long long first = 0, second = 0;
    for (int i = 0; i < n; i++)
        first += va_arg(ap, int);
    for (int i = 0; i < n; i++)
        second = second * 10 + va_arg(aq, int);
    va_end(aq);
    va_end(ap);
    return first * 1000000000LL + second;
}

/* A va_list passed to another function. */
static long long vsum(int n, va_list ap) {
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long long);
    return s;
}

static long long via_vsum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long long s = vsum(n, ap);
    va_end(ap);
    return s;
}

/* Restarting the list after va_end. */
static int restart(int n, ...) {
    va_list ap;
    int s = 0;
    for (int round = 0; round < 2; round++) {
        va_start(ap, n);
        for (int i = 0; i < n; i++)
            s += va_arg(ap, int) * (round + 1);
        va_end(ap);
    }
    return s;
}

/* Nested variadic calls: the unnamed arguments of one call become those of another. */
static long long outer(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int a = va_arg(ap, int);
    long long b = va_arg(ap, long long);
    int c = va_arg(ap, int);
    va_end(ap);
    return sum_ll(3, (long long)a, b, (long long)c) + sum_int(2, a, c);
}

/* Pointers through '...': strings and an array. */
static int total_length(const char *first, ...) {
    va_list ap;
    int n = 0;
    va_start(ap, first);
    for (const char *s = first; s; s = va_arg(ap, const char *))
        n += (int)strlen(s);
    va_end(ap);
    return n;
}

/* Forwarding to libc. */
static int say(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

static int format(char *buf, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsprintf(buf, fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    int v3 = 3, v7 = 7;
    ASSERT(0, sum_ll(0));
    ASSERT(1, sum_ll(1, 1LL));
    ASSERT(55, sum_ll(10, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL));
    ASSERT(210, sum_ll(20, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL, 11LL, 12LL,
                       13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL, 20LL));
    ASSERT(-3000000000000LL, sum_ll(3, -1000000000000LL, -1000000000000LL, -1000000000000LL));
    ASSERT(1093, sum_int(7, 1, 1, 1, 1, 1, 1, 1));
    ASSERT(-1093, sum_int(7, -1, -1, -1, -1, -1, -1, -1));
    ASSERT(102200, sum_int(11, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2));
    ASSERT(1 + 2 * 2 + 500 + 3 * 3 + 5 + 6 * 2 + 295 + 7 * 3,
           mixed(8, 1, 2LL, 4000000500u, &v3, 5, 6LL, 4294967295u, &v7));
    ASSERT(45 + 10 * 10 + 100 * 11, after9(1, 2, 3, 4, 5, 6, 7, 8, 9, 10LL, 11));
    ASSERT(15 + 60 + 700 + 8000, after5(1, 2, 3, 4, 5, 6LL, 7LL, 8LL));
    ASSERT(28 + 80 + 900, after7(1, 2, 3, 4, 5, 6, 7, 8LL, 9LL));
    ASSERT(45000000000LL + 123456789, twice(9, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    ASSERT(36, via_vsum(8, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL));
    ASSERT(3 * 45, restart(9, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    ASSERT(1 + 20000000000LL + 3 + 1 * 3 + 3, outer(3, 1, 20000000000LL, 3));
    ASSERT(11, total_length("abc", "", "defgh", "ij", "k", (const char *)0));
    ASSERT(13, say("%d-%s-%lld-%x\n", 42, "str", -7LL, 255u));
    char buf[64];
    ASSERT(11, format(buf, "[%5d|%-3s]", 12, "ab"));
    printf("%s\n", buf);
    ASSERT(0, strcmp(buf, "[   12|ab ]") != 0 ? 1 : 0);
    return 0;
}
