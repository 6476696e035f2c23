// ub: LongjmpDeadFrame @14
// longjmp to a setjmp whose function has returned since (C99 7.13.2.1p2): arm() saved
// its environment and returned; main jumps back into its dead frame.
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
static int arm(void) {
    if (setjmp(env))
        return 1;
    return 0;
}
int main(void) {
    printf("%d\n", arm());
    longjmp(env, 1);
}
