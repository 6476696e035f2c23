// ub: Unsequenced @10
// `a[i] = i++`: the left operand's address reads `i`, the right operand modifies it,
// unsequenced (C99 6.5p2: the prior value is read other than to determine the value to
// be stored).
#include <stdio.h>
struct counter { int n; };
int main(void) {
    int a[4] = {0, 0, 0, 0};
    struct counter c = {1};
    a[c.n] = c.n++;
    printf("%d %d %d %d %d\n", a[0], a[1], a[2], a[3], c.n);
    return 0;
}
