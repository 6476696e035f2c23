#include "test.h"

/* GNU non-local goto: a nested function, called directly, jumps to a local label of
   the function around it, out of any depth of nested calls; the frames in between are
   abandoned (their code after the call never runs). Label addresses of the parent
   taken in a nested function. Expected values are computed by hand; gcc -O0 confirms. */

static int trail;

/* Out of a recursion of the nested function: the levels above the jump do not resume. */
static int out_of_recursion(int n) {
    __label__ done;
    int steps = 0;
    void down(int k) {
        steps++;
        if (k == 0)
            goto done;
        down(k - 1);
        trail += 1000; /* never runs */
    }
    down(n);
    return -1;
done:
    return steps;
}

/* A middle nested function passes the jump through; the label is chosen at run time. */
static int choose(int which) {
    __label__ first, second;
    int r = 0;
    void jump(void) {
        if (which)
            goto second;
        goto first;
    }
    int middle(void) {
        jump();
        trail += 1000; /* never runs */
        return 5;
    }
    r = middle() + 100;
    return r;
first:
    return 1;
second:
    return 2;
}

/* The nested function returns the parent's label address; the parent jumps to it. */
static int label_from_nested(int i) {
    __label__ a, b;
    void *pick(void) {
        return i ? &&b : &&a;
    }
    goto *pick();
a:
    return 10;
b:
    return 20;
}

int main(void) {
    ASSERT(4, out_of_recursion(3));
    ASSERT(1, out_of_recursion(0));
    ASSERT(1, choose(0));
    ASSERT(2, choose(1));
    ASSERT(10, label_from_nested(0));
    ASSERT(20, label_from_nested(1));
    ASSERT(0, trail);
    return 0;
}
