/* Records with float members passed and returned by value, caller and callee both phicc:
 * x86-64 SSE eightbytes ({float, float} packed in one %xmm, {double, long} in %xmm0 and
 * %rax), AAPCS64 HFAs of one to four members (nested, arrays, a union), RISC-V LP64D's
 * flattened pairs ({float, int}, {char, float}), records past the float registers (on
 * the stack whole), through a function pointer, and a variadic callee with the record
 * named and doubles in `...`. The mixed links with gcc are tests/abi_records_gcc.rs; this
 * file runs in the oracle at every stage too. Expected output: gcc -O0 on all four
 * targets. */
#include <stdarg.h>
#include <stdio.h>

struct ff { float a, b; };
struct fff { float a[3]; };
struct dd { double a, b; };
struct hfa4 { struct { double x, y; } p; double z[2]; };
struct dl { double d; long long l; };
struct ld { long long l; double d; };
struct fi { float f; int i; };
struct cf { signed char c; float f; };
struct fd { float f; double d; };
struct nf { struct { float x; } s; float b[2]; };
union uf { float f[2]; struct { float x, y; } s; };
struct big { float a[5]; };

static struct ff make_ff(float a, float b) { struct ff r = {a, b}; return r; }
static struct fff make_fff(float k) { struct fff r = {{k, -k, k * 2}}; return r; }
static struct dd swap_dd(struct dd x) { struct dd r = {x.b, x.a}; return r; }
static struct hfa4 scale4(struct hfa4 h, double k) {
    h.p.x *= k; h.p.y *= k; h.z[0] *= k; h.z[1] *= k;
    return h;
}
static struct dl make_dl(double d, long long l) { struct dl r = {d, l}; return r; }
static struct ld flip(struct dl x) { struct ld r = {x.l + 1, x.d * 2}; return r; }
static struct fi make_fi(float f, int i) { struct fi r = {f, i}; return r; }
static struct cf next_cf(struct cf x) { x.c++; x.f += 0.5f; return x; }
static struct fd add_fd(struct fd x, struct fd y) { struct fd r = {x.f + y.f, x.d + y.d}; return r; }
static struct nf make_nf(float k) { struct nf r; r.s.x = k; r.b[0] = k + 1; r.b[1] = -0.0f; return r; }
static union uf make_uf(float x, float y) { union uf u; u.s.x = x; u.s.y = y; return u; }
static struct big grow(struct big b) { for (int i = 0; i < 5; i++) b.a[i] += i; return b; }

/* Nine HFAs of four doubles: the v registers hold two, the rest go on the stack whole,
 * and the double after them too (AAPCS64); x86-64 passes all of them in memory. */
static double many_hfa(struct hfa4 a, struct hfa4 b, struct hfa4 c, double k, struct hfa4 d,
                       struct ff e, struct dd f, int n, double tail) {
    return a.p.x + b.p.y * 2 + c.z[0] * 3 + k * 4 + d.z[1] * 5 + e.b * 6 + f.a * 7 + n * 8
           + tail * 9;
}

/* Seven doubles first: a {double, double} no longer fits the float registers. */
static double after_seven(double a, double b, double c, double d, double e, double f, double g,
                          struct dd x, struct ff y, double h) {
    return a + b + c + d + e + f + g + x.a * 10 + x.b * 100 + y.a * 1000 + y.b * 10000 + h;
}

static double named_record(struct fd x, int n, ...) {
    va_list ap;
    double s = x.f + x.d * 3;
    va_start(ap, n);
    while (n-- > 0)
        s = s * 2 + va_arg(ap, double);
    va_end(ap);
    return s;
}

int main(void) {
    struct ff f2 = make_ff(1.5f, -2.25f);
    printf("ff %g %g\n", f2.a, f2.b);
    struct fff f3 = make_fff(3.5f);
    printf("fff %g %g %g\n", f3.a[0], f3.a[1], f3.a[2]);
    struct dd d2 = swap_dd((struct dd){1.0 / 3, -1e300});
    printf("dd %.17g %.17g\n", d2.a, d2.b);
    struct hfa4 h = {{1.25, 2.5}, {3.75, -5.0}};
    h = scale4(h, 4);
    printf("hfa4 %g %g %g %g\n", h.p.x, h.p.y, h.z[0], h.z[1]);
    struct dl x = make_dl(6.5, -7);
    struct ld y = flip(x);
    printf("dl %g %lld ld %lld %g\n", x.d, x.l, y.l, y.d);
    struct fi fi = make_fi(-0.0f, 42);
    printf("fi %g %d\n", fi.f, fi.i);
    struct cf cf = next_cf((struct cf){-3, 8.25f});
    printf("cf %d %g\n", cf.c, cf.f);
    struct fd fd = add_fd((struct fd){1.5f, 2.5}, (struct fd){0.25f, 1e-3});
    printf("fd %g %.17g\n", fd.f, fd.d);
    struct nf nf = make_nf(9.5f);
    printf("nf %g %g %g\n", nf.s.x, nf.b[0], nf.b[1]);
    union uf uf = make_uf(1.75f, 2.75f);
    printf("uf %g %g\n", uf.f[0], uf.f[1]);
    struct big bg = grow((struct big){{0.5f, 1.5f, 2.5f, 3.5f, 4.5f}});
    printf("big %g %g %g %g %g\n", bg.a[0], bg.a[1], bg.a[2], bg.a[3], bg.a[4]);
    printf("many %g\n", many_hfa(h, h, h, 0.5, h, f2, d2, 3, 0.125));
    printf("seven %.17g\n", after_seven(1, 2, 3, 4, 5, 6, 7, (struct dd){0.5, 0.25}, f2, 8));
    printf("named %.17g\n", named_record(fd, 3, 1.5, 2.5, 3.5));
    struct dd (*swap)(struct dd) = swap_dd;
    struct dd back = swap(d2);
    printf("indirect %.17g %.17g\n", back.a, back.b);
    struct ld (*fl)(struct dl) = flip;
    struct ld y2 = fl(make_dl(-1.5, 9));
    printf("indirect %lld %g\n", y2.l, y2.d);
    return 0;
}
