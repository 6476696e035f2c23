#include "test.h"

/* Initializing a flexible array member (gcc's extension; c-torture's 20010924-1.c,
   20030109-1.c, pr28865.c, pr33382.c): the static object grows past sizeof its type
   by the initializer, sizeof stays the type's. From a brace list, from a string, with
   a designator, left empty, inside a union large enough to hold it, in a static local,
   and through a pointer that reads past the declared size. Expected values follow
   from the initializers by hand; gcc -O0 confirms them. */

struct ints { int n; int a[]; };
struct chars { char c; char s[]; };
struct longs { short tag; long long v[]; };
struct ints three = { 3, { 10, 20, 30 } };
struct chars word = { 'w', "xyz" };
struct chars braced = { 'b', { 'e', 'f' } };
struct ints designated = { .a = { 7, 8 }, .n = 2 };
struct ints empty = { .n = 5, .a = {} };
struct longs wide = { 1, { -1, 1LL << 40 } };
union holder { struct chars c; char room[16]; };
union holder inside = { { 'u', "0123456789" } };

static int sum(const struct ints *p) {
    int s = 0;
    for (int i = 0; i < p->n; i++)
        s += p->a[i];
    return s;
}

static int local_static(void) {
    static struct ints counts = { 4, { 1, 2, 3, 4 } };
    counts.a[3]++;
    return sum(&counts);
}

int main(void) {
    ASSERT(4, sizeof(struct ints));
    ASSERT(4, sizeof three);
    ASSERT(60, sum(&three));
    ASSERT(30, three.a[2]);
    ASSERT('w', word.c);
    ASSERT(0, strcmp(word.s, "xyz"));
    ASSERT('f', braced.s[1]);
    ASSERT(15, sum(&designated));
    ASSERT(5, empty.n);
    ASSERT(1, sizeof wide == sizeof(struct longs));
    ASSERT(-1, wide.v[0]);
    ASSERT(1LL << 40, wide.v[1]);
    ASSERT(16, sizeof inside);
    ASSERT(0, strcmp(inside.c.s, "0123456789"));
    ASSERT('u', inside.room[0]);
    three.a[1] = 200;
    ASSERT(240, sum(&three));
    ASSERT(11, local_static());
    ASSERT(12, local_static());
    return 0;
}
