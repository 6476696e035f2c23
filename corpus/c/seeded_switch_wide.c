// seeded bug: lower_switch_case_truncated_32
// A switch on a 64-bit value compares it with the case values at 64 bits: `case -1`
// matches -1, not 4294967295. Kept in 32 bits and zero-extended (the seeded bug), every
// negative case value becomes a large positive one.
#include "test.h"

static int classify(long long x) {
    switch (x) {
    case -1:
        return 1;
    case -100:
        return 2;
    case 5:
        return 3;
    default:
        return 0;
    }
}

int main(void) {
    ASSERT(1, classify(-1));
    ASSERT(2, classify(-100));
    ASSERT(3, classify(5));
    ASSERT(0, classify(4294967295LL));
    ASSERT(0, classify(0));
    return 0;
}
