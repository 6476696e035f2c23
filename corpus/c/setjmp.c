/* setjmp/longjmp and gcc's __builtin_setjmp/__builtin_longjmp
 * (compiler/src/setjmp_intrinsics.rs, oracle/src/interp/setjmp.rs): a longjmp out of
 * nested calls; a volatile local modified after the setjmp keeps its new value and a
 * non-volatile local not modified since keeps its old one (C99 7.13.2.1p3); longjmp with
 * 0 returns 1; setjmp in a loop; _setjmp, sigsetjmp; the builtin pair through gcc's
 * five-word buffer, from a function that holds values in callee-saved registers, while
 * the receiver's caller keeps its own values in registers across the call (the receiver
 * must restore them: the builtin's buffer does not). Expected values by hand; gcc -O0
 * confirms. */
#include "test.h"
#include <setjmp.h>

static jmp_buf nest_env;
static int depth_reached;

static void level3(int v) {
    depth_reached = 3;
    longjmp(nest_env, v);
}

static void level2(int v) {
    depth_reached = 2;
    level3(v * 2);
    depth_reached = -2;
}

static void level1(int v) {
    int local[4] = {v, v + 1, v + 2, v + 3};
    depth_reached = 1;
    level2(local[3]);
    depth_reached = -1;
}

static int nested(int v, int *changed_out, int *kept_out) {
    int kept = 1234;
    volatile int changed = 1;
    int r = setjmp(nest_env);
    if (r == 0) {
        changed = 2;
        level1(v);
        return -1;
    }
    *changed_out = changed;
    *kept_out = kept;
    return r;
}

static jmp_buf zero_env;

static void jump_with_zero(void) { longjmp(zero_env, 0); }

static int longjmp_zero(void) {
    if (setjmp(zero_env))
        return 1;
    jump_with_zero();
    return 0;
}

static jmp_buf loop_env;

static void jump_back(int v) { longjmp(loop_env, v); }

static int setjmp_in_loop(void) {
    volatile int total = 0;
    volatile int i;
    int unchanged = 40;
    for (i = 0; i < 4; i++) {
        int r = setjmp(loop_env);
        if (r < 3) {
            total += r;
            jump_back(r + 1);
        }
        total += r * 10 + unchanged;
    }
    return total;
}

static jmp_buf plain_env;
static sigjmp_buf sig_env;

static void plain_jump(void) { _longjmp(plain_env, 7); }
static void sig_jump(void) { siglongjmp(sig_env, 9); }

static int underscore_and_sig(void) {
    volatile int got = 0;
    int r = _setjmp(plain_env);
    if (r == 0)
        plain_jump();
    got = r;
    if (sigsetjmp(sig_env, 1) == 0)
        sig_jump();
    else
        got = got * 10 + 9;
    return got;
}

static void *builtin_buf[5];
static volatile long sink;

/* Keeps eight values across a call (callee-saved registers under phicc's linear scan
 * and gcc), then jumps from the innermost level with them still there. */
static void __attribute__((noinline)) clobber_and_jump(int depth) {
    long a = depth * 3 + 1, b = a * 5, c = b ^ 77, d = c + a;
    long e = d * 3, f = e - b, g = f + c, h = g * 7;
    if (depth > 0)
        clobber_and_jump(depth - 1);
    sink = a + b + c + d + e + f + g + h;
    __builtin_longjmp(builtin_buf, 1);
}

static int __attribute__((noinline)) receiver(int n) {
    int kept = n * 2;
    if (__builtin_setjmp(builtin_buf) == 0) {
        clobber_and_jump(n);
        return -1;
    }
    return kept;
}

static volatile long seed = 3;

static long caller_keeps_registers(void) {
    long a = seed, b = a * 11, c = b + 5, d = c * 3, e = d - a, f = e * 2, g = f + b;
    long r = receiver(3);
    return a + b + c + d + e + f + g + r;
}

int main(void) {
    int changed = 0, kept = 0;
    ASSERT(12, nested(3, &changed, &kept));
    ASSERT(3, depth_reached);
    ASSERT(2, changed);
    ASSERT(1234, kept);
    ASSERT(1, longjmp_zero());
    ASSERT(292, setjmp_in_loop());
    ASSERT(79, underscore_and_sig());
    /* a=3 b=33 c=38 d=114 e=111 f=222 g=255, receiver(3) = 6 */
    ASSERT(782, caller_keeps_registers());
    return 0;
}
