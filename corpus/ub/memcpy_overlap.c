// ub: MemcpyOverlap @7
// memcpy between overlapping ranges (C99 7.21.2.1p2).
#include <stdio.h>
#include <string.h>
int main(void) {
    char buf[8] = "abcdefg";
    memcpy(buf + 1, buf, 4);
    printf("%s\n", buf);
    return 0;
}
