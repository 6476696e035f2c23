// The defined twin of subobject_derived_increment.c: the walk stops at one past the
// end of `a`; a pointer to the next member is formed from `&s` and used on its own, and
// a pointer written through another pointer (`*pp = &s.b`) loses the old bounds.
#include <stdio.h>
#include <stddef.h>
struct rec { int a[4]; int b; };
int main(void) {
    struct rec s = {{1, 2, 3, 4}, 5};
    int *p = &s.a[0];
    int sum = 0;
    for (int i = 0; i < 4; i++) {
        sum += *p;
        p++;
    }
    int *b = (int *)((char *)&s + offsetof(struct rec, b));
    sum += *b;
    int **pp = &p;
    p = s.a + 1;
    *pp = &s.b;
    sum += p[0];
    printf("%d\n", sum);
    return 0;
}
