/* __builtin_return_address(0) (c-torture 20010122-1.c, 20030811-1.c, 20030323-1.c): the
 * address a call returns to is the same for two calls made by one call instruction
 * (also through a function pointer, also when the callee calls something first or
 * after reading it) and differs between two call instructions; it is never null. A
 * nonzero level is a null pointer in phicc (gcc gives 0 where it cannot walk the
 * frames, e.g. riscv64) — so only its use, not its value, is printed. Every line is
 * each target's gcc -O0's; the oracle gives each call site an opaque address
 * (oracle/src/interp/return_sites.rs), and no function of this file is inlined at any
 * stage (frame_intrinsics.rs). */
#include <stdio.h>

void *sink;

__attribute__((noipa)) void *ra_plain(void) { return __builtin_return_address(0); }

__attribute__((noipa)) void *ra_after_call(void) {
    puts("ra_after_call");
    return __builtin_return_address(0);
}

__attribute__((noipa)) void *ra_before_call(void) {
    void *p = __builtin_return_address(0);
    puts("ra_before_call");
    return p;
}

void *ra_not_marked(void) { return __builtin_return_address(0); }

void *(*fns[3])(void) = {ra_plain, ra_after_call, ra_before_call};

/* One call instruction for every callee (`noipa` and the store after the call: gcc -O2,
 * the harness's second reference, would otherwise inline it into main or make the call
 * a tail call, which returns to main's call sites instead). */
__attribute__((noipa)) void *through_one_site(int i) {
    void *r = fns[i]();
    sink = r;
    return r;
}

/* Never called: levels above 0 and a conversion to an integer only have to compile. */
void *upper_levels(int which) {
    switch (which) {
    case 0:
        return __builtin_return_address(1);
    case 1:
        return __builtin_return_address(2 + 1);
    default:
        sink = (void *)(long)(int)(long)__builtin_return_address(0);
        return sink;
    }
}

int main(void) {
    void *a = through_one_site(0);
    void *b = through_one_site(1);
    void *c = through_one_site(2);
    void *d = ra_plain();
    void *e = ra_plain();
    void *f = ra_not_marked();
    printf("one site: %d %d\n", a == b, b == c);
    printf("two sites: %d %d %d\n", d == e, a == d, e == f);
    printf("not null: %d %d %d\n", a != 0, d != 0, f != 0);
    printf("upper levels compiled: %d\n", upper_levels != 0);
    return 0;
}
