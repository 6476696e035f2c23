// The defined twin of shift_negative_value.c: right shift of a negative int is
// implementation-defined (gcc: arithmetic), not undefined; the same bits shifted left
// as unsigned are defined.
#include <stdio.h>
int minus = -1;
int main(void) {
    printf("%d %u\n", minus >> 1, (unsigned)minus << 1);
    return 0;
}
