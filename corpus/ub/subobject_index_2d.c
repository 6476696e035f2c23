// ub: IndexOutOfBounds @7
// The inner index of a two-dimensional array past its row.
#include <stdio.h>
int m[3][4];
int j = 4;
int main(void) {
    m[0][j] = 9;
    printf("%d\n", m[1][0]);
    return 0;
}
