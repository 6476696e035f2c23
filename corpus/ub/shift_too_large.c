// ub: ShiftTooLarge @7
// Shift amount equal to the width (C99 6.5.7p3), of an unsigned value.
#include <stdio.h>
unsigned x = 1;
int n = 32;
int main(void) {
    unsigned r = x << n;
    printf("%u\n", r);
    return 0;
}
