// seeded bug: const_eval_float_kept_in_double
// A `float` constant expression rounds to `float` after every operation (FLT_EVAL_METHOD
// 0, as on every target): 2^24 + 1 is a tie in `float` and rounds to even, 2^24, so adding
// 1 twice leaves 2^24. Kept in `double` between the operations (the seeded bug), the sum
// is 2^24 + 2, and the difference below is 1 instead of 0. Computed by hand.
#include "test.h"

static float twice = 16777216.0f + 1.0f + 1.0f;
static float lost = 16777216.0f + 1.0f - 16777216.0f;
static double exact = 16777216.0 + 1.0 + 1.0;

int main(void) {
    ASSERT(16777216, (long long)twice);
    ASSERT(0, (long long)lost);
    ASSERT(16777218, (long long)exact);
    return 0;
}
