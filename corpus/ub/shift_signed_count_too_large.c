// ub: ShiftTooLarge @10
// A signed left shift by the type's width (C11 6.5.7p3). gcc defines the shifts of a
// signed value that overflow (its manual, "Integers implementation"), and the judge
// follows it (shift_signed_count_too_large_ok.c), but not a count out of range: that
// stays undefined for gcc too (-fsanitize=shift-exponent reports it).
#include <stdio.h>
int one = 1;
int n = 32;
int main(void) {
    int r = one << n;
    printf("%d\n", r);
    return 0;
}
