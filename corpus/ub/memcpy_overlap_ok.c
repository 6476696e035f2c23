// The defined twin of memcpy_overlap.c: memmove may overlap; memcpy of disjoint ranges,
// and struct copies.
#include <stdio.h>
#include <string.h>
struct s { int a; char b[3]; };
int main(void) {
    char buf[8] = "abcdefg";
    memmove(buf + 1, buf, 4);
    char other[8];
    memcpy(other, buf, sizeof buf);
    struct s x = {1, "hi"}, y;
    y = x;
    printf("%s %s %d %s\n", buf, other, y.a, y.b);
    return 0;
}
