#include "test.h"

/* Records passed and returned by value whose padding (and one member) was never
 * written: their integer pieces read those bytes, which must not be undefined (the
 * oracle's __phi_abi.load), and the values must survive in registers, pairs, the stack
 * and hidden pointers on every target. */

struct pad3 { char c; short s; };            /* 1 byte of padding */
struct pad12 { char c; int i; short s; };    /* 5 bytes of padding */
struct big { char c; long long x; int unset; char d; };
union u { char c; long long x; };

static struct pad3 bump3(struct pad3 p) { p.s += p.c; return p; }
static struct pad12 bump12(struct pad12 p, int k) { p.i += k; p.c++; return p; }
static struct big bumpbig(int a, int b, int c, int d, int e, struct big p, int f) {
    p.x += a + b + c + d + e + f;
    p.d = 'z';
    return p;
}
static union u pass_union(union u v) { v.c = (char)(v.c + 1); return v; }

int main(void) {
    struct pad3 a;
    struct pad12 b;
    struct big c;
    union u d;
    int i;
    a.c = 3;
    a.s = 40;
    b.c = 'a';
    b.i = 1000;
    b.s = -7;
    c.c = 'q';
    c.x = 1234567890123LL;
    c.d = 'k';
    d.c = 9;
    for (i = 0; i < 3; i++) {
        a = bump3(a);
        b = bump12(b, i);
        c = bumpbig(1, 2, 3, 4, 5, c, i);
        d = pass_union(d);
    }
    printf("%d %d\n", a.c, a.s);
    printf("%c %d %d\n", b.c, b.i, b.s);
    printf("%c %lld %c\n", c.c, c.x, c.d);
    printf("%d\n", d.c);
    return 0;
}
