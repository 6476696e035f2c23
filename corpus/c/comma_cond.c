#include "test.h"

static int side;
static int touch(int v) { side++; return v; }

int main(void) {
    int x = (1, 2, 3);
    ASSERT(3, x);
    int i, j;
    for (i = 0, j = 10; i < j; i++, j--)
        ;
    ASSERT(5, i);
    ASSERT(5, j);
    ASSERT(2, 1 ? 2 : 3);
    ASSERT(3, 0 ? 2 : 3);
    ASSERT(4, 0 ? 1 : 0 ? 2 : 4);
    side = 0;
    ASSERT(7, 1 ? touch(7) : touch(8));
    ASSERT(1, side);
    side = 0;
    ASSERT(0, 0 && touch(1));
    ASSERT(1, 1 || touch(1));
    ASSERT(0, side);
    ASSERT(1, 1 && touch(2));
    ASSERT(1, side);
    {
        long l = 1 ? 5 : 10L;
        ASSERT(8, sizeof(1 ? 5 : 10L));
        ASSERT(5, l);
        ASSERT(1, (0 ? -1 : 0u) == 0);
        ASSERT(4294967295u, 1 ? -1 : 0u);
        int a = 1, b = 2;
        int *m = a > b ? &a : &b;
        ASSERT(2, *m);
    }
    printf("OK\n");
    return 0;
}
