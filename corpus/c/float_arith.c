/* float_arith.c -- float and double through phicc's front end: literals (decimal, hex,
 * f suffix, correctly rounded in their type), the usual arithmetic conversions,
 * int <-> float conversions of every width and signedness, comparisons (a NaN is
 * unordered), conditions, ++/--, compound assignment with mixed types, casts, sizeof.
 * Expected output: gcc -O0 on the host (`phihunt check` compares every stage). */
#include <stdio.h>

static double half(double x) { return x / 2; }
static float twice(float x) { return x * 2; }
static int truncate_to_int(double d) { return (int)d; }
static unsigned long long to_ull(double d) { return (unsigned long long)d; }
static float sum3(float a, double b, int c) { return a + b + c; }

int main(void) {
    double d = 1.5;
    float f = 0.1f;
    int i = 7;
    unsigned u = 4000000000u;
    long long ll = -9007199254740993LL;
    unsigned long long ull = 18446744073709551615ULL;
    printf("%a %a\n", d, (double)f);
    printf("%a %a\n", 0.1, 1.0000000596046447753906251);
    printf("%a %a\n", (double)1.0000000596046447753906251f, 0x1.8p3);
    printf("%a %a\n", (double)0x1.fffffep+127f, 0x1p-1074);
    printf("%a\n", d + i);
    printf("%a\n", (double)(f + 1));
    printf("%a %a\n", (double)u, (double)(float)u);
    printf("%a %a\n", (double)ll, (double)(float)ll);
    printf("%a %a\n", (double)ull, (double)(float)ull);
    printf("%d %u %lld %llu\n", (int)-2.9, (unsigned)3e9, (long long)-1e18, to_ull(1.8e19));
    printf("%d %d\n", truncate_to_int(2.5), truncate_to_int(-2.5));
    printf("%d %d %d\n", (signed char)-100.7, (short)-32768.9, (unsigned char)255.9);
    printf("%a %a\n", half(3), (double)twice(1.5f));
    printf("%a\n", (double)sum3(0.5f, 0.25, 3));
    printf("%a %a\n", -d, -0.0);
    printf("%a\n", 1.0 / 3.0);
    printf("%a\n", (double)(1.0f / 3.0f));
    i += 1.5;
    printf("%d\n", i);
    i *= 2.75;
    printf("%d\n", i);
    d += i;
    d++;
    ++d;
    d--;
    printf("%a\n", d);
    f -= 1;
    f++;
    printf("%a\n", (double)f);
    {
        double z = 0.0;
        double nan = z / z;
        double inf = 1 / z;
        printf("%d %d %d %d %d %d\n", nan == nan, nan != nan, nan < 1, nan >= 1, !nan, !z);
        printf("%d %d %d\n", inf > 1e308, -inf < -1e308, 1 / inf == 0);
        printf("%d %d\n", z == -z, (1 / -z) < 0);
        if (nan)
            printf("nan is true\n");
        if (z)
            printf("zero is true\n");
        else
            printf("zero is false\n");
        printf("%d %d\n", nan && 1, z || 0);
        printf("%a\n", nan == nan ? 1.0 : 2.0);
        int n = 0;
        for (double x = 0; x < 1; x += 0.125)
            n++;
        printf("%d\n", n);
        _Bool b = 0.5;
        _Bool bz = -0.0;
        printf("%d %d\n", b, bz);
    }
    printf("%d %d %d %d\n", (int)sizeof(float), (int)sizeof(double), (int)sizeof(1.0f), (int)sizeof(2.0 + 1));
    printf("%d %d\n", 1.5 > 1, 2.0f == 2);
    printf("%d\n", (int)(0.1 + 0.2 == 0.3));
    printf("%d\n", (int)(0.1f + 0.2f == 0.3f));
    return 0;
}
