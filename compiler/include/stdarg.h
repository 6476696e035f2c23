/* stdarg.h -- phicc's own <stdarg.h> (C99 7.15), spelled as gcc's.
 *
 * Why it exists: variadic function definitions read their arguments through
 * these macros; the front end implements the __builtin_va_* forms and the
 * __builtin_va_list type with the target's real va_list layout, so a va_list
 * can be handed to libc (vprintf) or to gcc-compiled code.
 *
 * Invariants: macros and typedefs only; __gnuc_va_list is defined as in gcc's
 * header, so <stdio.h> can declare vprintf without including this file.
 */
#ifndef __PHICC_STDARG_H
#define __PHICC_STDARG_H

#ifndef __GNUC_VA_LIST
#define __GNUC_VA_LIST
typedef __builtin_va_list __gnuc_va_list;
#endif

typedef __gnuc_va_list va_list;

#define va_start(v, l) __builtin_va_start(v, l)
#define va_end(v) __builtin_va_end(v)
#define va_arg(v, T) __builtin_va_arg(v, T)
#define va_copy(d, s) __builtin_va_copy(d, s)
#define __va_copy(d, s) __builtin_va_copy(d, s)

#endif /* __PHICC_STDARG_H */
