#include "test.h"

int main(void) {
    {
        unsigned char a = 200, b = 100;
        ASSERT(300, a + b); /* both promoted to int */
        ASSERT(-100, b - a);
        ASSERT(1, (unsigned char)(a + b) == 44);
        char x = -1;
        unsigned char y = 255;
        ASSERT(0, x == y);
        short s = -1;
        unsigned short us = 65535;
        ASSERT(0, s == us);
        ASSERT(4, sizeof(a + b));
        ASSERT(4, sizeof(+a));
        ASSERT(4, sizeof(-us));
        ASSERT(4, sizeof(~a));
    }
    {
        int i = -1;
        unsigned u = 1;
        ASSERT(1, i > u); /* i converted to unsigned */
        ASSERT(4294967295u, i + 0u);
        long l = -1;
        ASSERT(0, l > u); /* u converted to long (LP64) */
        unsigned long ul = 1;
        ASSERT(1, i > ul);
        long long ll = -1;
        unsigned int ui = 0;
        ASSERT(1, ll < ui);
        ASSERT(8, sizeof(ll + ui));
        ASSERT(4, sizeof(u + i));
        ASSERT(8, sizeof(ul + i));
    }
    {
        int big = 65536;
        /* big * big would overflow int (undefined; gcc's sanitizer misses it because its
           front end narrows the product to short): multiply in unsigned. */
        ASSERT(0, (short)((unsigned)big * big));
        unsigned short m = 65535;
        /* m * m is int multiplication: 4294836225 does not fit int, so compute in
           unsigned to stay defined. */
        ASSERT(4294836225u, (unsigned)m * m);
        char c = 'A';
        ASSERT(66, c + 1);
        _Bool t = 1;
        ASSERT(2, t + t);
        ASSERT(4, sizeof(t + t));
        int neg = -7;
        ASSERT(-3, neg / 2);
        ASSERT(2147483644u, (unsigned)neg / 2);
        ASSERT(1, -7 % 3 == -1);
    }
    printf("OK\n");
    return 0;
}
