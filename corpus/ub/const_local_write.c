// ub: WriteToConst @8
// Modifying a const-qualified local object through a pointer cast that drops `const`
// (C99 6.7.3p5). No sanitizer reports it; gcc -O2 may keep using the constant.
#include <stdio.h>
int main(void) {
    const int limit = 10;
    int *p = (int *)&limit;
    *p = 11;
    printf("%d\n", limit);
    return 0;
}
