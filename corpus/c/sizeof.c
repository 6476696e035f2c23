#include "test.h"

struct s1 { char c; int i; };
struct s2 { char c[3]; };
union u1 { char c; long long l; };

int main(void) {
    int x = 0;
    ASSERT(4, sizeof x);
    ASSERT(4, sizeof(x));
    ASSERT(8, sizeof(int *));
    ASSERT(8, sizeof(char **));
    ASSERT(8, sizeof(struct s1));
    ASSERT(3, sizeof(struct s2));
    ASSERT(8, sizeof(union u1));
    ASSERT(40, sizeof(int[10]));
    ASSERT(24, sizeof(int[2][3]));
    ASSERT(8, sizeof(int (*)[3]));
    ASSERT(1, sizeof(char));
    ASSERT(4, sizeof(char) + 3);
    ASSERT(4, sizeof(x + 1));
    ASSERT(4, sizeof('a'));
    ASSERT(8, sizeof(x + 1L));
    ASSERT(1, sizeof((char)x));
    ASSERT(4, sizeof(-(char)x));
    ASSERT(4, sizeof(x++));
    ASSERT(0, x); /* sizeof does not evaluate its operand */
    ASSERT(8, sizeof(sizeof(x)));
    ASSERT(2, sizeof(short));
    ASSERT(1, sizeof(x) == sizeof(int));
    {
        int a[7];
        ASSERT(28, sizeof a);
        ASSERT(8, sizeof(a + 0));
        ASSERT(4, sizeof *a);
        char *p = "abc";
        ASSERT(8, sizeof p);
        ASSERT(4, sizeof "abc");
        struct s1 arr[3];
        ASSERT(24, sizeof arr);
        ASSERT(8, sizeof arr[0]);
        ASSERT(4, sizeof arr[0].i);
    }
    printf("OK\n");
    return 0;
}
