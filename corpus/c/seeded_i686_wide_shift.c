// seeded bug: i686_wide_shift_no_word_fixup
// 64-bit shifts by a count only known at run time. On i686 the pair is shifted with
// shld/shrd and shl/sar/shr, which use the count modulo 32: for counts 32..63 the words
// must then move over. Without that fix-up (the seeded bug), `1LL << 40` is 256.
#include "test.h"

static long long shl(long long x, int n) { return x << n; }
static long long sar(long long x, int n) { return x >> n; }
static unsigned long long shr(unsigned long long x, int n) { return x >> n; }

/* Volatile, so that no pass turns the counts into constants. */
static volatile int n40 = 40, n8 = 8, n32 = 32, n62 = 62, n0 = 0;

int main(void) {
    ASSERT(1099511627776LL, shl(1, n40));
    ASSERT(256, shl(1, n8));
    ASSERT(-2, sar(-8589934592LL, n32));
    ASSERT(3, shr(0xc000000000000000ULL, n62));
    ASSERT(1, shl(1, n0));
    return 0;
}
