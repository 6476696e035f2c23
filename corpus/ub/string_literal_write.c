// ub: WriteToConst @6
// Modifying a string literal (C99 6.4.5p6).
#include <stdio.h>
int main(void) {
    char *s = "hello";
    s[0] = 'j';
    printf("%s\n", s);
    return 0;
}
