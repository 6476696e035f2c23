#include "test.h"

static void set(int *p, int v) { *p = v; }

int main(void) {
    int x = 3;
    int *p = &x;
    ASSERT(3, *p);
    *p = 5;
    ASSERT(5, x);
    set(&x, 9);
    ASSERT(9, x);
    int **pp = &p;
    ASSERT(9, **pp);
    **pp = 11;
    ASSERT(11, x);
    {
        int a[5] = {10, 20, 30, 40, 50};
        int *q = a;
        ASSERT(10, *q);
        ASSERT(30, *(q + 2));
        ASSERT(50, q[4]);
        q += 3;
        ASSERT(40, *q);
        ASSERT(20, q[-2]);
        ASSERT(3, q - a);
        ASSERT(-3, a - q);
        ASSERT(1, q > a);
        ASSERT(1, q != a);
        ASSERT(0, q == a);
        q--;
        ASSERT(30, *q);
        ASSERT(30, *q++);
        ASSERT(40, *q);
        ASSERT(50, *++q);
        ASSERT(30, 2[a + 2 - 1] - 10); /* a - 1 would point before the array: undefined */
    }
    {
        char buf[4] = {'a', 'b', 'c', 0};
        char *c = buf;
        ASSERT(98, c[1]);
        ASSERT(1, (char *)(&buf[3]) - (char *)(&buf[2]));
        long long l = 0x0102030405060708LL;
        unsigned char *bytes = (unsigned char *)&l;
        ASSERT(8, bytes[0]);
        ASSERT(1, bytes[7]);
    }
    {
        int *null = 0;
        ASSERT(1, null == 0);
        ASSERT(1, !null);
        ASSERT(0, p == null);
        void *v = &x;
        int *back = v;
        ASSERT(11, *back);
    }
    printf("OK\n");
    return 0;
}
