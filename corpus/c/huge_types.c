/* Types as large as the target's PTRDIFF_MAX (2^63 - 1 bytes, 2^31 - 1 on i686) exist as
 * long as no object of them does (parse/layout.rs `largest_type_size`, gcc's limit):
 * sizeof, member offsets and pointer arithmetic on them are ordinary constants
 * (c-torture's 991014-1.c). Layout runs in 128-bit bit positions, so a struct of 2^63
 * bytes (2^66 bits) is laid out exactly. Expected values by hand; gcc -O0 confirms. */
#include "test.h"

typedef __SIZE_TYPE__ size_t;
#define WIDE (sizeof(size_t) == 8)
/* 2^62 - 256 elements on 64-bit targets, 2^30 - 256 on i686. */
#define N (((size_t)1 << (8 * sizeof(size_t) - 2)) - 256)

struct huge { short buf[N]; int a; int b; };
union huge_union { int a; char buf[N]; };
typedef long long huge_array[((size_t)1 << (8 * sizeof(size_t) - 4)) - 1];
/* Bit-fields after 2^59 bytes (their bit positions still fit 64 bits). */
struct bits { char buf[N / 8]; unsigned x : 3; unsigned y : 7; };

static size_t offset_of_b(void) {
    return (size_t) & ((struct huge *)0)->b;
}

int main(void) {
    ASSERT(WIDE ? 0x7ffffffffffffe08ull : 0x7ffffe08ull, sizeof(struct huge));
    ASSERT(WIDE ? 0x7ffffffffffffe04ull : 0x7ffffe04ull, offset_of_b());
    ASSERT(WIDE ? 0x3fffffffffffff00ull : 0x3fffff00ull, sizeof(union huge_union));
    ASSERT(WIDE ? 0x7ffffffffffffff8ull : 0x7ffffff8ull, sizeof(huge_array));
    ASSERT(WIDE ? 0x07ffffffffffffe4ull : 0x07ffffe4ull, sizeof(struct bits));
    struct huge *p = 0;
    ASSERT(WIDE ? 0x7ffffffffffffe00ull : 0x7ffffe00ull, (size_t)&p->a);
    return 0;
}
