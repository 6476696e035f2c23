// The defined twin of const_global_write.c: a pointer to const read through a cast
// pointer, without a store, and a non-const object modified through a const-qualified
// pointer cast back.
#include <stdio.h>
const int limit = 10;
int counter = 1;
int main(void) {
    int *p = (int *)&limit;
    const int *cp = &counter;
    *(int *)cp = 2;
    printf("%d %d\n", *p, counter);
    return 0;
}
