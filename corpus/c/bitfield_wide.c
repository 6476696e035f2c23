#include "test.h"

/* Bit-fields wider than int and narrower than their declared type: gcc computes in a
   type of exactly the field's width (an unsigned one wraps modulo 2^N), and so must
   phicc. Expected values by hand: a = 2^40 - 1, c = 2^33 - 1, b = -1. */

struct wide {
    unsigned long long a : 40;
    long long b : 36;
    unsigned long long c : 33;
    unsigned long long d : 64;
};

int main(void) {
    struct wide s = {0xFFFFFFFFFFull, -1, 0x1FFFFFFFFull, 5};
    int m1 = -1, m2 = -2;
    unsigned u = 0xFFFFFFFFu;
    ASSERT(0, s.a + 1);                           /* 2^40 wraps to 0 */
    ASSERT(0x10000000000ll, s.a + 1ull);          /* 64-bit operand: 64-bit sum */
    ASSERT(0xFFFFFFFFF0ll, s.a << 4);             /* shifted out of 40 bits */
    ASSERT(0xFFFFFFFFFll, s.a >> 4);
    ASSERT(1, s.a * s.a);                         /* (-1)^2 mod 2^40 */
    ASSERT(1, -s.a);
    ASSERT(0, ~s.a);
    ASSERT(0, ~s.b);                              /* signed: ~(-1) */
    ASSERT(-2, s.b * 2);
    ASSERT(0, s.a ^ m1);                          /* -1 converts to 2^40 - 1 */
    ASSERT(1, s.a == m1);
    ASSERT(0, s.a < m1);
    ASSERT(0x1FFFFFFFEll, s.a + s.c);             /* (2^40-1) + (2^33-1) mod 2^40 */
    ASSERT(0x1FFFFFFFEll, s.c + s.c);             /* 2^34 - 2 mod 2^33 */
    ASSERT(0xFFFFFFFEll, s.c + u);                /* 33 bits beat 32 */
    ASSERT(0xFFFFFFFFFEll, s.a + s.b);            /* 40 bits beat 36 */
    ASSERT(3, 0 - s.c + 2);                       /* (0 - (2^33-1)) mod 2^33 = 1, + 2 */
    ASSERT(6, s.d + 1);                           /* a full-width field: no wrap */
    ASSERT(8, sizeof(s.a + 1));                   /* the type stays the declared one */
    s.a = 0;
    ASSERT(0xFFFFFFFFFFll, s.a ? s.a : -1);       /* ?: converts -1 to 40 bits */
    ASSERT(0xFFFFFFFFFFll, s.a - 1);
    s.a += 0x10000000001ull;                      /* stored modulo 2^40 */
    ASSERT(1, s.a);
    s.a = 0xFFFFFFFFFFull;
    s.a /= m1;                                    /* m1 converts to 2^40 - 1 */
    ASSERT(1, s.a);
    s.a = 5;
    s.a -= m1;                                    /* 5 - (2^40 - 1) mod 2^40 */
    ASSERT(6, s.a);
    /* The result of an operation in a wide bit-field type has that type too: the next
       operation wraps again, and its width decides the next common type. */
    s.a = 0xFFFFFFFFFFull;
    ASSERT(0x1FFFFFFFFll, (0 - s.c) + (-2));      /* 1 + (2^33 - 2) */
    ASSERT(0x1FFFFFFFFll, (0 - s.c) + m2);
    ASSERT(0x1FFFFFFFFll, (0 - s.c) - 2);         /* 1 - 2 mod 2^33 */
    ASSERT(0x1FFFFFFFFll, -s.c - 2);
    ASSERT(0x1FFFFFFFFll, ~s.c - 1);              /* 0 - 1 mod 2^33 */
    ASSERT(1, s.c * 3 + 4);                       /* (2^33 - 3) + 4 mod 2^33 */
    ASSERT(0, (s.c << 1) + 2);                    /* (2^33 - 2) + 2 mod 2^33 */
    ASSERT(0x1FFFFFFFEll, (s.c * 1) << 1);
    ASSERT(0, s.c + s.c + 2);
    ASSERT(0x1FFFFFFFFll, (s.c >> 32) - 2);       /* >> keeps the type: 1 - 2 */
    ASSERT(1, +s.c + 2);                          /* unary + keeps it */
    ASSERT(0x1FFFFFFFEll, s.c + 0 + s.a);         /* 40 bits beat 33: c - 1 */
    ASSERT(0xFFFFFFFEll, s.c + 0 + u);            /* 33 bits beat 32 */
    ASSERT(1, s.c + 0 == m1);                     /* -1 converts to 2^33 - 1 */
    ASSERT(1, s.c * 1 / m1);
    ASSERT(0xFFFFFFFF00ll, (m1 ? s.c : s.a) * 256);  /* ?: in 40 bits, then * too */
    ASSERT(1, (m1 ? s.c * 1 : s.c) + 2);
    ASSERT(1, (m1 ? s.c : 0) + 2);                /* common type of the arms: 33 bits */
    ASSERT(1, (m1, s.c * 1) + 2);                 /* a comma keeps it */
    ASSERT(0x200000001ll, (unsigned long long)(s.c * 1) + 2);  /* a cast removes it */
    ASSERT(0, (s.b & s.b) < s.a);                 /* signed 36 vs unsigned 40: unsigned */
    ASSERT(0, (s.b | 0) < s.a);
    ASSERT(0, -s.b - 2 < s.a);                    /* -1 as 40 bits is 2^40 - 1 */
    ASSERT(sizeof(long) == 8 ? 0x200000000ll : 0, s.c + 0 + 1L);  /* i686: 33 beat 32 */
    ASSERT(8, sizeof(s.c * 1));
    /* A signed wide common type is signed even when C's rule on the declared types
       (long long, unsigned long long) would make it unsigned. */
    ASSERT(1, s.b < s.c);                         /* signed 36 bits beat unsigned 33 */
    ASSERT(0, s.b / s.c);                         /* -1 / (2^33 - 1) */
    ASSERT(-1, s.b % s.c);
    ASSERT(1, (s.b * 1) < s.c);
    ASSERT(1, (m1 ? s.b : s.c) < 0);              /* ?: in signed 36 bits */
    ASSERT(-1, (s.b + s.c * 0) >> 1);             /* gcc shifts signed values arithmetically */
    ASSERT(0, (s.b | 0) > s.a);                   /* unsigned 40 bits beat signed 36 */
    ASSERT(1, s.a / (s.b * 1));                   /* (2^40 - 1) / (2^40 - 1) */
    ASSERT(0, s.a % (-s.b - 2));
    s.b = -6;
    s.b /= s.c;                                   /* -6 / (2^33 - 1) in signed 36 bits */
    ASSERT(0, s.b);
    /* A compound assignment computed in an unsigned wide type converts its left operand
       modulo 2^N too. */
    int i = -1;
    i /= s.c;                                     /* (2^33 - 1) / (2^33 - 1) */
    ASSERT(1, i);
    i = -1;
    i %= s.c * 1;
    ASSERT(0, i);
    s.b = -1;
    s.b /= s.a;                                   /* (2^40 - 1) / (2^40 - 1) */
    ASSERT(1, s.b);
    printf("OK\n");
    return 0;
}
