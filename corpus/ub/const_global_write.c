// ub: WriteToConst @7
// Modifying a const-qualified object through a cast (C99 6.7.3p5).
#include <stdio.h>
const int limit = 10;
int main(void) {
    int *p = (int *)&limit;
    *p = 11;
    printf("%d\n", limit);
    return 0;
}
