// The defined twin of subobject_index_2d.c: the same element named by its own row, and
// the whole array walked through a char pointer.
#include <stdio.h>
int m[3][4];
int j = 3;
int main(void) {
    m[1][0] = 9;
    m[0][j] = 4;
    unsigned char *c = (unsigned char *)m;
    int sum = 0;
    for (unsigned k = 0; k < sizeof m; k++)
        sum += c[k];
    printf("%d %d\n", m[1][0], sum);
    return 0;
}
