// Defined: a pointer that held `&s.f4[2]` (an element of the array member f4) is given
// `&s.f2`, a scalar member of the same struct, and then stepped by 0. `&s.f2` points to an
// object that is not an array element, which C11 6.5.6p7 treats as an array of one
// element, so `+ 0` stays inside it (6.5.6p8); f4's bounds are not f2's. The judge once
// kept f4's bounds here and called `l_0 + 0` IndexOutOfBounds (gen c seed 7017972, a
// program of last session's float run; gcc's ASan and UBSan run it clean). Reduced from
// that program by hand.
#include <stdio.h>
struct S1 { unsigned int f0 : 28; unsigned short f2; unsigned short f4[3]; };
int main(void) {
    struct S1 l_2 = {4U, 57345, {1, 65465, 23279}};
    unsigned short *l_0 = &l_2.f4[1];
    int i;
    for (i = 0; i < 3; i++) {
        l_0 = &l_2.f4[2];
        if (i != 7)
            l_0 = &l_2.f2;
        l_0 = l_0 + ((-1) & 0);
    }
    printf("%u\n", (unsigned)*l_0);
    return 0;
}
