// The defined twin of strict_aliasing.c: bytes read through `unsigned char`, an `int`
// through `unsigned int`, punning through a union member and through `memcpy`, and an
// allocated object whose effective type changes with the last store (C11 6.5p6).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
union pun { int i; short s[2]; };
int main(void) {
    int x = 0x12345678;
    unsigned char *b = (unsigned char *)&x;
    unsigned *u = (unsigned *)&x;
    int sum = b[0] + b[3] + (int)(*u & 0xff);
    union pun p;
    p.i = 0x00050007;
    sum += p.s[0] + p.s[1];
    short halves[2];
    memcpy(halves, &x, sizeof halves);
    long long wide = 0;
    long copy = 41;
    memcpy(&wide, &copy, sizeof copy);
    sum += (int)wide;
    void *heap = malloc(sizeof(long long));
    if (!heap) return 1;
    *(int *)heap = 3;
    sum += *(int *)heap;
    *(short *)heap = 4;
    sum += *(short *)heap;
    free(heap);
    printf("%d %d\n", sum, halves[0] == 0x5678);
    return 0;
}
