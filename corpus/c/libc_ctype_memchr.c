/* <ctype.h> in the "C" locale (glibc returns its table bits: isprint('a') is 16384),
 * memchr (stops at the first match), GNU mempcpy, snprintf and __builtin_snprintf
 * (truncation, the whole length returned). Each runs in the real glibc natively and in
 * the oracle's model of it; expected values from gcc 12 -O0 with glibc 2.36 (x86_64). */
#define _GNU_SOURCE
#include "test.h"
#include <ctype.h>

void *mempcpy(void *dest, const void *src, size_t n);

static long class_sum(int (*f)(int)) {
    long sum = 0;
    for (int c = -128; c < 256; c++)
        sum += (long)f(c) * (c + 200);
    return sum;
}

int main(void) {
    char buf[8];
    const char text[6] = "abcaXY";
    ASSERT(16384, isprint('a'));
    ASSERT(0, isprint('\002'));
    ASSERT(0, isprint(-1));
    ASSERT(1, isblank(' '));
    ASSERT(8, isalnum('7'));
    ASSERT(4, ispunct('!'));
    ASSERT(8192, isspace('\v'));
    ASSERT(4096, isxdigit('F'));
    ASSERT(2, iscntrl(127));
    ASSERT('Q', toupper('q'));
    ASSERT('q', tolower('Q'));
    ASSERT(251, tolower(-5));
    ASSERT(-1, toupper(-1));
    ASSERT(200, toupper(200));
    ASSERT(142296, class_sum(isalnum));
    ASSERT(15628288, class_sum(isalpha));
    ASSERT(441, class_sum(isblank));
    ASSERT(14446, class_sum(iscntrl));
    ASSERT(5171200, class_sum(isdigit));
    ASSERT(860913664, class_sum(isgraph));
    ASSERT(4120064, class_sum(islower));
    ASSERT(434257920, class_sum(isprint));
    ASSERT(33944, class_sum(ispunct));
    ASSERT(10543104, class_sum(isspace));
    ASSERT(1847040, class_sum(isupper));
    ASSERT(24276992, class_sum(isxdigit));
    ASSERT(15763744, class_sum(tolower));
    ASSERT(15275360, class_sum(toupper));
    ASSERT(1, memchr(text, 'a', 6) == text);
    ASSERT(1, memchr(text + 1, 'a', 5) == text + 3);
    ASSERT(1, memchr(text, 'Y', 6) == text + 5);
    ASSERT(1, memchr(text, 0, 6) == 0);
    ASSERT(1, memchr(text, 'b' + 256, 2) == text + 1);
    ASSERT(1, memchr(text, 'a', 0) == 0);
    ASSERT(1, mempcpy(buf, "xyz", 4) == buf + 3 + 1);
    ASSERT(0, strcmp(buf, "xyz"));
    ASSERT(9, snprintf(buf, sizeof buf, "%d-%s", 1234, "abcd"));
    ASSERT(0, strcmp(buf, "1234-ab"));
    ASSERT(3, snprintf(buf, 2, "%d", 777));
    ASSERT(0, strcmp(buf, "7"));
    ASSERT(2, __builtin_snprintf(buf, 1, "%x", 255));
    ASSERT(0, buf[0]);
    ASSERT(2, snprintf(0, 0, "%d", 10));
    ASSERT(1, __builtin_snprintf(buf, sizeof buf, "%hhd", 4105));
    ASSERT(0, strcmp(buf, "9"));
    return 0;
}
