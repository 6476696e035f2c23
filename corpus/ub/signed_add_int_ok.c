// The defined twin of signed_add_int.c: unsigned arithmetic wraps (C99 6.2.5p9), and
// the conversion back to int of a value that fits is exact.
#include <limits.h>
#include <stdio.h>
int big = INT_MAX;
int main(void) {
    unsigned r = (unsigned)big + 1u;
    printf("%u\n", r);
    int back = (int)(r - 1u);
    printf("%d\n", back);
    return back == INT_MAX ? 0 : 1;
}
