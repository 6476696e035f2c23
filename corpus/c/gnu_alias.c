/* GNU `alias("target")` (c-torture alias-3.c): the alias is another name for the
 * target's definition — an object alias reads and writes the target's storage, a
 * function alias calls the target, and the two names give equal addresses. Expected
 * values by hand (ASSERT); each target's gcc -O0 agrees. */
#include "test.h"

static int a = 0;
extern int b __attribute__((alias("a")));
int table[3] = {1, 2, 3};
extern int table_alias[3] __attribute__((alias("table")));

static int twice(int x) { return 2 * x; }
int doubled(int x) __attribute__((alias("twice")));
int doubled(int x);

__attribute__((noinline)) static void inc(void) { b++; }

int main(void) {
    a = 0;
    inc();
    ASSERT(1, a);
    ASSERT(1, b);
    b = 41;
    ASSERT(41, a);
    ASSERT(1, &a == &b);
    table_alias[1] = 20;
    ASSERT(20, table[1]);
    ASSERT(1, table_alias == table);
    ASSERT(14, doubled(7));
    ASSERT(1, doubled == twice);
    int (*fp)(int) = doubled;
    ASSERT(10, fp(5));
    return 0;
}
