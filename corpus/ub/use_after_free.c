// ub: UseAfterFree @11
// A read of a heap block after free.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *p = malloc(sizeof *p);
    if (!p)
        return 1;
    *p = 4;
    free(p);
    printf("%d\n", *p);
    return 0;
}
