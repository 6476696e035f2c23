/* Compound literals at file scope are unnamed objects with static storage (C11
 * 6.5.2.5p5; parse/compound_literal.rs): their initializers are constant expressions,
 * their addresses are address constants for static initializers of pointers, and they
 * keep what is stored in them (c-torture's 20050929-1.c). Expected values by hand;
 * gcc -O0 confirms. */
#include "test.h"

struct A { int i; int j; };
struct B { struct A *a; struct A *b; };
struct C { struct B *c; struct A *d; };

/* Nested: literals whose initializers hold other literals' addresses. */
struct C e = {&(struct B){&(struct A){1, 2}, &(struct A){3, 4}}, &(struct A){5, 6}};

/* An array literal decays to its first element; its size comes from its initializer. */
int *numbers = (int[]){10, 20, 30, 40};
static const char *words[] = {(const char[]){"ab"}, (char[4]){'x', 'y', 'z', 0}};
/* A pointer into the middle of a literal, and a scalar literal. */
int *third = &(int[]){7, 8, 9}[2];
long *one = &(long){-5};
/* Designators inside a literal; the omitted members are zero. */
struct A *designated = &(struct A){.j = 12};

static int sum_numbers(void) {
    int s = 0;
    for (int k = 0; k < 4; k++)
        s += numbers[k];
    return s;
}

int main(void) {
    ASSERT(1, e.c->a->i);
    ASSERT(2, e.c->a->j);
    ASSERT(3, e.c->b->i);
    ASSERT(4, e.c->b->j);
    ASSERT(5, e.d->i);
    ASSERT(6, e.d->j);
    ASSERT(100, sum_numbers());
    numbers[1] = 25; /* static storage: the change stays */
    ASSERT(105, sum_numbers());
    ASSERT('b', words[0][1]);
    ASSERT(3, (int)strlen(words[1]));
    ASSERT(9, *third);
    ASSERT(8, third[-1]);
    ASSERT(-5, *one);
    ASSERT(0, designated->i);
    ASSERT(12, designated->j);
    return 0;
}
