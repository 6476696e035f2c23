/* gcc's `mode` attribute on integer types (c-torture 20050119-1.c, zerolen-2.c, ...):
 * the size of QI/HI/SI/DI/byte/word/pointer, the signedness of the type it applies to,
 * on typedefs, objects, members, parameters and enumerated types, in specifiers and
 * after declarators. Sizes and values by hand (word and pointer: 8 bytes on the 64-bit
 * targets, 4 on i686, written via sizeof); gcc -O0 prints the same lines. */
#include "test.h"

typedef signed int s8 __attribute__((mode(QI)));
typedef unsigned int u8 __attribute__((mode(QI)));
typedef int __attribute__((mode(HI))) s16;
typedef unsigned int u16 __attribute__((__mode__(__HI__)));
typedef unsigned u32 __attribute__((mode(SI)));
typedef int s64 __attribute__((mode(DI)));
typedef unsigned int u64 __attribute__((mode(DI)));
typedef int word __attribute__((mode(word)));
typedef unsigned long uptr __attribute__((mode(pointer)));

typedef enum { E0, E1, E200 = 200 } E;
E __attribute__((mode(__byte__))) small_enum;

struct packed_fields {
    int a __attribute__((mode(QI)));
    unsigned b __attribute__((mode(HI)));
};

static int take(int x __attribute__((mode(QI)))) {
    return x;
}

int main(void) {
    ASSERT(1, sizeof(s8));
    ASSERT(1, sizeof(u8));
    ASSERT(2, sizeof(s16));
    ASSERT(2, sizeof(u16));
    ASSERT(4, sizeof(u32));
    ASSERT(8, sizeof(s64));
    ASSERT(8, sizeof(u64));
    ASSERT(sizeof(long), sizeof(word));
    ASSERT(sizeof(void *), sizeof(uptr));
    s8 a = 127;
    a++;
    ASSERT(-128, a);
    u8 b = 255;
    b++;
    ASSERT(0, b);
    s16 c = -32768;
    ASSERT(-32768, c);
    u16 d = 65535;
    ASSERT(65535, d);
    u32 e = 0xffffffffu;
    ASSERT(0, e + 1);
    s64 f = 1;
    ASSERT(4294967296LL, f << 32);
    u64 g = 0;
    ASSERT(1, g - 1 > 0);
    word w = -1;
    ASSERT(-1, w);
    ASSERT(1, sizeof(small_enum));
    small_enum = E200;
    ASSERT(200, small_enum);
    ASSERT(2, sizeof(struct packed_fields) - sizeof(short));
    struct packed_fields p = {-1, 70000};
    ASSERT(-1, p.a);
    ASSERT(70000 - 65536, p.b);
    ASSERT(44, take(300));
    ASSERT(1, (int)sizeof((int __attribute__((mode(QI))))300));
    return 0;
}
