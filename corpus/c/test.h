/* test.h -- the checking helper of the C corpus (chibicc's test style).
 *
 * ASSERT(expected, expr) evaluates expr, prints "expr => value" and, when the value is
 * not the expected one, "expr => value, expected E" and exits with status 1.  Every line
 * goes to stdout, so `phihunt check` compares all of them with gcc -O0, stage by stage.
 * Expected values are written from the C standard (LP64 x86_64 for sizes); gcc confirms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void assert_eq(long long expected, long long actual, const char *code) {
    if (expected == actual) {
        printf("%s => %lld\n", code, actual);
    } else {
        printf("%s => %lld, expected %lld\n", code, actual, expected);
        exit(1);
    }
}

#define ASSERT(x, y) assert_eq((long long)(x), (long long)(y), #y)
