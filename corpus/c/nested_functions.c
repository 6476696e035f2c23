#include "test.h"

/* GNU nested functions without trampolines: direct calls of nested functions that use
   the enclosing function's locals (by reference, at every depth of recursion), nested
   functions inside nested functions, a nested function calling a sibling, a record
   result, and a nested function without captures whose address escapes. Expected
   values are computed by hand; gcc -O0 confirms. */

struct pair {
    int a, b;
};

static int apply(int (*f)(int), int x) {
    return f(x);
}

/* The nested function writes the parent's local; the parent sees it. */
static int counter(int n) {
    int count = 0;
    void bump(int by) {
        count += by;
    }
    for (int i = 1; i <= n; i++)
        bump(i);
    return count;
}

/* Recursion of the parent: each activation's nested function sees its own `depth`. */
static int chain_depth(int depth) {
    int seen = 0;
    void look(void) {
        seen = depth * 10;
    }
    if (depth > 0)
        seen = chain_depth(depth - 1);
    look();
    return seen + depth;
}

/* Two levels: the innermost uses locals of both functions around it; the middle one
   captures the outer local only to pass it on. */
static int two_levels(int x) {
    int outer = x;
    int middle(int y) {
        int mine = y * 2;
        int inner(void) {
            return outer * 100 + mine;
        }
        return inner();
    }
    return middle(3);
}

/* A sibling call: `second` uses `total` only through `first`. */
static int siblings(void) {
    int total = 1;
    void first(int k) {
        total *= k;
    }
    void second(int k) {
        first(k);
        first(k + 1);
    }
    second(2);
    second(4);
    return total;
}

/* A record result and an array of the parent. */
static int record_result(void) {
    int base[3] = {5, 6, 7};
    struct pair make(int i) {
        struct pair p = {base[i], base[i] * 2};
        return p;
    }
    base[1] = 9;
    struct pair q = make(1);
    return q.a * 100 + q.b;
}

/* Without captures the nested function is an ordinary function: its address escapes. */
static int escaping(int v) {
    int twice(int x) {
        return x * 2;
    }
    return apply(twice, v);
}

/* Recursive nested function. */
static int recursive_nested(int n) {
    int calls = 0;
    int fact(int k) {
        calls++;
        return k <= 1 ? 1 : k * fact(k - 1);
    }
    int r = fact(n);
    return r * 10 + calls;
}

int main(void) {
    ASSERT(15, counter(5));
    ASSERT(0, counter(0));
    ASSERT(33, chain_depth(3));
    ASSERT(706, two_levels(7));
    ASSERT(120, siblings());
    ASSERT(918, record_result());
    ASSERT(42, escaping(21));
    ASSERT(1205, recursive_nested(5));
    return 0;
}
