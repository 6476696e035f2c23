// Defined: a pointer variable that held a pointer into the array member `f2`, was then
// given another object's address, and then stepped by 0 (or incremented) keeps no bounds
// of `f2`. The judge once revived the bounds the plain assignment had dropped at the next
// `p = p + k` (gen c seed 4866: a false IndexOutOfBounds).
#include <stdio.h>
struct S0 { int a; long long f2[2]; };
static long long g_1 = 5;
static long long g_2[3] = {7, 8, 9};
static struct S0 g_3 = {1, {3, 4}};
int main(void) {
    long long *l_6 = &g_3.f2[1];
    l_6 = &g_1;
    l_6 = l_6 + ((1) & 0);
    printf("%lld\n", *l_6);
    long long *q = g_3.f2;
    q = g_2;
    q++;
    q = q + 1;
    printf("%lld\n", *q);
    return 0;
}
