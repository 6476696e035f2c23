/* The type of an expression whose value is a bit-field's, as gcc gives it: the right
 * operand of a comma, an assignment, a compound assignment and ++/-- of a bit-field
 * narrower than int promote to int, like the member read itself (C99 6.3.1.1p2 with gcc's
 * reading of it). `x < (0, s.f)` with x = -1 is then 1 (an int comparison), not 0 (an
 * unsigned one). Found by the C generator (issue 12): phicc typed these unsigned.
 * `sizeof` of such an expression is still allowed and is the declared type's size. */
#include "test.h"

struct S {
    unsigned f : 28;
    unsigned full : 32;
    unsigned long long wide : 40;
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
    printf("OK\n");
    return 0;
}
