/* Compound literals (C99 6.5.2.5) in functions: scalars, arrays completed by their
 * initializer, structs, with postfix operators, as lvalues, through pointers, and
 * in a loop where each evaluation makes the object afresh. */
#include "test.h"

struct point { int x, y; };

static int sum(const int *v, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

static struct point mirror(struct point p) { return (struct point){p.y, p.x}; }

int main(void) {
    int *p = (int[]){3, 4, 5};
    struct point *q = &(struct point){.y = 9};
    ASSERT(12, sum(p, 3));
    ASSERT(12, sum(((int[]){3, 4, 5}), 3));
    ASSERT(0, q->x);
    ASSERT(9, q->y);
    ASSERT(7, ((struct point){7, 8}).x);
    ASSERT(5, ((int[]){1, 5, 9})[1]);
    ASSERT(16, sizeof(((struct point){1, 2})) * 2);
    ASSERT(3, (int){3});
    ASSERT(20, mirror(((struct point){10, 20})).x);
    (int[2]){0, 0}[0] = 6;
    p[1] = 40;
    ASSERT(48, sum(p, 3));
    {
        int total = 0;
        for (int i = 0; i < 4; i++) {
            int *fresh = (int[2]){i};
            total += fresh[0] * 10 + fresh[1];
            fresh[1] = 100; /* the next iteration's literal is zero here again */
        }
        ASSERT(60, total);
    }
    ASSERT(2, ((const char *[]){"a", "bc"})[1][1] - 'a');
    return 0;
}
