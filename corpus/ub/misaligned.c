// ub: Misaligned @9
// An int read through a pointer that is not aligned for int (C99 6.3.2.3p7).
#include <stdio.h>
int words[2] = {0x01020304, 0x05060708};
int off = 1;
int main(void) {
    char *c = (char *)words;
    int *p = (int *)(c + off);
    printf("%d\n", *p);
    return 0;
}
