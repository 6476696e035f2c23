// The defined twin of longjmp_invalid_buffer.c: setjmp fills the buffer first.
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
int main(void) {
    printf("start\n");
    if (setjmp(env) == 0)
        longjmp(env, 1);
    printf("back\n");
    return 0;
}
