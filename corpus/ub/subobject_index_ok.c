// The defined twin of subobject_index.c: the last element, a one-past-the-end address
// that is not dereferenced, and the next member read through its own name.
#include <stdio.h>
struct rec { int a[4]; int b; };
int n = 4;
int main(void) {
    struct rec s = {{1, 2, 3, 4}, 5};
    int *end = &s.a[n];
    int sum = 0;
    for (int *p = s.a; p != end; p++)
        sum += *p;
    printf("%d %d %d\n", s.a[n - 1], sum, s.b);
    return 0;
}
