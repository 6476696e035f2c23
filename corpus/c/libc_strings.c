/* The string and formatting functions of libc that c-torture calls, through their
 * declarations and through the __builtin_ names (which are the same functions): each
 * runs in the real libc natively and in the oracle's model of it. */
#include "test.h"

int main(void) {
    char buf[16];
    char big[40];
    const char *s = "hello, world";
    ASSERT(1, strcpy(buf, "abcabc") == buf);
    ASSERT(0, strcmp(buf, "abcabc"));
    ASSERT(1, strchr(buf, 'b') == buf + 1);
    ASSERT(1, strrchr(buf, 'b') == buf + 4);
    ASSERT(1, strchr(buf, 0) == buf + 6);
    ASSERT(0, strchr(buf, 'z') != 0);
    ASSERT(1, strncpy(buf, "xy", 5) == buf);
    ASSERT(0, memcmp(buf, "xy\0\0\0c", 7));
    ASSERT(1, strncpy(buf, "long text", 3) == buf);
    ASSERT('l', buf[0]);
    ASSERT('n', buf[2]);
    ASSERT(0, buf[4]);
    ASSERT(18, sprintf(big, "%s|%d|%x", s, -7, 255u));
    ASSERT(0, strcmp(big, "hello, world|-7|ff"));
    ASSERT(12, __builtin_strlen(s));
    ASSERT(1, __builtin_memcpy(big, s, 6) == big);
    ASSERT(1, __builtin_memset(big + 5, '!', 2) - 5 == big);
    ASSERT(0, __builtin_memcmp(big, "hello!!world", 12));
    ASSERT(0, __builtin_strcmp(__builtin_strcpy(buf, "q"), "q"));
    ASSERT(0, __builtin_strncmp("abcd", "abce", 3));
    ASSERT(1, __builtin_memmove(big + 2, big, 4) == big + 2);
    ASSERT(0, __builtin_memcmp(big, "hehell!world", 12));
    ASSERT(1, __builtin_strchr(s, 'w') == s + 7);
    ASSERT(4, __builtin_sprintf(buf, "%03d", 7) + 1);
    ASSERT(0, strcmp(buf, "007"));
    {
        int *p = __builtin_malloc(3 * sizeof(int));
        int *q = calloc(4, sizeof(int));
        p[0] = 1;
        p[2] = 5;
        ASSERT(0, q[3]);
        ASSERT(6, p[0] + p[2] + q[1]);
        __builtin_free(p);
        free(q);
    }
    __builtin_printf("%s %d\n", "printed", 1);
    if (big[0] != 'h')
        __builtin_abort();
    return 0;
}
