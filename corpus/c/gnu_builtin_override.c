/* A unit that defines its own abs/llabs/ffs (c-torture 20021127-1.c): gcc -O0 still
 * computes a direct call to a library name it knows as a builtin inline, whether the
 * call comes before or after the definition, unless the definition is `static` or its
 * parameter or result types differ from the library prototype's by width or
 * signedness (gcc compares machine modes: `long labs(int)` is the builtin's type on
 * i686). The expected values are gcc -O0's (checked with gcc 12.2). A call through a
 * pointer is left out: gcc -O2 turns it into the builtin. */
int printf(const char *, ...);
void exit(int);

/* test.h's ASSERT, without its <stdlib.h> (which declares abs and labs extern). */
static void assert_eq(long long expected, long long actual, const char *code) {
    printf("%s => %lld\n", code, actual);
    if (expected != actual) {
        printf("expected %lld\n", expected);
        exit(1);
    }
}
#define ASSERT(x, y) assert_eq((long long)(x), (long long)(y), #y)

long long llabs(long long);
int ffs(int);

static int before(void) { return (int)llabs(-5) + ffs(8); }

long long llabs(long long b) { return 100 + b; }
int ffs(int b) { return 1000 + b; }
/* static: the program's function replaces the builtin. */
static int abs(int b) { return 7000 + b; }
/* Another type than `long labs(long)` where long is wider than int: the program's. */
long labs(int b) { return 9000 + b; }

static int after(void) { return (int)llabs(-6) + ffs(16); }

int main(void) {
    ASSERT(5 + 4, before());
    ASSERT(6 + 5, after());
    ASSERT(7003, abs(3));
    ASSERT(sizeof(long) == sizeof(int) ? 2 : 9002, labs(2));
    return 0;
}
