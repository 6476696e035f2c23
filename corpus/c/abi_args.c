#include "test.h"

/* Arguments of every width, more than any target passes in registers (x86_64: 6,
   aarch64 and riscv64: 8, i686: none), so the later ones go on the stack at their
   ABI slots; narrow arguments must arrive extended by their own type. Expected values
   are computed by hand from the C conversions. */

static long long mix(signed char a, unsigned char b, short c, unsigned short d, int e,
                     unsigned f, long long g, unsigned long long h, signed char i,
                     unsigned short j, int k, long long l) {
    return a + b + c + d + e + (long long)f + g + (long long)h + i + j + k + l;
}

static int tenth(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j) {
    return j * 1000 + i * 100 + a - b + c - d + e - f + g - h;
}

static signed char last_char(int a, int b, int c, int d, int e, int f, int g, int h,
                             signed char x) {
    return x + a - b + c - d + e - f + g - h;
}

static unsigned short last_ushort(long long a, long long b, long long c, long long d,
                                  long long e, long long f, long long g, unsigned short x) {
    return x + (unsigned short)(a + b + c + d + e + f + g);
}

static long long wide_tail(int a, long long b, int c, long long d, int e, long long f,
                           int g, long long h, int i, long long j) {
    return a + b + c + d + e + f + g + h + i + j;
}

static int sum_ptrs(int *a, int *b, int *c, int *d, int *e, int *f, int *g, int *h) {
    return *a + *b + *c + *d + *e + *f + *g + *h;
}

/* The callee changes its parameters: the caller's values must not change. */
static int clobber(int a, int b, int c, int d, int e, int f, int g, int h) {
    a = b = c = d = e = f = g = h = 0;
    return a + b + c + d + e + f + g + h;
}

int main(void) {
    ASSERT(-128 + 255 - 32768 + 65535 - 5 + 4000000000LL + 9000000000LL + 1 - 1 + 65535 + 7 - 3,
           mix(-128, 255, -32768, 65535, -5, 4000000000u, 9000000000LL, 1, -1, 65535, 7, -3));
    ASSERT(10896, tenth(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
    ASSERT(-1 - 4, last_char(1, 2, 3, 4, 5, 6, 7, 8, -1));
    ASSERT(124, last_char(1, 2, 3, 4, 5, 6, 7, 8, -128)); /* -132 wraps to 124 */
    ASSERT(65535, last_ushort(0, 0, 0, 0, 0, 0, 0, 65535));
    ASSERT(28 + 65530 - 65536, last_ushort(1, 2, 3, 4, 5, 6, 7, 65530));
    ASSERT(15 + 5000000000LL * 5 + 20, wide_tail(1, 5000000000LL, 2, 5000000000LL, 3,
                                                  5000000000LL, 4, 5000000000LL, 5,
                                                   5000000000LL + 20));
    int v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    ASSERT(36, sum_ptrs(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]));
    int a = 11, b = 12, h = 18;
    ASSERT(0, clobber(a, b, 13, 14, 15, 16, 17, h));
    ASSERT(41, a + b + h);
    /* Arguments evaluated from calls: each result must survive the later calls. */
    ASSERT(10896, tenth(tenth(1, 0, 0, 0, 0, 0, 0, 0, 0, 0), 2, 3, 4, 5, 6, 7, 8, 9,
                        tenth(10, 0, 0, 0, 0, 0, 0, 0, 0, 0)));
    return 0;
}
