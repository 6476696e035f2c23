#include "test.h"

static int my_strlen(const char *s) {
    int n = 0;
    while (*s++)
        n++;
    return n;
}

int main(void) {
    ASSERT(5, my_strlen("hello"));
    ASSERT(0, my_strlen(""));
    ASSERT(6, sizeof("hello"));
    ASSERT(98, "abc"[1]);
    ASSERT(0, "abc"[3]);
    ASSERT(7, sizeof("abc" "def"));
    ASSERT(100, ("abc" "def")[3]);
    ASSERT(10, "\n"[0]);
    ASSERT(9, "\t"[0]);
    ASSERT(92, "\\"[0]);
    ASSERT(34, "\""[0]);
    ASSERT(7, "\a"[0]);
    ASSERT(27, "\033"[0]);
    ASSERT(-1, "\xff"[0]);
    ASSERT(0, strcmp("abc", "abc"));
    ASSERT(1, strcmp("abd", "abc") > 0);
    ASSERT(1, strcmp("ab", "abc") < 0);
    ASSERT(0, strncmp("abcx", "abcy", 3));
    ASSERT(3, (int)strlen("abc"));
    {
        char buf[16];
        memset(buf, 'x', sizeof(buf));
        memcpy(buf, "hey", 4);
        ASSERT(0, strcmp(buf, "hey"));
        ASSERT(120, buf[5]);
        memmove(buf + 1, buf, 3);
        buf[4] = 0;
        ASSERT(0, memcmp(buf, "hhey", 5));
        puts(buf);
        putchar('!');
        putchar('\n');
    }
    printf("%s|%5s|%-5s|%.2s|%c\n", "str", "ab", "cd", "xyz", 'q');
    printf("OK\n");
    return 0;
}
