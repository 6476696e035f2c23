#include "test.h"

static int three(void) { return 3; }
static int (*get_fn(void))(void) { return three; }

int main(void) {
    int (*a[3])[4];
    int rows[3][4];
    ASSERT(24, sizeof(a));
    ASSERT(8, sizeof(a[0]));
    ASSERT(16, sizeof(*a[0]));
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 4; j++)
            rows[i][j] = i * 10 + j;
        a[i] = &rows[i];
    }
    ASSERT(23, (*a[2])[3]);
    ASSERT(12, a[1][0][2]);
    int (x) = 5;
    ASSERT(5, x);
    int ((y)) = 6;
    ASSERT(6, y);
    int *(p) = &x;
    ASSERT(5, *p);
    int (*q)[4] = rows;
    ASSERT(10, q[1][0]);
    ASSERT(3, get_fn()());
    int (*(*fp))(void) = 0;
    ASSERT(8, sizeof(fp));
    char *strs[2], (*sp)[2] = 0;
    ASSERT(16, sizeof(strs));
    ASSERT(2, sizeof(*sp));
    int i1 = 1, *i2 = &i1, i3[2] = {3, 4};
    ASSERT(1, *i2);
    ASSERT(4, i3[1]);
    const int ci = 7;
    int const ic = 8;
    const int *cp = &ci;
    int *const pc = &x;
    ASSERT(15, ci + ic);
    ASSERT(7, *cp);
    *pc = 11;
    ASSERT(11, x);
    unsigned u = 1;
    signed s = -1;
    long int li = 2;
    long long int lli = 3;
    short int si = 4;
    unsigned long long int ulli = 5;
    ASSERT(14, u + s + li + lli + si + ulli);
    printf("OK\n");
    return 0;
}
