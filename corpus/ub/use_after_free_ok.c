// The defined twin of use_after_free.c: read before free.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int *p = malloc(sizeof *p);
    if (!p)
        return 1;
    *p = 4;
    printf("%d\n", *p);
    free(p);
    return 0;
}
