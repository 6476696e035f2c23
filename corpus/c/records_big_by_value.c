/* Records far larger than any register classification passed and returned by value
 * (lowering/float_abi.rs never walks a record above 64 bytes: no psABI gives one
 * registers). c-torture's pr20621-1.c passes a 64 KiB struct; phicc refused it because
 * the member walk expanded its 16,384 ints one by one and gave up. Expected values by
 * hand; gcc -O0 confirms on each target. */
#include "test.h"

struct big { int i[0x4000]; };
struct big_floats { double d[4096]; float tail; };
struct just_above { double d[8]; char c; }; /* 72 bytes: memory on every target */

static struct big gb;

static int pick(struct big b, int x) {
    int v = b.i[x];
    b.i[x] = -1; /* the callee's copy: the caller's object keeps its value */
    return v + b.i[x];
}

static double sum_floats(struct big_floats f, int n) {
    double s = f.tail;
    for (int i = 0; i < n; i++)
        s += f.d[i];
    return s;
}

static struct big make(int seed) {
    struct big b;
    for (int i = 0; i < 0x4000; i++)
        b.i[i] = seed + i;
    return b;
}

static long above(struct just_above a, int k, struct just_above b) {
    return (long)(a.d[k] * 10) + a.c + (long)b.d[7] + b.c;
}

int main(void) {
    for (int i = 0; i < 0x4000; i++)
        gb.i[i] = i * 3;
    ASSERT(2, pick(gb, 1));
    ASSERT(3, gb.i[1]);
    ASSERT(49148, pick(gb, 0x3fff));
    ASSERT(49149, gb.i[0x3fff]);
    static struct big_floats f;
    for (int i = 0; i < 4096; i++)
        f.d[i] = 0.5;
    f.tail = 2.0f;
    ASSERT(2050, (long)sum_floats(f, 4096));
    struct big m = make(7);
    ASSERT(7, m.i[0]);
    ASSERT(7 + 0x3fff, m.i[0x3fff]);
    struct just_above a = {{1, 2, 3, 4, 5, 6, 7, 8}, 9};
    struct just_above b = {{0, 0, 0, 0, 0, 0, 0, 100}, 20};
    ASSERT(30 + 9 + 100 + 20, above(a, 2, b));
    return 0;
}
