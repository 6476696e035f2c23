// The defined twin of ptr_sub_two_arrays.c: differences within one array, up to one
// past its end, and within one struct's bytes through char pointers.
#include <stdio.h>
int a[4];
struct pair { int x; int y; } s;
int main(void) {
    int *p = &a[1];
    int *end = a + 4;
    long d = end - p;
    char *cx = (char *)&s.x, *cy = (char *)&s.y;
    printf("%ld %ld %ld\n", d, p - end, (long)(cy - cx));
    return 0;
}
