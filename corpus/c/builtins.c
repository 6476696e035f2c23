/* GNU builtins phicc computes in IR (lowering/builtins.rs), and the library functions
 * gcc expands inline (abs, ffs), called without a declaration as c-torture does.
 * Expected values are by hand (bit counting), the checksum is gcc -O0's.
 * `long` is 32 bits on i686: the `l` variants are written in terms of sizeof(long). */
#include "test.h"

#define LBITS (8 * (int)sizeof(long))

static unsigned values[] = {0u, 1u, 0x80000000u, 0xffffffffu, 0x00f000f0u, 12345678u};

static unsigned checksum(void) {
    unsigned sum = 0;
    for (int i = 0; i < 6; i++) {
        unsigned v = values[i];
        sum = sum * 31 + __builtin_popcount(v) + __builtin_parity(v) + __builtin_ffs((int)v);
        if (v) sum = sum * 7 + __builtin_clz(v) + __builtin_ctz(v);
        sum = sum * 3 + __builtin_clrsb((int)v);
    }
    return sum;
}

int main(void) {
    volatile unsigned zero = 0, all = ~0u;
    volatile unsigned long long big = 0x8000000000000001ull;
    ASSERT(0, __builtin_popcount(zero));
    ASSERT(32, __builtin_popcount(all));
    ASSERT(2, __builtin_popcountll(big));
    ASSERT(64, __builtin_popcountll(~0ull));
    ASSERT(LBITS, __builtin_popcountl(~0ul));
    ASSERT(1, __builtin_parity(7));
    ASSERT(0, __builtin_parityll(big));
    ASSERT(1, __builtin_parityl(1ul));
    ASSERT(31, __builtin_clz(1));
    ASSERT(0, __builtin_clz(all));
    ASSERT(0, __builtin_clzll(big));
    ASSERT(63, __builtin_clzll(1ull));
    ASSERT(LBITS - 5, __builtin_clzl(16ul));
    ASSERT(0, __builtin_ctz(all));
    ASSERT(31, __builtin_ctz(0x80000000u));
    ASSERT(63, __builtin_ctzll(0x8000000000000000ull));
    ASSERT(4, __builtin_ctzl(48ul));
    ASSERT(0, __builtin_ffs(0));
    ASSERT(1, __builtin_ffs(-1));
    ASSERT(32, __builtin_ffs((int)0x80000000u));
    ASSERT(64, __builtin_ffsll((long long)0x8000000000000000ull));
    ASSERT(5, ffs(16));
    ASSERT(31, __builtin_clrsb(0));
    ASSERT(31, __builtin_clrsb(-1));
    ASSERT(0, __builtin_clrsb((int)0x80000000u));
    ASSERT(29, __builtin_clrsb(3));
    ASSERT(62, __builtin_clrsbll(1ll));
    ASSERT(LBITS - 1, __builtin_clrsbl(0l));
    ASSERT(0x3412, __builtin_bswap16(0x1234));
    ASSERT(0x78563412, __builtin_bswap32(0x12345678));
    ASSERT(0xefcdab8967452301ull, __builtin_bswap64(0x0123456789abcdefull));
    ASSERT(0x80, __builtin_bswap32(0x80000000u));
    ASSERT(5, abs(-5));
    ASSERT(5, abs(5));
    ASSERT(-2147483647 - 1, abs(-2147483647 - 1));
    ASSERT(70000, labs(-70000l));
    ASSERT(5000000000ll, llabs(-5000000000ll));
    ASSERT(3, __builtin_abs(-3));
    ASSERT(7, __builtin_expect(7, 0));
    ASSERT(1, __builtin_expect(zero == 0, 1));
    ASSERT(1, __builtin_constant_p(3 * 4));
    ASSERT(0, __builtin_constant_p(zero));
    ASSERT(1, __builtin_types_compatible_p(int, const int));
    ASSERT(0, __builtin_types_compatible_p(int, unsigned));
    ASSERT(1, __builtin_types_compatible_p(char *, char *));
    __builtin_prefetch(values);
    __builtin_prefetch(values, 0, 3);
    ASSERT(3236388532u, checksum()); /* gcc -O0's value on all four targets */
    if (zero)
        __builtin_unreachable();
    if (zero)
        __builtin_trap();
    return 0;
}
