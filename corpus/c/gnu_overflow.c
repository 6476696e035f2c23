/* __builtin_{add,sub,mul}_overflow and their _p forms with operands and results of
 * mixed integer types (lowering/overflow.rs computes the infinite-precision result with
 * 64-bit words). Every line is compared with gcc -O0's output; the checksum covers each
 * operation on a grid of edge values for every pair of operand types and every result
 * type, and the lines after it check a few results by hand. */
#include <stdio.h>

static const long long sv[] = {0, 1, -1, 2, -2, 127, -128, 255, 32767, -32768, 65535,
                               2147483647LL, -2147483647LL - 1, 4294967295LL,
                               4294967296LL, 3037000499LL, -3037000500LL,
                               9223372036854775807LL, -9223372036854775807LL - 1};
static const unsigned long long uv[] = {0, 1, 2, 0x7fffffffull, 0x80000000ull,
                                        0xffffffffull, 0x100000000ull,
                                        0x7fffffffffffffffull, 0x8000000000000000ull,
                                        0xfffffffffffffffeull, 0xffffffffffffffffull};
#define NS (int)(sizeof sv / sizeof sv[0])
#define NU (int)(sizeof uv / sizeof uv[0])

static unsigned long long sum;
static unsigned long long count;

static void mix(int overflow, unsigned long long value) {
    sum = (sum * 1000003ull) ^ (value * 2 + (unsigned)overflow);
    count += (unsigned)overflow;
}

/* One operation (OP: add, sub, mul) of operands of types TA, TB into every result type. */
#define INTO(OP, a, b, TR) do { TR r = 0; \
        int o = __builtin_##OP##_overflow(a, b, &r); \
        int p = __builtin_##OP##_overflow_p(a, b, (TR)0); \
        mix(o, (unsigned long long)r); mix(p, o == p); } while (0)
#define ALL_RESULTS(OP, a, b) do { \
        INTO(OP, a, b, signed char); INTO(OP, a, b, unsigned char); \
        INTO(OP, a, b, short); INTO(OP, a, b, unsigned short); \
        INTO(OP, a, b, int); INTO(OP, a, b, unsigned); \
        INTO(OP, a, b, long); INTO(OP, a, b, unsigned long); \
        INTO(OP, a, b, long long); INTO(OP, a, b, unsigned long long); } while (0)
#define GRID(TA, VA, NA, TB, VB, NB) \
    for (int i = 0; i < NA; i++) \
        for (int j = 0; j < NB; j++) { \
            TA a = (TA)VA[i]; TB b = (TB)VB[j]; \
            ALL_RESULTS(add, a, b); ALL_RESULTS(sub, a, b); ALL_RESULTS(mul, a, b); }

int main(void) {
    GRID(long long, sv, NS, long long, sv, NS)
    GRID(unsigned long long, uv, NU, unsigned long long, uv, NU)
    GRID(long long, sv, NS, unsigned long long, uv, NU)
    GRID(unsigned long long, uv, NU, int, sv, NS)
    GRID(int, sv, NS, short, sv, NS)
    GRID(unsigned, uv, NU, signed char, sv, NS)
    GRID(unsigned char, uv, NU, unsigned short, uv, NU)
    printf("checksum %llu, %llu overflows\n", sum, count);

    int r;
    unsigned u;
    long long ll;
    unsigned long long ull;
    int o;
    o = __builtin_add_overflow(2147483647, 1, &r);
    printf("%d %d\n", o, r); /* 1 -2147483648 */
    o = __builtin_sub_overflow(0u, 1, &r);
    printf("%d %d\n", o, r); /* 0 -1 */
    o = __builtin_sub_overflow(0, 1, &u);
    printf("%d %u\n", o, u); /* 1 4294967295 */
    o = __builtin_mul_overflow(-9223372036854775807LL - 1, -1, &ll);
    printf("%d %lld\n", o, ll); /* 1 -9223372036854775808 */
    o = __builtin_mul_overflow(0xffffffffffffffffull, 0xffffffffffffffffull, &ull);
    printf("%d %llu\n", o, ull); /* 1 1 */
    o = __builtin_mul_overflow(0xffffffffffffffffull, -1, &ll);
    printf("%d %lld\n", o, ll); /* -(2^64 - 1) does not fit: 1 1 */
    o = __builtin_add_overflow(-1, 0xffffffffffffffffull, &ull);
    printf("%d %llu\n", o, ull); /* 0 18446744073709551614 */
    printf("%d\n", __builtin_mul_overflow_p(65536, 65536, (int)0)); /* 1 */
    printf("%d\n", __builtin_mul_overflow_p(65535, 65537, (unsigned)0)); /* 0 */
    _Bool flag = __builtin_add_overflow(1, 2, &r);
    printf("%d %d %d\n", flag, r, (int)sizeof(__builtin_add_overflow(1, 2, &r)));
    return 0;
}
