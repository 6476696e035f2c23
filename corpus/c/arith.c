#include "test.h"

int main(void) {
    ASSERT(0, 0);
    ASSERT(42, 42);
    ASSERT(21, 5 + 20 - 4);
    ASSERT(41, 12 + 34 - 5);
    ASSERT(47, 5 + 6 * 7);
    ASSERT(15, 5 * (9 - 6));
    ASSERT(4, (3 + 5) / 2);
    ASSERT(10, -10 + 20);
    ASSERT(10, - -10);
    ASSERT(10, - - +10);
    ASSERT(-3, -7 / 2);
    ASSERT(-1, -7 % 2);
    ASSERT(1, 7 % -2);
    ASSERT(-3, 7 / -2);
    ASSERT(0, 0 == 1);
    ASSERT(1, 42 == 42);
    ASSERT(1, 0 != 1);
    ASSERT(0, 42 != 42);
    ASSERT(1, 0 < 1);
    ASSERT(0, 1 < 1);
    ASSERT(1, 1 <= 1);
    ASSERT(0, 2 <= 1);
    ASSERT(1, 1 > 0);
    ASSERT(1, 1 >= 1);
    ASSERT(0, 1 >= 2);
    ASSERT(1, !0);
    ASSERT(0, !3);
    ASSERT(-1, ~0);
    ASSERT(-6, ~5);
    ASSERT(2, 6 & 3);
    ASSERT(7, 6 | 3);
    ASSERT(5, 6 ^ 3);
    ASSERT(1, 2 && 3);
    ASSERT(0, 2 && 0);
    ASSERT(1, 0 || 5);
    ASSERT(0, 0 || 0);
    {
        int a = 7, b = 3;
        a += b; ASSERT(10, a);
        a -= 4; ASSERT(6, a);
        a *= b; ASSERT(18, a);
        a /= 4; ASSERT(4, a);
        a %= 3; ASSERT(1, a);
        a <<= 5; ASSERT(32, a);
        a >>= 2; ASSERT(8, a);
        a |= 3; ASSERT(11, a);
        a &= 6; ASSERT(2, a);
        a ^= 7; ASSERT(5, a);
    }
    {
        unsigned u = 0;
        u = u - 1;
        ASSERT(4294967295u, u);
        ASSERT(2147483647, u / 2);
        ASSERT(1, u > 0);
        ASSERT(0, -1 < 0u);
        ASSERT(1, -1 < 0);
        ASSERT(3, 10u % 7u);
    }
    {
        long long big = 1LL << 40;
        ASSERT(1099511627776LL, big);
        ASSERT(1099511627775LL, big - 1);
        ASSERT(-1099511627776LL, -big);
    }
    printf("OK\n");
    return 0;
}
