// The defined twin of unsequenced_index.c: the index and the stored value use different
// objects, or members of one struct that do not overlap, or the index is sequenced
// before by a comma (C99 6.5p2).
#include <stdio.h>
struct counter { int n, m; };
int main(void) {
    int a[4] = {0, 0, 0, 0};
    struct counter c = {1, 2};
    a[c.n] = c.m++;
    a[(c.n++, c.n)] = 7;
    c.n = c.m++;
    int j = (0 && c.n++) + c.n;
    j += (c.n < 0 ? c.n++ : 0) + c.n;
    printf("%d %d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], c.n, c.m, j);
    return 0;
}
