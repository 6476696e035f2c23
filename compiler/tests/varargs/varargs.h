/* varargs.h -- the interface between caller.c and callee.c of tests/varargs_gcc.rs.
 *
 * Each side is compiled by gcc or by phicc; every function crosses the boundary with
 * unnamed arguments (ints, long longs, pointers, records of 1 to 40 bytes) or with a
 * va_list (started on one side, read on the other).
 */
#include <stdarg.h>

struct S1 { signed char a; };
struct S3 { signed char a, b, c; };
struct S6 { short a, b, c; };
struct S8 { long long a; };
struct S12 { int a, b, c; };
struct S16 { long long a, b; };
struct S24 { long long a, b, c; };
struct S40 { long long a[5]; };
struct M { signed char c; long long l; short s; };

/* callee.c: variadic definitions. */
long long sum_ll(int n, ...);
int sum_int(int n, ...);
long long mixed(int n, ...);
long long after9(int a, int b, int c, int d, int e, int f, int g, int h, int k, ...);
long long take(const char *kinds, ...);
long long named(struct S16 first, int n, ...);
long long copies(int n, ...);
int fwd(char *buf, const char *fmt, ...);
/* callee.c: reads a va_list the caller started. */
long long vsum(int n, va_list ap);
long long vtake(const char *kinds, va_list ap);

/* caller.c: variadic definitions whose va_list callee.c reads. */
long long via_vsum(int n, ...);
long long via_vtake(const char *kinds, ...);
