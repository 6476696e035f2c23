/* stddef.h -- phicc's own <stddef.h> (C99 7.17).
 *
 * Why it exists: phicc compiles csmith programs without the host's libc
 * headers, so every header they reach must be ours and must parse with our
 * front end.  This one is the root of the data model: size_t, ptrdiff_t and
 * wchar_t come from the types the preprocessor predefines for the target
 * (__SIZE_TYPE__, __PTRDIFF_TYPE__, __WCHAR_TYPE__, the same names gcc
 * predefines), so one header serves x86_64, i686, aarch64 and riscv64 and
 * the types are the ones the target's libc uses (ABI-compatible when a native
 * build links against it).
 *
 * Invariants: declarations only; C99 plus __builtin_offsetof; size_t and
 * NULL are defined under the same guards as in <stdio.h>, <stdlib.h> and
 * <string.h>, so including any mix of them defines each exactly once.
 */
#ifndef __PHICC_STDDEF_H
#define __PHICC_STDDEF_H

#if !defined(__SIZE_TYPE__) || !defined(__PTRDIFF_TYPE__) || !defined(__WCHAR_TYPE__)
#error "phicc <stddef.h>: the preprocessor must predefine __SIZE_TYPE__, __PTRDIFF_TYPE__ and __WCHAR_TYPE__"
#endif

#ifndef __PHICC_SIZE_T_DEFINED
#define __PHICC_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
#endif

#ifndef __PHICC_PTRDIFF_T_DEFINED
#define __PHICC_PTRDIFF_T_DEFINED
typedef __PTRDIFF_TYPE__ ptrdiff_t;
#endif

#ifndef __PHICC_WCHAR_T_DEFINED
#define __PHICC_WCHAR_T_DEFINED
typedef __WCHAR_TYPE__ wchar_t;
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

/* offsetof cannot be written portably in C99 without undefined behaviour
 * (the classic ((size_t)&((T *)0)->m) dereferences a null pointer), so it is
 * a builtin: the phicc front end must accept __builtin_offsetof(type,
 * member-designator) and fold it to an integer constant expression of type
 * size_t, as gcc and clang do. */
#define offsetof(type, member) __builtin_offsetof(type, member)

#endif /* __PHICC_STDDEF_H */
