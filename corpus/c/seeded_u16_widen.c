// seeded bug: lower_u16_widen_sign_extends
// An `unsigned short` converted to `int` or `long long` is zero-extended: 40000 stays
// 40000. Widened through a 16-bit signed type (the seeded bug), it becomes -25536.
#include "test.h"

static int widen(unsigned short u) { return u; }
static long long widen_ll(unsigned short u) { return u; }
static unsigned widen_u(unsigned short u) { return u; }

int main(void) {
    unsigned short big = 40000;
    unsigned short top = 65535;
    unsigned short small = 100;
    ASSERT(40000, widen(big));
    ASSERT(65535, widen_ll(top));
    ASSERT(32768, widen_u(32768));
    ASSERT(100, widen(small));
    ASSERT(1, big > 32767);
    ASSERT(80000, big + big);
    return 0;
}
