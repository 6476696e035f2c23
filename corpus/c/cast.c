#include "test.h"

int main(void) {
    ASSERT(131585, (int)8590066177);
    ASSERT(513, (short)8590066177);
    ASSERT(1, (char)8590066177);
    ASSERT(1, (long)1);
    ASSERT(0, (long)&*(int *)0);
    ASSERT(-1, (signed char)255);
    ASSERT(255, (unsigned char)-1);
    ASSERT(65535, (unsigned short)-1);
    ASSERT(-1, (short)65535);
    ASSERT(4294967295u, (unsigned)-1);
    ASSERT(-1, (int)4294967295u);
    ASSERT(1, (_Bool)5);
    ASSERT(0, (_Bool)0);
    ASSERT(1, (_Bool)-1);
    {
        int i = -1;
        unsigned long ul = i;
        ASSERT(1, ul == 18446744073709551615UL);
        unsigned u = i;
        unsigned long ul2 = u;
        ASSERT(4294967295UL, ul2);
        long l = (unsigned char)i;
        ASSERT(255, l);
        char c = (char)300;
        ASSERT(44, c);
        unsigned char uc = 0x80;
        int widened = (signed char)uc;
        ASSERT(-128, widened);
    }
    {
        int x = 512;
        *(char *)&x = 1;
        ASSERT(513, x);
        long v = 0;
        *(short *)&v = -1;
        ASSERT(65535, v);
    }
    printf("OK\n");
    return 0;
}
