/* Float arguments past the float registers (x86-64 %xmm0-7, AArch64 v0-7) go on the stack
 * in argument order, among the integer arguments past theirs: a call with 9 doubles and
 * 9 ints interleaved, read back by `va_arg` (c-torture's va-arg-15.c, which phicc's caller
 * got wrong: it put the 9th double before the stack ints) and by glibc's printf; and a
 * record passed in memory after doubles, where the integer filler registers must not count
 * the doubles. Expected output: gcc -O0 on all four targets. */
#include <stdarg.h>
#include <stdio.h>

static unsigned long long mix(int n, ...) {
    va_list ap;
    unsigned long long sum = 0;
    va_start(ap, n);
    for (int i = 1; i <= n; i++) {
        if (i % 2 == 0)
            sum = sum * 31 + (unsigned long long)(long long)(va_arg(ap, double) * 4);
        else
            sum = sum * 31 + (unsigned)va_arg(ap, int);
    }
    va_end(ap);
    return sum;
}

struct big { long long a, b, c; };

static long long after_doubles(int i, double x, double y, struct big b, int j) {
    return i + (long long)(x * 2) + (long long)(y * 4) + b.a * 3 + b.b * 5 + b.c * 7 + j * 11;
}

static double named(int a, double b, int c, double d, int e, double f, int g, double h, int i,
                    double j, int k, double l, int m, double n, int o, double p, int q,
                    double r, int s, double t) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10 + k * 11
           + l * 12 + m * 13 + n * 14 + o * 15 + p * 16 + q * 17 + r * 18 + s * 19 + t * 20;
}

int main(void) {
    printf("%llu\n", mix(18, 1, 2.25, 3, 4.5, 5, 6.75, 7, 8.0, 9, 10.25, 11, 12.5, 13, 14.75, 15,
                         16.0, 17, 18.25));
    printf("%llu\n", mix(20, -1, -2.5, 3, 4.5, 5, 6.5, 7, 8.5, 9, 10.5, 11, 12.5, 13, 14.5, 15,
                         16.5, 17, 18.5, 19, 20.5));
    printf("%.2f %d %.2f %d %.2f %d %.2f %d %.2f %d %.2f %d %.2f %d %.2f %d %.2f %d %.2f %d\n",
           1.5, 2, 3.5, 4, 5.5, 6, 7.5, 8, 9.5, 10, 11.5, 12, 13.5, 14, 15.5, 16, 17.5, 18,
           19.5, 20);
    struct big b = {100, 200, 300};
    printf("%lld\n", after_doubles(1, 2.5, 3.25, b, 9));
    printf("%.3f\n", named(1, 2.5, 3, 4.5, 5, 6.5, 7, 8.5, 9, 10.5, 11, 12.5, 13, 14.5, 15, 16.5,
                           17, 18.5, 19, 20.5));
    return 0;
}
