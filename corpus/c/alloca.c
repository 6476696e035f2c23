/* alloca and its GNU builtins (lowering/dyn_stack.rs -> the IR's `dynalloca`): objects
 * of a run-time size on the stack, 16-byte aligned (or as asked), freed when the calling
 * function returns. Natively, 4000 calls that each take 16 KiB overflow an 8 MiB stack
 * unless every return frees them; a call with stack arguments after an alloca must find
 * its arguments at the moved stack pointer, and the caller's locals must stay reachable.
 * Expected values by hand; gcc -O0 confirms. */
#include "test.h"
#include <alloca.h>

static long many(long a, long b, long c, long d, long e, long f, long g, long h, long i,
                 long j) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i + 10 * j;
}

static int fill(int n) {
    unsigned char *p = alloca(n);
    memset(p, 3, n);
    p[n - 1] = 7;
    return p[0] + p[n - 1];
}

static long mixed(int n) {
    volatile int local = n;
    int *p = __builtin_alloca(n * sizeof(int));
    for (int i = 0; i < n; i++)
        p[i] = i;
    long r = many(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    int *q = alloca(n * sizeof(int));
    for (int i = 0; i < n; i++)
        q[i] = p[n - 1 - i];
    return r + local + q[0] + p[n - 1];
}

static int aligned(int n) {
    char *a = alloca(3);
    char *b = alloca(n);
    char *c = __builtin_alloca_with_align(n, 512);
    a[0] = 1;
    return (int)((unsigned long)b % 16) + (int)((unsigned long)c % 64) + a[0];
}

int main(void) {
    long total = 0;
    for (int i = 0; i < 4000; i++)
        total += fill(16384);
    ASSERT(40000, total);
    ASSERT(385 + 100 + 99 + 99, mixed(100));
    ASSERT(385 + 1 + 0 + 0, mixed(1));
    ASSERT(1, aligned(5));
    ASSERT(1, aligned(0));
    char *z = alloca(0);
    (void)z;
    return 0;
}
