/* argv.c -- main's arguments (C11 5.1.2.2.1).
 *
 * The harness starts every program as "a.out" with no further arguments: gcc's binary
 * with argv[0] = "a.out", the oracle with the same argv.  So argc is 1, argv[0] is the
 * string "a.out", argv[argc] is a null pointer, and the strings are modifiable.
 */
#include "test.h"

static int count_chars(const char *s) {
    int n = 0;
    while (s[n])
        n++;
    return n;
}

int main(int argc, char **argv) {
    ASSERT(1, argc);
    ASSERT(1, argv[0] != 0);
    ASSERT(0, strcmp(argv[0], "a.out"));
    ASSERT(1, argv[1] == 0);
    ASSERT(1, argv[argc] == 0);
    ASSERT(5, count_chars(argv[0]));
    ASSERT(5, (int)strlen(argv[0]));
    ASSERT(97, argv[0][0]);
    ASSERT(46, argv[0][1]);
    ASSERT(0, argv[0][5]);
    /* The strings are modifiable. */
    argv[0][0] = 'b';
    argv[0][4] = 'x';
    ASSERT(0, strcmp(argv[0], "b.oux"));
    ASSERT(98, *argv[0]);
    argv[0][1] = 0;
    ASSERT(1, (int)strlen(argv[0]));
    ASSERT(0, strcmp(argv[0], "b"));
    /* So is the array (in practice; the standard names argc and argv themselves). */
    {
        char other[] = "zz";
        char *saved = argv[0];
        argv[0] = other;
        ASSERT(0, strcmp(argv[0], "zz"));
        argv[0] = saved;
        ASSERT(98, argv[0][0]);
    }
    printf("%s|%d\n", argv[0], argc);
    printf("OK\n");
    return 0;
}
