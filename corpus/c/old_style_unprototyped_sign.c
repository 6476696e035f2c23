/* Calls through a declaration without a prototype (here implicit ones) to functions
 * defined later with a prototype whose integer parameter has the other signedness of
 * the promoted argument: C99 6.5.2.2p6 defines it when the value fits both types, and
 * gcc passes the bits (c-torture 20031211-2.c). And implicit `int` after attributes at
 * file scope (c-torture pr54937.c). Expected values from gcc 12 -O0 (x86_64). */
#include "test.h"

struct bits { unsigned int three : 3; };

int call_with_bitfield(void) {
    struct bits b;
    b.three = 131;
    /* b.three promotes to int; the definition below takes unsigned int. */
    return takes_unsigned(b.three);
}

int call_with_unsigned(unsigned u) { return takes_int(u); }

takes_unsigned(unsigned int z) { return z == 3 ? 30 : -1; }

int takes_int(int i) { return i + 1; }

__attribute__((noinline)) twice(int x) { return 2 * x; }

__attribute__((noinline)) static thrice(int x) { return 3 * x; }

int main(void) {
    ASSERT(30, call_with_bitfield());
    ASSERT(8, call_with_unsigned(7u));
    ASSERT(42, twice(21));
    ASSERT(4, sizeof(twice(1)));
    ASSERT(9, thrice(3));
    return 0;
}
