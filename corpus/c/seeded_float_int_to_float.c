// seeded bug: const_fold_int_to_float_toward_zero
// An integer converts to a float rounded to nearest-even. The values below are wider than
// the mantissa and reach the conversion as constants only after mem2reg, so the constant
// folder converts them. Rounded toward zero (the seeded bug), each is one ulp low.
// By hand: INT_MAX is 2^31 - 1, nearest float 2^31 (below it: 2^31 - 128);
// UINT_MAX is 2^32 - 1, nearest float 2^32 (below: 2^32 - 256); 2^53 + 3 is halfway
// between 2^53 + 2 and 2^53 + 4, ties to the even mantissa: 2^53 + 4.
#include "test.h"

int main(void) {
    int i = 2147483647;
    unsigned u = 4294967295u;
    long long big = 9007199254740995LL;
    float f = i;
    float fu = u;
    double d = big;
    ASSERT(1, f == 2147483648.0f);
    ASSERT(1, fu == 4294967296.0f);
    ASSERT(9007199254740996LL, (long long)d);
    return 0;
}
