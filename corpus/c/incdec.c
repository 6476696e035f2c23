#include "test.h"

int main(void) {
    int i = 5;
    ASSERT(5, i++);
    ASSERT(6, i);
    ASSERT(7, ++i);
    ASSERT(7, i--);
    ASSERT(5, --i);
    {
        char c = 127;
        c++;
        ASSERT(-128, c);
        unsigned char uc = 0;
        uc--;
        ASSERT(255, uc);
        short s = -32768;
        s--;
        ASSERT(32767, s);
        long long ll = 0;
        ll--;
        ASSERT(-1, ll);
    }
    {
        int a[4] = {1, 2, 3, 4};
        int *p = a;
        ASSERT(1, *p++);
        ASSERT(2, *p);
        ASSERT(3, ++*p);
        ASSERT(3, a[1]);
        ASSERT(3, (*p)++);
        ASSERT(4, a[1]);
        p += 2;
        ASSERT(4, *p--);
        ASSERT(3, *p);
        long arr[3] = {0};
        long *lp = arr;
        lp++;
        ASSERT(8, (char *)lp - (char *)arr);
    }
    {
        struct { int n; } s = {1}, *sp = &s;
        sp->n++;
        ++sp->n;
        ASSERT(3, s.n);
        int x = 0;
        int y = x++, z = x++;
        ASSERT(2, x);
        ASSERT(1, z - y);
    }
    printf("OK\n");
    return 0;
}
