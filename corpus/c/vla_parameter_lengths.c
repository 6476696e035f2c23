/* Array parameters' run-time lengths are evaluated on entry to the function, in order,
 * at every call (C11 6.9.1p10, 6.7.6.2p5; parse/param_lengths.rs), although each such
 * parameter is a pointer: `int a[i++]` increments the parameter `i` before the body runs.
 * gcc's c-torture 970217-1.c and pr77767.c depend on it. Expected values by hand from
 * the standard's rule; gcc -O0 confirms. */
#include "test.h"

static int trace[8];
static int traced;

static int note(int v) {
    trace[traced++] = v;
    return v;
}

/* The length names an earlier parameter and changes it. */
static int increments(int i, int a[i++]) {
    return i + a[0];
}

/* Two lengths, each after the parameter it names (pr77767.c's shape). */
static int both(int a, int b[a++], int c, int d[c++]) {
    return a * 100 + c + b[0] + d[0];
}

/* Lengths run left to right, before the body, once per call. */
static int ordered(int n, int x[note(n)], int y[note(n + 1)]) {
    note(-1);
    return x[0] + y[0];
}

/* A length that assigns a file-scope object, then one that calls a function changing it:
 * in that order, once per call. */
static int counter;
static int bump(void) {
    return ++counter;
}
static int assigns(int k, int a[counter = k], int b[bump()]) {
    return counter * 10 + a[0] + b[0];
}

/* A prototype's lengths are never evaluated; the definition's are. */
static int declared(int n, int a[n++]);
static int declared(int n, int a[n++]) {
    return n;
}

/* A constant length and a pure run-time one: nothing observable, the values stay. */
static int pure(int n, int a[n], int b[4]) {
    return n + a[0] + b[0];
}

int main(void) {
    int e[10] = {0};
    ASSERT(11, increments(10, e));
    ASSERT(11, increments(10, e));
    ASSERT(202, both(1, e, 1, e));
    e[0] = 5;
    ASSERT(10, ordered(3, e, e));
    ASSERT(3, traced);
    ASSERT(3, trace[0]);
    ASSERT(4, trace[1]);
    ASSERT(-1, trace[2]);
    ASSERT(10, ordered(7, e, e));
    ASSERT(7, trace[3]);
    ASSERT(8, trace[4]);
    ASSERT(-1, trace[5]);
    e[0] = 0;
    ASSERT(80, assigns(7, e, e));
    ASSERT(8, counter);
    ASSERT(80, assigns(7, e, e));
    ASSERT(8, counter);
    ASSERT(3, declared(2, e));
    ASSERT(9, pure(9, e, e));
    return 0;
}
