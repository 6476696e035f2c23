// The defined twin of longjmp_dead_frame.c: main itself calls setjmp, so the frame the
// longjmp returns to is still running.
#include <setjmp.h>
#include <stdio.h>
static jmp_buf env;
static void jump(void) { longjmp(env, 1); }
int main(void) {
    if (setjmp(env)) {
        printf("back\n");
        return 0;
    }
    printf("%d\n", 0);
    jump();
}
