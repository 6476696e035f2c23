// The defined twin of shift_into_sign_bit.c: shifts of unsigned values never overflow,
// and 1 << 30 is representable.
#include <stdio.h>
unsigned one = 1;
int ione = 1;
int n = 31;
int main(void) {
    unsigned r = one << n;
    unsigned w = 0xffffffffu << 4;
    printf("%u %u %d\n", r, w, ione << (n - 1));
    return 0;
}
