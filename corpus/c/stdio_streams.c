/* The standard streams of <stdio.h>: fprintf, vfprintf, fputs, fputc, putc, fwrite and
 * fflush on stdout (the observed output, in program order with printf) and on stderr
 * (not part of the observed output). Expected values from gcc 12 -O0 with glibc 2.36
 * (x86_64): glibc's results (fputs returns 1, fwrite the item count). */
#include "test.h"
#include <stdarg.h>

static int to_stream(FILE *f, const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    FILE *out = stdout;
    ASSERT(1, out == stdout);
    ASSERT(0, stdout == stderr);
    ASSERT(10, fprintf(stdout, "%d-%s|\n", 12345, "ab"));
    ASSERT(7, fprintf(stderr, "%d-%s|\n", 12, "ab"));
    ASSERT(1, fputs("fputs line\n", stdout));
    ASSERT(1, fputs("to stderr\n", stderr));
    ASSERT('x', fputc('x', stdout));
    ASSERT(10, putc(266, stdout));
    ASSERT(2, fwrite("abcdef", 3, 2, stdout));
    ASSERT(0, fwrite("abc", 0, 3, stdout));
    ASSERT(1, fwrite("\n", 1, 1, stdout));
    ASSERT(0, fflush(stdout));
    ASSERT(0, fflush(0));
    ASSERT(5, to_stream(stdout, "<%c%c>\n%s", 'o', 'k', ""));
    ASSERT(3, to_stream(stderr, "%d", 100));
    printf("after the streams\n");
    return 0;
}
