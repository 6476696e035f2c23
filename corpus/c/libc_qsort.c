/* qsort and bsearch calling back into the program (oracle/src/interp/libc_sort.rs).
 * Expected values by hand: the sorted arrays from C11 7.22.5.2; the comparison sequence
 * and the order of equal elements are glibc 2.36's merge sort (msort.c: halves n/2 and
 * n - n/2, left first, the left element taken on <= 0), which the oracle replays; the
 * natives link glibc 2.36 on every target. gcc 12 -O0 (x86_64) agrees. */
#include "test.h"

static int calls;
static char trace[64];

static int by_value(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    if (calls < 30) {
        trace[2 * calls] = (char)('0' + x);
        trace[2 * calls + 1] = (char)('0' + y);
    }
    calls++;
    return (x > y) - (x < y);
}

/* Larger than 32 bytes: glibc sorts pointers to the elements, then moves them once. */
struct big {
    int key;
    int tag;
    char pad[40];
};

static int by_key(const void *a, const void *b) {
    const struct big *x = a, *y = b;
    calls++;
    return x->key - y->key;
}

static int by_low_digit(const void *a, const void *b) {
    return *(const int *)a % 10 - *(const int *)b % 10;
}

int main(void) {
    int a[3] = {3, 1, 2};
    qsort(a, 3, sizeof a[0], by_value);
    ASSERT(1, a[0]);
    ASSERT(2, a[1]);
    ASSERT(3, a[2]);
    /* sort {3} and {1,2} (1 vs 2), then merge: 3 vs 1, 3 vs 2. */
    ASSERT(3, calls);
    ASSERT(0, strcmp(trace, "123132"));

    int e[7] = {5, 4, 6, 0, 2, 1, 3};
    calls = 0;
    memset(trace, 0, sizeof trace);
    qsort(e, 7, sizeof e[0], by_value);
    for (int i = 0; i < 7; i++)
        ASSERT(i, e[i]);
    /* {5,4,6}: {5} and {4,6} (4-6), merge 5-4 5-6; {0,2,1,3}: 0-2, 1-3, merge 0-1 2-1
     * 2-3; last merge 4-0 4-1 4-2 4-3. */
    ASSERT(0, strcmp(trace, "465456021301212340414243"));
    ASSERT(12, calls);

    /* Stable: equal low digits keep their order. */
    int s[6] = {21, 10, 11, 30, 1, 20};
    qsort(s, 6, sizeof s[0], by_low_digit);
    ASSERT(10, s[0]);
    ASSERT(30, s[1]);
    ASSERT(20, s[2]);
    ASSERT(21, s[3]);
    ASSERT(11, s[4]);
    ASSERT(1, s[5]);

    struct big b[4] = {{4, 0, ""}, {2, 1, ""}, {4, 2, ""}, {1, 3, ""}};
    calls = 0;
    qsort(b, 4, sizeof b[0], by_key);
    ASSERT(1, b[0].key);
    ASSERT(3, b[0].tag);
    ASSERT(1, b[1].tag);
    ASSERT(0, b[2].tag);
    ASSERT(2, b[3].tag);
    ASSERT(5, calls);

    /* n = 0 and 1 call nothing. */
    calls = 0;
    qsort(a, 1, sizeof a[0], by_value);
    qsort(0, 0, sizeof a[0], by_value);
    ASSERT(0, calls);

    int sorted[5] = {1, 3, 5, 7, 9};
    int key = 7;
    calls = 0;
    memset(trace, 0, sizeof trace);
    int *found = bsearch(&key, sorted, 5, sizeof sorted[0], by_value);
    ASSERT(3, found - sorted);
    /* Probes index 2 (5), 4 (9), 3 (7). */
    ASSERT(0, strcmp(trace, "757977"));
    key = 4;
    ASSERT(1, bsearch(&key, sorted, 5, sizeof sorted[0], by_value) == 0);
    ASSERT(1, bsearch(&key, sorted, 0, sizeof sorted[0], by_value) == 0);
    return 0;
}
