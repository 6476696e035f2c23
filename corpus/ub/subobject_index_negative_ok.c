// The defined twin of subobject_index_negative.c: a negative index through a pointer
// into the middle of the array.
#include <stdio.h>
struct rec { int b; int a[4]; };
int k = -1;
int main(void) {
    struct rec s = {5, {1, 2, 3, 4}};
    int *mid = &s.a[2];
    printf("%d\n", mid[k]);
    return 0;
}
