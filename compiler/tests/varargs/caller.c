#include "varargs.h"
#include <stdio.h>

long long via_vsum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long long s = vsum(n, ap);
    va_end(ap);
    return s;
}

long long via_vtake(const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    long long s = vtake(kinds, ap);
    va_end(ap);
    return s;
}

int main(void) {
    struct S1 a1 = {-5};
    struct S3 a3 = {1, 2, 3};
    struct S6 a6 = {100, 30, -7};
    struct S8 a8 = {1LL << 40};
    struct S12 a12 = {6, 7, 8};
    struct S16 a16 = {50, 8};
    struct S24 a24 = {1, 2, 3};
    struct S40 a40 = {{1, 2, 3, 4, 5}};
    struct M am = {-1, 1000000, 300};
    int v3 = 3, v7 = 7;
    long long big = 123456789012LL;
    char buf[128];
    printf("sum_ll_0 %lld\n", sum_ll(0));
    printf("sum_ll_10 %lld\n", sum_ll(10, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL));
    printf("sum_ll_20 %lld\n", sum_ll(20, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9LL, 10LL,
                                      11LL, 12LL, 13LL, 14LL, 15LL, 16LL, 17LL, 18LL, 19LL,
                                      -20000000000LL));
    printf("sum_int_11 %d\n", sum_int(11, 1, 2, 0, 1, 2, 0, 1, 2, 0, -1, 2));
    printf("mixed_8 %lld\n", mixed(8, 1, 2LL, 4000000500u, &v3, 5, 6LL, 4294967295u, &v7));
    printf("after9 %lld\n", after9(1, 2, 3, 4, 5, 6, 7, 8, 9, 10LL, 11));
    printf("take_each %lld\n", take("1368cgoxm", a1, a3, a6, a8, a12, a16, a24, a40, am));
    printf("take_pair4 %lld\n", take("iiiigi", 1, 2, 3, 4, a16, 5));
    printf("take_pair5 %lld\n", take("iiiiigi", 1, 2, 3, 4, 5, a16, 6));
    printf("take_pair6 %lld\n", take("iiiiiigi", 1, 2, 3, 4, 5, 6, a16, 7));
    printf("take_pair7 %lld\n", take("iiiiiiigi", 1, 2, 3, 4, 5, 6, 7, a16, 8));
    printf("take_big %lld\n", take("lolxlmp", 1LL, a24, 2LL, a40, 3LL, am, &big));
    printf("take_many %lld\n", take("gggggc", a16, a16, a16, a16, a16, a12));
    printf("named %lld\n", named(a16, 3, a12, a12, a12));
    printf("copies %lld\n", copies(9, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    int n = fwd(buf, "[%d|%s|%lld|%x|%c]", -42, "str", big, 255u, 'z');
    printf("fwd %d %s\n", n, buf);
    printf("via_vsum %lld\n", via_vsum(9, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 90LL));
    printf("via_vtake %lld\n", via_vtake("iiiiigimxo", 1, 2, 3, 4, 5, a16, 6, am, a40, a24));
    return 0;
}
