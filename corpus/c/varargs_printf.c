#include <stdio.h>

/* printf's variadic arguments after the default argument promotions: char and short
   become int, and the conversions read int, long, long long, unsigned, pointers and
   strings.  Expected lines are glibc's (C99 7.19.6.1). */
int main(void) {
    char c = -5;
    unsigned char uc = 250;
    short s = -300;
    unsigned short us = 60000;
    long l = -1234567890123L;
    unsigned long ul = 18446744073709551615UL;
    long long ll = -9223372036854775807LL - 1;
    unsigned long long ull = 0xDEADBEEFCAFEULL;
    printf("%d %d %d %d\n", c, uc, s, us);
    printf("%hhd %hhu %hd %hu\n", c, uc, s, us);
    printf("%ld %lu\n", l, ul);
    printf("%lld %llu %llx %llX\n", ll, ull, ull, ull);
    printf("%x %X %o %#x %#o\n", 255, 255, 8, 255, 8);
    printf("[%5d] [%-5d] [%05d] [%+d] [% d]\n", 42, 42, 42, 42, 42);
    printf("[%.3d] [%8.3d] [%-8.3x]\n", 7, 7, 255);
    printf("[%*d] [%-*d] [%.*d]\n", 6, 1, 6, 2, 4, 3);
    printf("%c%c%c\n", 'a', 98, 'c' + 1);
    printf("%s %.3s %10s|\n", "string", "truncate", "right");
    printf("%u %u\n", 4294967295u, -1);
    printf("%lX\n", 0xFFFFFFFFUL ^ 0x12345678UL);
    printf("%X\n", 0xFFFFFFFFU ^ 0x12345678U);
    printf("%%d %%\n");
    printf("%zu %zd\n", sizeof(long), (long)-3);
    int n = printf("12345\n");
    printf("%d\n", n);
    printf("%p\n", (void *)0);
    return n;
}
