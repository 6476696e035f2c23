#include "test.h"

int main(void) {
    ASSERT(8, 1 << 3);
    ASSERT(1, 8 >> 3);
    ASSERT(-1, -1 >> 5);
    ASSERT(-4, -16 >> 2);
    ASSERT(134217727, 0xffffffffu >> 5);
    ASSERT(1, 1u << 31 >> 31);
    ASSERT(-1, (int)(1u << 31) >> 31);
    ASSERT(1099511627776LL, 1LL << 40);
    ASSERT(1, (1ULL << 63) >> 63);
    ASSERT(-1, (long long)(1ULL << 63) >> 63);
    {
        int n = 33;
        long long v = 1;
        ASSERT(8589934592LL, v << n);
        unsigned char c = 0x80;
        /* c is promoted to int before the shift. */
        ASSERT(256, c << 1);
        ASSERT(4, sizeof(c << 1));
        ASSERT(8, sizeof(1 << 2L) + 4);
        short s = -2;
        ASSERT(-1, s >> 1);
        int x = 12;
        x <<= 2;
        ASSERT(48, x);
        x >>= 3;
        ASSERT(6, x);
        unsigned u = 0x12345678;
        ASSERT(0x56781234, (u << 16) | (u >> 16));
        ASSERT(0x7f, 0x7f >> 0);
        ASSERT(15, 0xF0 >> 4);
    }
    printf("OK\n");
    return 0;
}
