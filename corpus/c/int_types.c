#include "test.h"

int main(void) {
    ASSERT(1, sizeof(char));
    ASSERT(2, sizeof(short));
    ASSERT(4, sizeof(int));
    ASSERT(8, sizeof(long long));
    /* The data model: LP64 (x86_64, aarch64, riscv64) or ILP32 (i686). */
    ASSERT(sizeof(void *), sizeof(long));
    ASSERT(1, sizeof(long) == 8 || sizeof(long) == 4);
    ASSERT(sizeof(long), sizeof(unsigned long));
    ASSERT(sizeof(void *), sizeof(size_t));
    {
        char c = 127;
        c = c + 1;
        /* char is signed on x86: 128 wraps to -128 on conversion. */
        ASSERT(-128, c);
        unsigned char uc = 255;
        uc = uc + 1;
        ASSERT(0, uc);
        signed char sc = -1;
        ASSERT(-1, sc);
        ASSERT(255, (unsigned char)sc);
    }
    {
        short s = 32767;
        s = s + 1;
        ASSERT(-32768, s);
        unsigned short us = 65535;
        ASSERT(65535, us);
        us = us + 1;
        ASSERT(0, us);
    }
    {
        int i = 2147483647;
        unsigned int u = i;
        u = u + 1;
        ASSERT(2147483648u, u);
        ASSERT(-2147483647 - 1, (int)u);
    }
    {
        long l = -1;
        unsigned long ul = l;
        ASSERT(1, ul == (unsigned long)-1);
        ASSERT(sizeof(long) == 8 ? 1 : 0, ul > 4294967295ull);
        long long ll = 9223372036854775807LL;
        ASSERT(9223372036854775807LL, ll);
        unsigned long long ull = 18446744073709551615ULL;
        ASSERT(-1, (long long)ull);
        ASSERT(1, ull == ~0ULL);
    }
    /* Types of integer constants (C99 6.4.4.1). */
    ASSERT(4, sizeof(2147483647));
    ASSERT(8, sizeof(2147483648));
    ASSERT(4, sizeof(0xffffffff));
    ASSERT(8, sizeof(0x100000000));
    ASSERT(sizeof(long), sizeof(1L));
    ASSERT(8, sizeof(1LL));
    ASSERT(4, sizeof(1u));
    ASSERT(4, sizeof('a'));
    ASSERT(97, 'a');
    ASSERT(10, '\n');
    ASSERT(0, '\0');
    ASSERT(-1, '\377');
    ASSERT(65, '\x41');
    ASSERT(8, 010);
    ASSERT(255, 0xFF);
    printf("OK\n");
    return 0;
}
