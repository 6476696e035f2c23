/* asm statements with an empty template, the optimisation barriers of c-torture: the
 * inputs are evaluated, '+' and memory outputs keep their values, an output tied to an
 * input ("=r" (r) : "0" (p)) receives the input's value. Any other asm is refused. */
#include "test.h"

static int calls;
static int count(int v) { calls++; return v; }
static int target;
static int *where(void) { calls++; return &target; }

int main(void) {
    int x = 5, y = 7, r = 0, f = 3;
    long p = 40;
    int arr[2] = {1, 2};
    asm volatile ("" : : : "memory");
    asm ("");
    __asm__ __volatile__ ("" : "+r" (x));
    ASSERT(5, x);
    asm volatile ("" : "+m" (x), "+m" (y));
    ASSERT(12, x + y);
    asm volatile ("" : "=r" (r) : "0" (p + 2) : "memory");
    ASSERT(42, r);
    asm volatile ("" : [out] "=r" (f) : "[out]" (0));
    ASSERT(0, f);
    asm volatile ("" : "=m" (arr[1]));
    ASSERT(2, arr[1]);
    asm volatile ("" : : "g" (&arr[0]), "r" (count(9)) : "memory");
    ASSERT(1, calls);
    asm volatile ("" : "+r" (*where())); /* the output's address is still computed */
    ASSERT(2, calls);
    asm volatile ("" : "=m" (*where()));
    ASSERT(3, calls);
    asm volatile ("" : "+g" (y));
    ASSERT(7, y);
    return 0;
}
