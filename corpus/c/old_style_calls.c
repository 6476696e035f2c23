/* Calls to functions defined without a prototype, as gcc passes them: extra arguments
 * (evaluated, never read), an unsigned argument for an int parameter of the same width
 * (and the reverse), a literal 0 for a pointer parameter. */
#include "test.h"

static int side;

static int none() { return 7; }
static int twice(x) int x; { return 2 * x; }
static long long wide(v) long long v; { return v >> 60; }
static int is_null(p) char *p; { return p == 0; }
static int bump(void) { return ++side; }
static int count(a, b) unsigned a; int b; { return a > 5 ? b : -b; }

int main(void) {
    unsigned u = 21;
    ASSERT(7, none(1, bump()));
    ASSERT(1, side);
    ASSERT(42, twice(u));
    ASSERT(-8, wide(0x8000000000000000ULL));
    ASSERT(1, is_null(0));
    ASSERT(-3, count(-1 < 0 ? 1 : 2, 3));
    ASSERT(3, count(9, 3));
    return 0;
}
