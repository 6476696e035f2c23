// The defined twin of null_deref.c: the pointer is tested before use, and a pointer
// survives a round trip through an integer of pointer width.
#include <stdint.h>
#include <stdio.h>
int *volatile np = 0;
int g = 3;
int main(void) {
    int *p = np;
    uintptr_t bits = (uintptr_t)&g;
    int *back = (int *)bits;
    printf("%d %d\n", p ? *p : -1, *back);
    return 0;
}
