// seeded bug: lower_float_ne_ordered
// C's `!=` is true when either operand is a NaN (IR `fcmp une`); an ordered `one` (the
// seeded bug) makes it false. The NaN is computed at run time (0.0 / 0.0 of a global).
#include "test.h"

static double zero = 0.0;
static float fzero = 0.0f;

int main(void) {
    double nan = zero / zero;
    float fnan = fzero / fzero;
    ASSERT(1, nan != nan);
    ASSERT(1, nan != 1.0);
    ASSERT(0, nan == nan);
    ASSERT(1, fnan != 0.0f);
    ASSERT(0, zero != 0.0);
    ASSERT(1, zero != 1.0);
    return 0;
}
