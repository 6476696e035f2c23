// The defined twin of misaligned.c: the same bytes read with memcpy, and through a
// character type (any object may be accessed as characters, C99 6.5p7).
#include <stdio.h>
#include <string.h>
int words[2] = {0x01020304, 0x05060708};
int off = 1;
int main(void) {
    char *c = (char *)words;
    int v;
    memcpy(&v, c + off, sizeof v);
    unsigned char b = ((unsigned char *)words)[off];
    printf("%d %d\n", v, b);
    return 0;
}
