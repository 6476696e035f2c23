/* `aligned(N)` on typedefs (gcc gives the typedef name that alignment): an untagged
 * record defined in the typedef takes it as its own alignment (c-torture 20050215-1.c),
 * the type's own alignment changes nothing, and a typedef phicc cannot align is fine
 * while unused (c-torture align-1.c). Expected values from gcc 12 -O0 (x86_64; the same
 * on the other three targets). */
#include "test.h"

typedef struct { char c[8]; } V __attribute__((aligned(8)));
typedef struct { short s[4]; } W __attribute__((aligned(4)));
typedef int plain_int __attribute__((aligned(4)));
typedef int never_used __attribute__((aligned(16)));

V v;
struct holder { char c; V v; };
struct holder2 { char c; W w; };

int main(void) {
    plain_int i = 5;
    ASSERT(8, sizeof(V));
    ASSERT(8, __alignof__(V));
    ASSERT(16, sizeof(struct holder));
    ASSERT(8, __builtin_offsetof(struct holder, v));
    ASSERT(0, (long)&v % 8);
    ASSERT(8, sizeof(W));
    ASSERT(4, __alignof__(W));
    ASSERT(12, sizeof(struct holder2));
    ASSERT(4, sizeof(plain_int));
    ASSERT(4, __alignof__(plain_int));
    ASSERT(5, i);
    return 0;
}
