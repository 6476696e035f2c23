// The defined twin of ptr_cmp_two_arrays.c: relational comparison within one array (one
// past the end included), members of one struct, and equality across objects.
#include <stdio.h>
struct pair { int x; int y; };
int main(void) {
    int a[4], b[4];
    struct pair s;
    int *p = a, *end = a + 4;
    int n = 0;
    for (int *i = p; i < end; i++)
        n++;
    printf("%d %d %d %d\n", n, &s.x < &s.y, a == b, p != end);
    return 0;
}
