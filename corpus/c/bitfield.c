#include "test.h"

struct flags {
    unsigned a : 1;
    unsigned b : 3;
    int c : 4;
    unsigned d : 24;
};

struct mixed {
    char x;
    int f : 5;
    int g : 7;
    long long h : 40;
};

int main(void) {
    struct flags f = {0};
    ASSERT(4, sizeof(f));
    f.a = 1;
    f.b = 5;
    f.c = -3;
    f.d = 0xabcdef;
    ASSERT(1, f.a);
    ASSERT(5, f.b);
    ASSERT(-3, f.c);
    ASSERT(0xabcdef, f.d);
    f.b = 9; /* only 3 bits kept */
    ASSERT(1, f.b);
    f.c = 7;
    f.c++;
    ASSERT(-8, f.c);
    f.a++;
    ASSERT(0, f.a);
    ASSERT(0xabcdef, f.d);
    struct mixed m = {0};
    m.x = 1;
    m.f = -16;
    m.g = 63;
    m.h = -2;
    ASSERT(-16, m.f);
    ASSERT(63, m.g);
    ASSERT(-2, m.h);
    ASSERT(8, sizeof(m)); /* h fits in the 8-byte unit after f and g (SysV) */
    {
        struct { unsigned lo : 4, hi : 4; } nib = {0xa, 0x5};
        ASSERT(10, nib.lo);
        ASSERT(5, nib.hi);
        ASSERT(15, nib.lo + nib.hi);
        ASSERT(4, sizeof(nib));
        unsigned char raw;
        memcpy(&raw, &nib, 1);
        ASSERT(0x5a, raw);
    }
    printf("OK\n");
    return 0;
}
