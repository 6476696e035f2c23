// Defined (implementation-defined in C99, allowed by gcc): reading a union through
// another member than the last stored one reinterprets its bytes (C99 6.5.2.3p3
// footnote 82); char-typed access to any object; a pointer round trip through uintptr_t.
#include <stdint.h>
#include <stdio.h>
union pun { unsigned u; unsigned char b[4]; short s[2]; };
int main(void) {
    union pun p;
    p.u = 0x01020304u;
    int sum = 0;
    for (int i = 0; i < 4; i++)
        sum += p.b[i];
    long x = 5;
    unsigned char *c = (unsigned char *)&x;
    uintptr_t bits = (uintptr_t)(c + 1);
    unsigned char *back = (unsigned char *)(bits - 1);
    printf("%d %d %d %d\n", sum, p.s[0], p.b[0], *back);
    return 0;
}
