// Defined: a call chain 5,000 deep (c-torture's nestfunc-4.c goes 1,001 deep), far within
// any native stack. The oracle's call-depth limit stands for a real stack overflow, so it
// must not call this undefined (`StackOverflow`); it did with the old limit of 1,000.
#include <stdio.h>
long level;
long down(long n);
long up(long n) {
    long here = ++level;
    long below = down(n - 1);
    return below + here;
}
long down(long n) {
    if (n <= 0)
        return -42;
    long below = up(n - 1);
    return below - n;
}
int main(void) {
    long r = up(5000);
    printf("%ld %ld\n", r, level);
    return 0;
}
