// The defined twin of fnptr_call_after_arguments.c (c-torture's call-trap-1.c): the
// wrongly typed call never happens, because evaluating its argument exits first. C11
// 6.5.2.2p10 puts a sequence point after the evaluation of the function designator and
// the arguments, before the call; only the call itself is undefined (6.5.2.2p9).
#include <stdio.h>
#include <stdlib.h>
static int leave(void) {
    printf("leaving\n");
    exit(0);
    return 0;
}
static void nothing(void) {}
int main(void) {
    long (*f)(int) = (long (*)(int))nothing;
    f(leave());
    printf("not reached\n");
    return 1;
}
