/* GNU statement expressions `({ ... })`: the value and type of the last expression
 * statement (void otherwise), the block's own scope, records by value, jumps out of one
 * (break, continue, goto, return), nesting, and `a ?: b` evaluating `a` once.
 * Expected values by hand; every line is also compared with gcc -O0's output. */
#include "test.h"

struct pair { int a, b; };

static int calls;
static int next(void) { return ++calls; }
static struct pair make(int x) { struct pair p = {x, x * 2}; return p; }

#define MAX(x, y) ({ __typeof__(x) _x = (x); __typeof__(y) _y = (y); _x > _y ? _x : _y; })

static int early(int x) {
    int r = ({ if (x < 0) return -1; x * 3; });
    return r + 1;
}

int main(void) {
    int x = ({ int y = 3; y * 2; });
    ASSERT(6, x);
    ASSERT(10, ({ int q = 0; for (int i = 0; i < 5; i++) q += i; q; }));
    /* The value is the last statement's, converted like an rvalue: a char stays char. */
    ASSERT(1, (int)sizeof(({ char c = 'a'; c; })));
    ASSERT(8, (int)sizeof(({ long long w = 1; w; })));
    /* An array decays. */
    static const char text[] = "hey";
    ASSERT('e', ({ text; })[1]);
    /* Records by value. */
    struct pair p = ({ struct pair t = make(4); t.a += 1; t; });
    ASSERT(5, p.a);
    ASSERT(8, p.b);
    ASSERT(14, ({ make(7); }).b);
    /* A macro evaluating its arguments once. */
    calls = 0;
    ASSERT(2, MAX(next(), 1));
    ASSERT(1, calls);
    /* Void statement expressions. */
    ({ calls = 40; });
    ({ ; });
    ASSERT(40, calls);
    /* break and continue leave the statement expression for the enclosing loop. */
    int sum = 0;
    for (int i = 0; i < 10; i++)
        sum += ({ if (i == 7) break; if (i & 1) continue; i; });
    ASSERT(12, sum);
    /* goto out of one, and a loop made of a label inside one. */
    int g = ({ int k = 0; again: k++; if (k < 4) goto again; k; });
    ASSERT(4, g);
    int h = 5;
    h = ({ if (h > 3) goto done; 100; });
done:
    ASSERT(5, h);
    /* return out of one. */
    ASSERT(10, early(3));
    ASSERT(-1, early(-2));
    /* Nested, and inner names shadowing outer ones. */
    int n = ({ int v = 2; ({ int v = 10; v; }) + v; });
    ASSERT(12, n);
    /* `a ?: b`: a once, the usual type of a ? a : b. */
    calls = 0;
    ASSERT(1, next() ?: 42);
    ASSERT(1, calls);
    ASSERT(5, 0 ?: 5);
    ASSERT(9, (calls - 1) ?: 9);
    char *none = 0;
    ASSERT('d', *(none ?: "dflt"));
    unsigned char small = 200;
    ASSERT(200, small ?: -1);
    ASSERT(-1, (small - 200) ?: -1);
    ASSERT(8, (int)sizeof(small ?: 1LL));
    static int folded = 3 ?: 4;
    ASSERT(3, folded);
    return 0;
}
