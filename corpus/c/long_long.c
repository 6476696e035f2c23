#include "test.h"

/* 64-bit arithmetic on values the compiler cannot fold (volatile): carries and borrows
   between the 32-bit halves, the three-multiply product, division and remainder of
   both signs, shifts by 0, 1, 31, 32, 33 and 63 (the >= 32 case of a register pair),
   comparisons decided by the low word, casts to and from narrower types, a switch and
   a conditional on long long. On i686 every one of these is a register-pair sequence
   or a libgcc call. Expected values computed by hand (Python's integers). */

static long long pick(int c, long long a, long long b) {
    return c ? a : b;
}

static int classify(long long v) {
    switch (v) {
    case 0:
        return 1;
    case 0x100000000LL:
        return 2;
    case -1:
        return 3;
    case 0x7fffffffffffffffLL:
        return 4;
    default:
        return 5;
    }
}

int main(void) {
    volatile unsigned long long u32max = 0xFFFFFFFFu;
    volatile long long big = 0x100000000LL;
    volatile long long p = 0x12345678, q = 0x9ABCDEF0;
    volatile long long r = 0x123456789LL, s = 0xABCDEF012LL;
    volatile unsigned long long all = 0xFFFFFFFFFFFFFFFFull;
    volatile long long n = -1234567890123LL, m = 1234567890123LL;
    volatile long long min = (long long)0x8000000000000000ull;
    volatile unsigned long long v = 0x8000000180000001ull;
    volatile int sh0 = 0, sh1 = 1, sh31 = 31, sh32 = 32, sh33 = 33, sh63 = 63;

    ASSERT(4294967296LL, u32max + 1);
    ASSERT(4294967295LL, big - 1);
    ASSERT(792891155752493184LL, p * q);
    ASSERT(-792891155752493184LL, -p * q);
    ASSERT(4006702525494310818LL, (long long)((unsigned long long)r * s)); /* r * s overflows */
    ASSERT(6148914691236517205LL, all / 3);
    ASSERT(615, all % 1000);
    ASSERT(-1234567890, n / 1000);
    ASSERT(-123, n % 1000);
    ASSERT(-176366841446LL, m / -7);
    ASSERT(1, m % -7);
    ASSERT(-4611686018427387904LL, min / 2);
    ASSERT(-2, min % 3);

    ASSERT(-9223372030412324863LL, (long long)(v << sh0));
    ASSERT(12884901890LL, (long long)(v << sh1));
    ASSERT(-4611686016279904256LL, (long long)(v << sh31));
    ASSERT(-9223372032559808512LL, (long long)(v << sh32));
    ASSERT(8589934592LL, (long long)(v << sh33));
    ASSERT(-9223372036854775807LL - 1, (long long)(v << sh63));
    ASSERT(4611686021648613376LL, (long long)(v >> sh1));
    ASSERT(4294967299LL, (long long)(v >> sh31));
    ASSERT(2147483649LL, (long long)(v >> sh32));
    ASSERT(1073741824LL, (long long)(v >> sh33));
    ASSERT(1, (long long)(v >> sh63));
    ASSERT(-4611686015206162432LL, (long long)v >> sh1);
    ASSERT(-4294967293LL, (long long)v >> sh31);
    ASSERT(-2147483647LL, (long long)v >> sh32);
    ASSERT(-1073741824LL, (long long)v >> sh33);
    ASSERT(-1, (long long)v >> sh63);
    ASSERT(2147483649LL, (long long)(v >> 32));
    ASSERT(8589934592LL, (long long)(v << 33));

    ASSERT(-4294967296LL, -big);
    ASSERT(-4294967296LL, ~(long long)u32max);
    /* Equal high words: the low word decides, unsigned. */
    ASSERT(1, big < big + 0x80000000LL);
    ASSERT(0, big + 0x80000000LL < big);
    ASSERT(1, (long long)u32max < big);
    ASSERT(1, n < m);
    ASSERT(0, n > m);
    ASSERT(1, min < n);
    ASSERT(1, all > (unsigned long long)big);
    ASSERT(1, -1LL < (long long)u32max);
    ASSERT(1, big != (long long)u32max);
    ASSERT(1, big + 0 == 0x100000000LL);

    ASSERT(-1, (int)all);
    ASSERT(1, (unsigned char)v);
    ASSERT(3, (unsigned char)(v >> 31));
    ASSERT(1, (short)v);
    ASSERT(-1, (long long)(int)u32max);
    ASSERT(4294967295LL, (long long)(unsigned)u32max);
    ASSERT(-128, (long long)(signed char)0x80);

    ASSERT(1, classify(big - big));
    ASSERT(2, classify(big));
    ASSERT(3, classify(big - big - 1));
    ASSERT(4, classify((long long)(all >> 1)));
    ASSERT(5, classify(big + 1));
    ASSERT(4294967296LL, pick(sh1, big, p));
    ASSERT(305419896, pick(sh0, big, p));
    printf("OK\n");
    return 0;
}
