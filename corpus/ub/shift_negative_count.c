// ub: ShiftTooLarge @8
// A signed left shift by a negative count (C11 6.5.7p3): undefined for gcc too, although
// gcc defines the left shift of a negative value (shift_negative_count_ok.c).
#include <stdio.h>
int minus = -1;
int count = -1;
int main(void) {
    int r = minus << count;
    printf("%d\n", r);
    return 0;
}
