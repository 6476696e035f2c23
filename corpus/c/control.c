#include "test.h"

int main(void) {
    int i, s;
    if (0) ASSERT(1, 0); else ASSERT(1, 1);
    if (1 - 1) { ASSERT(1, 0); }
    s = 0;
    for (i = 0; i <= 10; i++)
        s += i;
    ASSERT(55, s);
    s = 0;
    i = 0;
    while (i < 10) {
        i++;
        if (i % 2)
            continue;
        s += i;
    }
    ASSERT(30, s);
    s = 0;
    do {
        s++;
    } while (s < 7);
    ASSERT(7, s);
    do s += 100; while (0);
    ASSERT(107, s);
    s = 0;
    for (;;) {
        if (++s == 13)
            break;
    }
    ASSERT(13, s);
    s = 0;
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++) {
            if (b > a)
                break;
            s++;
        }
    ASSERT(15, s);
    {
        int x = 1;
        {
            int x = 2;
            ASSERT(2, x);
        }
        ASSERT(1, x);
    }
    {
        int n = 27, steps = 0;
        while (n != 1) {
            n = n % 2 ? 3 * n + 1 : n / 2;
            steps++;
        }
        ASSERT(111, steps);
    }
    printf("OK\n");
    return 0;
}
