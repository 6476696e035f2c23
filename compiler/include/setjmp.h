/* setjmp.h -- phicc's own <setjmp.h> (C99 7.13), with POSIX's sigsetjmp.
 *
 * Why it exists: c-torture and real programs use setjmp/longjmp; natively
 * they are glibc's (static link), in the oracle oracle/src/interp/setjmp.rs.
 * What a function calling setjmp gets from the compiler is described in
 * compiler/src/setjmp_intrinsics.rs.
 *
 * Invariants: jmp_buf is an array of one struct, as in glibc, and at least
 * as large and aligned as glibc's jmp_buf on each of phicc's four targets
 * (x86-64 200 bytes, i686 156, AArch64 312, riscv64 at most 344): 512 bytes,
 * 8-aligned. glibc's setjmp writes within its own layout, so the rest is
 * unused. setjmp is the function of that name (glibc saves the signal mask
 * in it, which phicc's programs never change); sigsetjmp is glibc's macro
 * for __sigsetjmp.
 */
#ifndef __PHICC_SETJMP_H
#define __PHICC_SETJMP_H

struct __jmp_buf_tag {
    long long __phicc_words[64];
};

typedef struct __jmp_buf_tag jmp_buf[1];
typedef struct __jmp_buf_tag sigjmp_buf[1];

int setjmp(jmp_buf __env);
int _setjmp(struct __jmp_buf_tag __env[1]);
int __sigsetjmp(struct __jmp_buf_tag __env[1], int __savemask);
void longjmp(struct __jmp_buf_tag __env[1], int __val) __attribute__((__noreturn__));
void _longjmp(struct __jmp_buf_tag __env[1], int __val) __attribute__((__noreturn__));
void siglongjmp(sigjmp_buf __env, int __val) __attribute__((__noreturn__));

#define sigsetjmp(env, savemask) __sigsetjmp(env, savemask)

#endif
