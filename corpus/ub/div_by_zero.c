// ub: DivByZero
// Integer division by zero (C99 6.5.5p5).
#include <stdio.h>
int zero = 0;
int main(void) {
    printf("%d\n", 7 / zero);
    return 0;
}
