// The defined twin of shift_negative_count.c: right shift of a negative int is
// implementation-defined (gcc: arithmetic), not undefined; the same bits shifted left as
// unsigned are defined; and the left shift of a negative int, undefined in C11 6.5.7p4,
// is defined by gcc (its manual, "Integers implementation": two's-complement bits
// shifted left), which the UB judge follows: -1 << 1 is -2, -5 << 3 is -40,
// INT_MIN << 1 is 0, and -1LL << 63 is LLONG_MIN.
#include <stdio.h>
int minus = -1;
int five = 5;
int imin = -2147483647 - 1;
long long lminus = -1;
int main(void) {
    printf("%d %u\n", minus >> 1, (unsigned)minus << 1);
    printf("%d %d %d %lld\n", minus << 1, -five << 3, imin << 1, lminus << 63);
    return 0;
}
