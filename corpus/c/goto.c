#include "test.h"

static int count_down(int n) {
    int s = 0;
again:
    if (n == 0)
        goto done;
    s += n;
    n--;
    goto again;
done:
    return s;
}

int main(void) {
    ASSERT(55, count_down(10));
    int i = 0, s = 0;
    goto middle;
top:
    s += 100;
middle:
    s += 1;
    if (++i < 3)
        goto top;
    ASSERT(203, s);
    {
        int j = 0;
        for (;;) {
            for (;;) {
                if (j++ > 4)
                    goto out;
            }
        }
    out:
        ASSERT(6, j);
    }
    printf("OK\n");
    return 0;
}
