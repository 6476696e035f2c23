#include "test.h"

/* Records by value, sizes 1 to 40 bytes, as arguments (among scalar arguments, past
   the register count too) and as results. The callee changes its copy: the caller's
   record must not change. Expected values are computed by hand. */

struct s1 { signed char a; };
struct s2 { short a; };
struct s3 { signed char a, b, c; };
struct s4 { int a; };
struct s5 { signed char a[5]; };
struct s6 { short a, b, c; };
struct s7 { signed char a[7]; };
struct s8 { long long a; };
struct s9 { signed char a[9]; };
struct s12 { int a, b, c; };
struct s16 { long long a, b; };
struct s17 { long long a, b; signed char c; };
struct s24 { long long a, b, c; };
struct s32 { int a[8]; };
struct s40 { long long a[5]; };
struct mixed { signed char c; long long l; short s; };

static int take1(struct s1 x) { int r = x.a; x.a = 0; return r; }
static int take3(struct s3 x) { return x.a + x.b * 10 + x.c * 100; }
static int take5(struct s5 x) { int r = 0; for (int i = 0; i < 5; i++) r = r * 10 + x.a[i]; return r; }
static int take6(struct s6 x) { return x.a - x.b + x.c; }
static int take7(struct s7 x) { int r = 0; for (int i = 0; i < 7; i++) r += x.a[i]; return r; }
static long long take9(int pad, struct s9 x, int after) {
    long long r = 0;
    for (int i = 0; i < 9; i++) r = r * 3 + x.a[i];
    return r * 100 + pad + after;
}
static long long take12(struct s12 x) { return x.a * 100LL + x.b * 10 + x.c; }
static long long take16(int a, int b, int c, int d, int e, struct s16 x) { return x.a - x.b + a + b + c + d + e; }
static long long take17(struct s17 x) { x.a = 0; return x.a + x.b + x.c; }
static long long take24(struct s24 x, struct s24 y) { return x.a + x.b + x.c - y.a - y.b - y.c; }
static int take32(struct s32 x) { int r = 0; for (int i = 0; i < 8; i++) r += x.a[i] * (i + 1); return r; }
static long long take40(int a, int b, int c, int d, int e, int f, int g, int h, struct s40 x, int last) {
    long long r = last;
    for (int i = 0; i < 5; i++) r += x.a[i];
    return r + a + b + c + d + e + f + g + h;
}
static long long takemixed(struct mixed m) { return m.c + m.l + m.s; }

static struct s1 make1(int v) { struct s1 r = {v}; return r; }
static struct s2 make2(int v) { struct s2 r = {v}; return r; }
static struct s3 make3(int v) { struct s3 r = {v, v + 1, v + 2}; return r; }
static struct s4 make4(int v) { struct s4 r = {v}; return r; }
static struct s6 make6(int v) { struct s6 r = {v, v * 2, v * 3}; return r; }
static struct s8 make8(long long v) { struct s8 r = {v}; return r; }
static struct s12 make12(int v) { struct s12 r = {v, -v, v * v}; return r; }
static struct s16 make16(long long v) { struct s16 r = {v, v << 20}; return r; }
static struct s17 make17(long long v) { struct s17 r = {v, v + 1, 9}; return r; }
static struct s24 make24(long long v) { struct s24 r = {v, v * 2, v * 3}; return r; }
static struct s40 make40(long long v) { struct s40 r = {{v, v, v, v, v + 1}}; return r; }
static struct mixed makemixed(int c) { struct mixed m = {c, 1LL << 40, -2}; return m; }

int main(void) {
    struct s1 a1 = {-7};
    ASSERT(-7, take1(a1));
    ASSERT(-7, a1.a);
    struct s3 a3 = {1, 2, 3};
    ASSERT(321, take3(a3));
    struct s5 a5 = {{1, 2, 3, 4, 5}};
    ASSERT(12345, take5(a5));
    struct s6 a6 = {100, 20, 3};
    ASSERT(83, take6(a6));
    struct s7 a7 = {{1, 2, 3, 4, 5, 6, 7}};
    ASSERT(28, take7(a7));
    struct s9 a9 = {{1, 0, 0, 0, 0, 0, 0, 0, 2}};
    ASSERT(656300 + 7 + 8, take9(7, a9, 8));
    struct s12 a12 = {1, 2, 3};
    ASSERT(123, take12(a12));
    struct s16 a16 = {1LL << 40, 5};
    ASSERT((1LL << 40) - 5 + 15, take16(1, 2, 3, 4, 5, a16));
    struct s17 a17 = {100, 200, 3};
    ASSERT(203, take17(a17));
    ASSERT(100, a17.a);
    struct s24 x24 = {10, 20, 30}, y24 = {1, 2, 3};
    ASSERT(54, take24(x24, y24));
    struct s32 a32 = {{1, 1, 1, 1, 1, 1, 1, 2}};
    ASSERT(36 + 8, take32(a32));
    struct s40 a40 = {{1, 2, 3, 4, 5}};
    ASSERT(15 + 36 + 100, take40(1, 2, 3, 4, 5, 6, 7, 8, a40, 100));
    struct mixed m = {-1, 1000, -1000};
    ASSERT(-1, takemixed(m));

    ASSERT(-3, make1(-3).a);
    ASSERT(-30000, make2(-30000).a);
    ASSERT(5 + 6 * 10 + 7 * 100, take3(make3(5)));
    ASSERT(-99, make4(-99).a);
    ASSERT(7 - 14 + 21, take6(make6(7)));
    ASSERT(-5000000000LL, make8(-5000000000LL).a);
    ASSERT(300 - 30 + 9, take12(make12(3)));
    ASSERT(3 - (3LL << 20) + 15, take16(1, 2, 3, 4, 5, make16(3)));
    ASSERT(10 + 9, take17(make17(9)));
    ASSERT(6 * 4, take24(make24(4), make24(0)));
    struct s40 r40 = make40(-2);
    ASSERT(-9, r40.a[0] + r40.a[1] + r40.a[2] + r40.a[3] + r40.a[4]);
    ASSERT(5 + (1LL << 40) - 2, takemixed(makemixed(5)));
    return 0;
}
