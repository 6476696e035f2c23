// ub: StrictAliasing @10
// An `int` object read through an lvalue of type `short` (C11 6.5p7): neither a type
// compatible with `int`, nor its signed or unsigned variant, nor a character type.
// gcc -O2 may reorder the read before the store.
#include <stdio.h>
int main(void) {
    int x = 0x12345678;
    short *p = (short *)&x;
    x = 0x11112222;
    printf("%d\n", *p);
    return 0;
}
