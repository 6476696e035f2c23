// seeded bug: lower_compound_narrow_in_lhs_type
// `lhs op= rhs` computes `lhs op rhs` in the promoted common type, then converts back:
// `c /= 300` on a signed char holding 100 is 0 (100 / 300 in int). Computed in the
// narrow type with 300 truncated to 44 (the seeded bug), it is 2.
#include "test.h"

int main(void) {
    signed char c = 100;
    c /= 300;
    ASSERT(0, c);
    unsigned short u = 40000;
    u /= -1; /* int: 40000 / -1 = -40000, stored as 25536 */
    ASSERT(25536, u);
    short s = -3;
    s %= 2u; /* unsigned: 4294967293 % 2 = 1 */
    ASSERT(1, s);
    unsigned char b = 200;
    b += 100; /* the same at any width: 44 */
    ASSERT(44, b);
    signed char d = -128;
    d /= 256; /* int: 0; 256 truncated to a char is 0 */
    ASSERT(0, d);
    return 0;
}
