// The defined twin of const_local_write.c: const locals initialised again each time
// their declaration is reached (a loop body, a goto backwards), const parameters, and a
// non-const object modified through a const-qualified pointer cast back (C99 6.7.3p5
// restricts only objects *defined* const).
#include <stdio.h>
static int scaled(const int x, int k) { const int y = x * k; return y + x; }
int main(void) {
    int total = 0, round = 0;
    for (int i = 0; i < 3; i++) {
        const int step = i * 2;
        total += step;
    }
again:;
    const int r = round * 10;
    total += r;
    if (++round < 3)
        goto again;
    int plain = 4;
    const int *cp = &plain;
    *(int *)cp = 5;
    const int arr[2] = {7, 8};
    printf("%d %d %d %d\n", total, scaled(3, 4), plain, arr[0] + arr[1]);
    return 0;
}
