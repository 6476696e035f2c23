#include "test.h"

struct pair { int a, b; };
struct big { long long v[4]; };

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int is_even(int n);
static int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
static int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
static int apply(int (*f)(int, int), int x, int y) { return f(x, y); }
static int many(int a, int b, int c, int d, int e, int f, int g, int h) {
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
static struct pair swap(struct pair p) {
    struct pair q = {p.b, p.a};
    return q;
}
static struct big scale(struct big b, int k) {
    for (int i = 0; i < 4; i++)
        b.v[i] *= k;
    return b;
}
static void bump(struct pair *p) { p->a++; }
static void nothing(void) {}
static char narrow(int x) { return x; }
static unsigned short wrap16(int x) { return x; }
static long long widen(int x) { return x; }

int main(void) {
    ASSERT(7, add(3, 4));
    ASSERT(-1, sub(3, 4));
    ASSERT(55, fib(10));
    ASSERT(3628800, fact(10));
    ASSERT(1, is_even(10));
    ASSERT(1, is_odd(7));
    ASSERT(12, apply(add, 5, 7));
    ASSERT(-2, apply(sub, 5, 7));
    ASSERT(204, many(1, 2, 3, 4, 5, 6, 7, 8));
    {
        int (*fp)(int, int) = add;
        ASSERT(9, fp(4, 5));
        ASSERT(9, (*fp)(4, 5));
        fp = &sub;
        ASSERT(-1, fp(4, 5));
        int (*table[2])(int, int) = {add, sub};
        ASSERT(10, table[0](6, 4));
        ASSERT(2, table[1](6, 4));
        ASSERT(1, fp == sub);
    }
    {
        struct pair p = {1, 2};
        struct pair q = swap(p);
        ASSERT(2, q.a);
        ASSERT(1, q.b);
        ASSERT(1, p.a);
        bump(&p);
        ASSERT(2, p.a);
        ASSERT(2, swap(p).b);
        struct big b = {{1, 2, 3, 4}};
        struct big c = scale(b, 3);
        ASSERT(12, c.v[3]);
        ASSERT(4, b.v[3]);
    }
    nothing();
    ASSERT(-56, narrow(200));
    ASSERT(65535, wrap16(-1));
    ASSERT(-1, widen(-1));
    printf("OK\n");
    return 0;
}
