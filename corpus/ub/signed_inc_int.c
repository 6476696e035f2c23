// ub: SignedOverflow @9
// ++ of an int holding INT_MAX, in a loop.
#include <limits.h>
#include <stdio.h>
int start = INT_MAX - 3;
int main(void) {
    int i = start;
    for (int k = 0; k < 5; k++)
        i++;
    printf("%d\n", i);
    return 0;
}
