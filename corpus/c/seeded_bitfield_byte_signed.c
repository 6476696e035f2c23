// seeded bug: lower_bitfield_byte_no_sign_extend
// A signed bit-field read back is sign-extended from its width, whatever the size of the
// storage unit that holds it. The fields `a` and `b` sit in one byte; `c` spans two.
#include "test.h"

struct S {
    signed int a : 3;
    signed int b : 5;
    signed int c : 12;
    unsigned int d : 4;
};

int main(void) {
    struct S s;
    s.a = -2;
    s.b = -7;
    s.c = -100;
    s.d = 15;
    ASSERT(-2, s.a);
    ASSERT(-7, s.b);
    ASSERT(-100, s.c);
    ASSERT(15, s.d);
    ASSERT(1, s.b < 0);
    s.a = 3;
    ASSERT(3, s.a);
    return 0;
}
