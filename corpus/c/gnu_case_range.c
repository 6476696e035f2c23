/* GNU case ranges `case lo ... hi:` (c-torture pr34154.c has one of 9e18 values):
 * signed and unsigned controlling types, ranges next to single values, a range that
 * covers the whole upper half of an unsigned type, negative ranges, an empty range
 * (gcc: a warning, matches nothing), and a char-typed switch. Expected by hand; each
 * line is also compared with gcc -O0's output. */
#include "test.h"

static int classify(int c) {
    switch (c) {
    case '0' ... '9': return 1;
    case 'a' ... 'z':
    case 'A' ... 'Z': return 2;
    case '_': return 3;
    case -100 ... -1: return 4;
    case 1000 ... 1000: return 5;
    default: return 0;
    }
}

static int digits(unsigned long long v) {
    switch (v) {
    case 0 ... 9: return 1;
    case 10 ... 99: return 2;
    case 100 ... 999: return 3;
    case 1000000000000000000ULL ... 9999999999999999999ULL: return 19;
    case 10000000000000000000ULL ... 18446744073709551615ULL: return 20;
    default: return -1;
    }
}

static int empty_range(int v) {
    switch (v) {
    case 5 ... 3: return 1;
    default: return 0;
    }
}

static int by_char(signed char c) {
    switch (c) {
    case -128 ... -1: return -1;
    case 0: return 0;
    case 1 ... 127: return 1;
    }
    return 9;
}

static int halves(unsigned u) {
    switch (u) {
    case 0x80000000u ... 0xffffffffu: return 1;
    case 0 ... 0x7fffffff: return 0;
    }
    return 9;
}

int main(void) {
    ASSERT(1, classify('5'));
    ASSERT(2, classify('q'));
    ASSERT(2, classify('Q'));
    ASSERT(3, classify('_'));
    ASSERT(4, classify(-1));
    ASSERT(4, classify(-100));
    ASSERT(0, classify(-101));
    ASSERT(5, classify(1000));
    ASSERT(0, classify(' '));
    ASSERT(1, digits(7));
    ASSERT(2, digits(42));
    ASSERT(3, digits(999));
    ASSERT(-1, digits(1000));
    ASSERT(19, digits(5000000000000000000ULL));
    ASSERT(20, digits(18446744073709551615ULL));
    ASSERT(0, empty_range(4));
    ASSERT(-1, by_char(-128));
    ASSERT(0, by_char(0));
    ASSERT(1, by_char(127));
    ASSERT(1, halves(0x80000000u));
    ASSERT(1, halves(0xffffffffu));
    ASSERT(0, halves(0x7fffffffu));
    ASSERT(0, halves(0));
    return 0;
}
