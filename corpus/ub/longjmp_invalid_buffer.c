// ub: LongjmpInvalidBuffer @9
// longjmp through a jmp_buf that no setjmp filled (C99 7.13.2.1p2: the environment must
// have been saved by an invocation of setjmp): the static buffer is still all zeros.
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
int main(void) {
    printf("start\n");
    longjmp(env, 1);
}
