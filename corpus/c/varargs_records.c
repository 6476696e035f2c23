#include "test.h"
#include <stdarg.h>

/* Records by value through '...': sizes 1 to 40 bytes, read back with va_arg where the
   caller put them (registers, a pair split between the last register and the stack on
   RISC-V, a pair that no longer fits the registers while a later int still does on
   x86-64, AArch64's closing of the registers, MEMORY records on x86-64, by reference
   beyond 16 bytes on AArch64 and RISC-V, every record on the stack on i686). Named
   record parameters of variadic functions too. Expected values are computed by hand;
   gcc -O0 confirms them. */

struct s1 { signed char a; };
struct s3 { signed char a, b, c; };
struct s6 { short a, b, c; };
struct s8 { long long a; };
struct s12 { int a, b, c; };
struct s16 { long long a, b; };
struct s24 { long long a, b, c; };
struct s40 { long long a[5]; };
struct mixed { signed char c; long long l; short s; };

/* Reads a record of each kind in the order the format string names them. */
static long long take(const char *kinds, ...) {
    va_list ap;
    long long s = 0;
    va_start(ap, kinds);
    for (const char *k = kinds; *k; k++) {
        s *= 3;
        switch (*k) {
        case '1': { struct s1 x = va_arg(ap, struct s1); s += x.a; break; }
        case '3': { struct s3 x = va_arg(ap, struct s3); s += x.a + x.b * 10 + x.c * 100; break; }
        case '6': { struct s6 x = va_arg(ap, struct s6); s += x.a - x.b + x.c; break; }
        case '8': { struct s8 x = va_arg(ap, struct s8); s += x.a; break; }
        case 'c': { struct s12 x = va_arg(ap, struct s12); s += x.a * x.b - x.c; break; }
        case 'g': { struct s16 x = va_arg(ap, struct s16); s += x.a - x.b; break; }
        case 'o': { struct s24 x = va_arg(ap, struct s24); s += x.a + x.b + x.c; break; }
        case 'x': {
            struct s40 x = va_arg(ap, struct s40);
            for (int i = 0; i < 5; i++)
                s += x.a[i] * (i + 1);
            break;
        }
        case 'm': { struct mixed x = va_arg(ap, struct mixed); s += x.c + x.l + x.s; break; }
        case 'i': s += va_arg(ap, int); break;
        case 'l': s += va_arg(ap, long long); break;
        default: return -1;
        }
    }
    va_end(ap);
    return s;
}

/* A named record parameter before '...'. */
static long long named(struct s16 first, int n, ...) {
    va_list ap;
    long long s = first.a * 1000 + first.b;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        s += va_arg(ap, struct s12).b;
    va_end(ap);
    return s;
}

/* Records read through a copied va_list, by a function given a pointer to it (a
   va_list passed by value may be used by the callee only once: C99 7.15p3). */
static long long read_s24(va_list *ap) {
    struct s24 x = va_arg(*ap, struct s24);
    return x.a * 100 + x.b * 10 + x.c;
}

static long long copies(int n, ...) {
    va_list ap, aq;
    va_start(ap, n);
    va_copy(aq, ap);
    long long s = 0;
    for (int i = 0; i < n; i++)
        s += read_s24(&aq);
    va_end(aq);
    struct s24 first = va_arg(ap, struct s24);
    va_end(ap);
    return s * 10 + first.a;
}

int main(void) {
    struct s1 a1 = {-5};
    struct s3 a3 = {1, 2, 3};
    struct s6 a6 = {100, 30, -7};
    struct s8 a8 = {1LL << 40};
    struct s12 a12 = {6, 7, 8};
    struct s16 a16 = {50, 8};
    struct s24 a24 = {1, 2, 3};
    struct s40 a40 = {{1, 2, 3, 4, 5}};
    struct mixed am = {-1, 1000000, 300};
    ASSERT(-5, take("1", a1));
    ASSERT(321, take("3", a3));
    ASSERT(63, take("6", a6));
    ASSERT(1LL << 40, take("8", a8));
    ASSERT(34, take("c", a12));
    ASSERT(42, take("g", a16));
    ASSERT(6, take("o", a24));
    ASSERT(55, take("x", a40));
    ASSERT(1000299, take("m", am));
    /* Pairs around the end of the registers: after 4 and 5 ints (x86-64: a pair after
       five one-register arguments goes to the stack, a later int takes the last
       register), after 6 and 7 (AArch64 closes the registers; RISC-V splits a pair
       between a7 and the stack). */
    ASSERT(((((1 * 3 + 2) * 3 + 3) * 3 + 4) * 3 + 42) * 3 + 5,
           take("iiiigi", 1, 2, 3, 4, a16, 5));
    ASSERT((((((1 * 3 + 2) * 3 + 3) * 3 + 4) * 3 + 5) * 3 + 42) * 3 + 6,
           take("iiiiigi", 1, 2, 3, 4, 5, a16, 6));
    ASSERT(((((((1 * 3 + 2) * 3 + 3) * 3 + 4) * 3 + 5) * 3 + 6) * 3 + 42) * 3 + 7,
           take("iiiiiigi", 1, 2, 3, 4, 5, 6, a16, 7));
    ASSERT((((((((1 * 3 + 2) * 3 + 3) * 3 + 4) * 3 + 5) * 3 + 6) * 3 + 7) * 3 + 42) * 3 + 8,
           take("iiiiiiigi", 1, 2, 3, 4, 5, 6, 7, a16, 8));
    /* MEMORY and by-reference records among scalars, and a mixed-alignment record. */
    ASSERT(((((1 * 3 + 6) * 3 + 2) * 3 + 55) * 3 + 3) * 3 + 1000299,
           take("lolxlm", 1LL, a24, 2LL, a40, 3LL, am));
    ASSERT((((((-5 * 3 + 321) * 3 + 63) * 3 + (1LL << 40)) * 3 + 34) * 3 + 42) * 3 + 6,
           take("1368cgo", a1, a3, a6, a8, a12, a16, a24));
    ASSERT(50008 + 7 + 7 + 7, named(a16, 3, a12, a12, a12));
    struct s24 b24 = {4, 5, 6};
    ASSERT((123 + 456) * 10 + 1, copies(2, a24, b24));
    return 0;
}
