/* The type of an expression whose value is a bit-field's, as gcc gives it: the right
 * operand of a comma, an assignment, a compound assignment and ++/-- of a bit-field
 * narrower than int promote to int, like the member read itself (C99 6.3.1.1p2 with gcc's
 * reading of it). `x < (0, s.f)` with x = -1 is then 1 (an int comparison), not 0 (an
 * unsigned one). Found by the C generator (issue 12): phicc typed these unsigned.
 * `sizeof` of such an expression is still allowed; gcc gives it the size (and
 * `__alignof__`) of the smallest integer mode that holds the width — 1, 2, 4 or 8 bytes,
 * whatever the declared type: `sizeof (0, t.i3)` is 1 for `int i3 : 3`, and 2 for
 * `unsigned long long a9 : 9`. Found by the mutation hunt (`--gen mutate`, a field
 * retyped to `unsigned long long f : 28`), where phicc said 8. */
#include "test.h"

struct S {
    unsigned f : 28;
    unsigned full : 32;
    unsigned long long wide : 40;
};

struct T {
    int i3 : 3;
    unsigned u9 : 9;
    unsigned u17 : 17;
    char c3 : 3;
    unsigned long long a9 : 9;
    unsigned long long a17 : 17;
    unsigned long long a8 : 8;
    unsigned long long f28 : 28;
    long long e32 : 32;
    _Bool b : 1;
};

int main(void) {
    struct S s = {5, 7, 9};
    int x = -1;
    ASSERT(1, x < s.f);
    ASSERT(1, x < (0, s.f));
    ASSERT(1, x < (1 ? s.f : s.f));
    ASSERT(1, x < (s.f = 5));
    ASSERT(1, x < (s.f += 1));
    ASSERT(1, x < s.f++);
    ASSERT(1, x < ++s.f);
    ASSERT(1, x < s.f--);
    ASSERT(7, s.f);
    /* A 32-bit unsigned bit-field stays unsigned int: the comparison is unsigned. */
    ASSERT(0, x < s.full);
    ASSERT(0, x < (0, s.full));
    ASSERT(0, x < (s.full = 3));
    ASSERT(4, sizeof((0, s.f)));
    ASSERT(4, sizeof(s.f = 1));
    ASSERT(7, s.f); /* sizeof does not evaluate its operand */
    ASSERT(9, (0, s.wide));
    ASSERT(10, (s.wide += 1));
    ASSERT(8, sizeof((0, s.wide)));
    {
        struct T t = {0};
        ASSERT(1, sizeof((0, t.i3)));
        ASSERT(1, sizeof(t.i3 = 1));
        ASSERT(2, sizeof((0, t.u9)));
        ASSERT(4, sizeof(t.u17++));
        ASSERT(1, sizeof(t.c3 += 1));
        ASSERT(2, sizeof((0, t.a9)));
        ASSERT(4, sizeof(--t.a17));
        ASSERT(1, sizeof((0, t.a8)));
        ASSERT(4, sizeof((0, t.f28)));
        ASSERT(4, sizeof((0, t.e32)));
        ASSERT(1, sizeof((0, t.b)));
        ASSERT(1, __alignof__((0, t.i3)));
        ASSERT(2, __alignof__((0, t.a9)));
        ASSERT(4, __alignof__(t.a17 = 1));
        ASSERT(0, t.i3 + t.u17 + t.a17); /* none of the operands above was evaluated */
    }
    printf("OK\n");
    return 0;
}
