// seeded bug: lower_ptr_diff_unsigned_divide
// `p - q` is the signed number of elements between them: negative when `p` is below `q`.
// Divided by the element size as an unsigned number (the seeded bug), -20 bytes / 4 is a
// huge positive count.
#include "test.h"

int main(void) {
    int a[10];
    long long w[4];
    short h[6];
    int *p = &a[2];
    int *q = &a[7];
    ASSERT(5, q - p);
    ASSERT(-5, p - q);
    ASSERT(-3, &w[0] - &w[3]);
    ASSERT(-1, &h[4] - &h[5]);
    ASSERT(1, p - q < 0);
    return 0;
}
