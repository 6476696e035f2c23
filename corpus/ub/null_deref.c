// ub: InvalidPointer @7
// A read through a null pointer.
#include <stdio.h>
int *volatile np = 0;
int main(void) {
    int *p = np;
    printf("%d\n", *p);
    return 0;
}
