// The defined twin of out_of_bounds_pointer.c: the last element, and a one-past-the-end
// pointer compared but not dereferenced.
#include <stdio.h>
int k = 3;
int main(void) {
    int a[4] = {1, 2, 3, 4};
    int *p = a;
    int *end = p + 4;
    printf("%d %d\n", p[k], end == a + 4);
    return 0;
}
