// The defined twin of string_literal_write.c: an array initialised from the literal is
// the program's own, modifiable object.
#include <stdio.h>
int main(void) {
    char s[] = "hello";
    s[0] = 'j';
    printf("%s\n", s);
    return 0;
}
