/* An initializer item of size 0 (a member of an empty struct type, a GNU extension)
 * stores nothing but is still evaluated (c-torture zero-struct-2.c): each call below
 * must happen once, in order. Expected values by hand; gcc -O0 agrees. */
#include "test.h"

typedef struct {} empty;
typedef struct { empty e; int x; } holder;
typedef struct { int a; empty e; int b; } middle;

static int calls;
static int order;

static empty make(int tag) {
    empty e;
    calls++;
    order = order * 10 + tag;
    return e;
}

static int value(int tag) {
    order = order * 10 + tag;
    return tag * 11;
}

int main(void) {
    holder h = (holder){ .e = make(1) };
    ASSERT(1, calls);
    ASSERT(0, h.x);
    holder k = { make(2), value(3) };
    ASSERT(2, calls);
    ASSERT(33, k.x);
    middle m = { value(4), make(5), value(6) };
    ASSERT(3, calls);
    ASSERT(44, m.a);
    ASSERT(66, m.b);
    ASSERT(123456, order);
    ASSERT(0, (int)sizeof(empty));
    return 0;
}
