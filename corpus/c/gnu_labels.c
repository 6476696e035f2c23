#include "test.h"
#include <stdint.h>

/* GNU labels: local labels (`__label__`) and labels as values (`&&l`, `goto *p`).
   Expected values are computed by hand from gcc's documented semantics (a local label
   is visible in its block and hides an outer label of its name; a label address is a
   `void *` that compares, subtracts and converts like an address); gcc -O0 confirms. */

/* A macro with a loop label, used twice in one function: each expansion's label is
   its own (without `__label__` the second expansion would redefine it). */
#define COUNT_TO(n, acc)                  \
    ({                                    \
        __label__ again;                  \
        int i_ = 0;                       \
    again:                                \
        acc += i_;                        \
        if (++i_ < (n))                   \
            goto again;                   \
        i_;                               \
    })

static int macro_twice(void) {
    int acc = 0;
    int a = COUNT_TO(4, acc);
    int b = COUNT_TO(3, acc);
    return a * 100 + b * 10 + acc;
}

/* An inner local label hides the function's label of the same name. */
static int shadowing(int n) {
    int r = 0;
    {
        __label__ out;
        if (n > 0)
            goto out;
        r += 1;
    out:
        r += 10;
    }
    if (n > 1)
        goto out;
    r += 100;
out:
    return r;
}

/* A dispatch table of label addresses in static data. */
static int dispatch(int i) {
    static const void *table[] = {&&zero, &&one, &&two};
    goto *table[i];
zero:
    return 7;
one:
    return 11;
two:
    return 13;
}

/* Differences of label addresses as integer constants of a static initializer, added
   back to a base label (comp-goto-1.c's and pr70460.c's idiom). */
static int by_offset(int x) {
    static const int offsets[] = {&&l1 - &&l0, &&l2 - &&l0};
    int c = 0;
    goto *(&&l0 + offsets[x]);
l1:
    c += 2;
l2:
    c += 1;
l0:
    return c;
}

/* A threaded interpreter: the program is a list of label addresses kept in a local
   array; each step jumps to the next one. */
static int interpret(const int *ops, int n) {
    void *code[8];
    void *handlers[] = {&&add, &&twice, &&done};
    int acc = 1, pc = 0;
    for (int i = 0; i < n; i++)
        code[i] = handlers[ops[i]];
    goto *code[pc++];
add:
    acc += 3;
    goto *code[pc++];
twice:
    acc *= 2;
    goto *code[pc++];
done:
    return acc;
}

/* Label addresses are distinct, non-null, equal to themselves, and convert to integers
   whose differences are those of the pointers. */
static int properties(void) {
    void *a = &&first, *b = &&second;
    int r = 0;
    r += a != 0;
    r += (a != b) * 10;
    r += (a == &&first) * 100;
    r += ((intptr_t)b - (intptr_t)a == (char *)b - (char *)a) * 1000;
    if (r == 0)
        goto first;
    return r;
first:
    r = -1;
second:
    return r;
}

/* The address survives a round trip through an integer and a call. */
static void *pass_through(void *p) {
    return (void *)(uintptr_t)p;
}

static int through_call(int which) {
    void *p = pass_through(which ? &&yes : &&no);
    goto *p;
yes:
    return 1;
no:
    return 2;
}

/* A local label in a loop body: a fresh one per iteration's block, and a jump out of
   a statement expression to it. */
static int loop_labels(int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        __label__ next;
        sum += ({
            if (i % 2)
                goto next;
            i;
        });
        sum += 100;
    next:;
    }
    return sum;
}

int main(void) {
    ASSERT(439, macro_twice());
    ASSERT(111, shadowing(0));
    ASSERT(110, shadowing(1));
    ASSERT(10, shadowing(2));
    ASSERT(7, dispatch(0));
    ASSERT(11, dispatch(1));
    ASSERT(13, dispatch(2));
    ASSERT(3, by_offset(0));
    ASSERT(1, by_offset(1));
    int prog1[] = {0, 1, 0, 2};
    ASSERT(11, interpret(prog1, 4));
    int prog2[] = {1, 1, 1, 2};
    ASSERT(8, interpret(prog2, 4));
    ASSERT(1111, properties());
    ASSERT(1, through_call(1));
    ASSERT(2, through_call(0));
    ASSERT(306, loop_labels(5));
    return 0;
}
