/* Old-style C as gcc accepts it (c-torture is full of it): implicit int at file scope,
 * old-style (K&R) definitions whose narrow parameters arrive promoted and are converted
 * on entry, array parameters of an identifier list, calls before any declaration. */
#include "test.h"

static counter;
total = 5, table[3];

sum4(a, c, p, s)
    char c;
    char *p;
    short s;
{
    return a + c + *p + s;
}

twice(n) { return n * 2; }

unsigned char next_byte(u) unsigned char u; { return u + 1; }

long long first(v, n) long long v[]; { return v[0] + n; }

signed char narrow(x) signed char x; { return x; }

int main(void) {
    char letter = 'A';
    long long longs[2] = {40000000000LL, 1};
    counter++;
    table[1] = 9;
    ASSERT(4574, sum4(1, 300, &letter, 70000));
    ASSERT(8, twice(4));
    ASSERT(0, next_byte(255));
    ASSERT(40000000003LL, first(longs, 3));
    ASSERT(-128, narrow(128));
    ASSERT(1, counter);
    ASSERT(5, total);
    ASSERT(9, table[1]);
    ASSERT(21, later(20)); /* implicitly declared: int later() */
    return 0;
}

later(n) { return n + 1; }
