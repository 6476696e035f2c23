#include "test.h"

/* Calls: recursion 900 deep (a frame per level, values live across the recursive call),
   function pointers (in variables, arrays, records, passed and returned), calls whose
   results feed other calls' arguments, and variadic calls with many mixed-width
   arguments (past every target's register count). Expected values by hand. */

static int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

static long long sum_down(long long n, long long acc1, int acc2) {
    if (n == 0)
        return acc1 + acc2;
    long long keep = n * 3;
    long long r = sum_down(n - 1, acc1 + n, acc2 + 1);
    return r + keep - n * 3;
}

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int negate(int x) { return -x; }
typedef int (*unary)(int);
struct op { const char *name; unary f; };

static unary pick(int i) {
    static const unary table[3] = {twice, square, negate};
    return table[i % 3];
}
static int compose(unary f, unary g, int x) { return f(g(x)); }

static int many_live(int a) {
    /* More values live across the call than any target has callee-saved registers. */
    int b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5, g = a + 6, h = a + 7;
    int i = a + 8, j = a + 9, k = a + 10, l = a + 11;
    int r = depth(10);
    return a + b + c + d + e + f + g + h + i + j + k + l + r;
}

int main(void) {
    ASSERT(900, depth(900)); /* the oracle allows 1000 frames */
    ASSERT(405450, sum_down(900, 0, 0) - 900);
    struct op ops[3] = {{"twice", twice}, {"square", square}, {"negate", negate}};
    int acc = 3;
    for (int i = 0; i < 3; i++)
        acc = ops[i].f(acc);
    ASSERT(-36, acc);
    ASSERT(50, compose(pick(0), pick(1), 5));
    ASSERT(-10, compose(pick(2), pick(3), 5));
    ASSERT(12 * 5 + 66 + 10, many_live(5));
    unary fp = square;
    ASSERT(49, (*fp)(7));
    ASSERT(1, fp == square);
    ASSERT(0, fp == twice);
    printf("%d %u %ld %lld %c %s %hhd %hu %lu %llu %x %d %d %d\n", -1, 4000000000u,
           -3L, -9000000000LL, 'q', "str", (signed char)-100, (unsigned short)65000,
           7UL, 18000000000000000000ULL, 0xabc, 11, 12, 13);
    int n = printf("%d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    ASSERT(21, n);
    return 0;
}
