/* stdio.h -- phicc's own <stdio.h> (C99 7.19), a FILE-free subset.
 *
 * Why it exists: csmith programs print their checksums with printf (via
 * csmith's platform_generic.h) and nothing else from stdio; the oracle
 * implements printf, puts and putchar on the program's stdout.  There are no
 * streams: no FILE, stdin, stdout or fprintf, so a program that needs them is
 * refused by the front end (undeclared identifier) instead of being run
 * wrongly.
 *
 * Invariants: declarations only, prototype-compatible with glibc's (restrict
 * is left out: it does not change a parameter's type for compatibility, and
 * it spares the front end a keyword nothing else uses); size_t and NULL are
 * defined under the same guards as in <stddef.h>.
 */
#ifndef __PHICC_STDIO_H
#define __PHICC_STDIO_H

#ifndef __SIZE_TYPE__
#error "phicc <stdio.h>: the preprocessor must predefine __SIZE_TYPE__"
#endif

#ifndef __PHICC_SIZE_T_DEFINED
#define __PHICC_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

#define EOF (-1)

/* Variadic: the front end must lower `...` calls with the default argument
 * promotions (float to double, small integers to int). */
int printf(const char *format, ...);
int sprintf(char *str, const char *format, ...);
int snprintf(char *str, size_t size, const char *format, ...);
/* The va_list forms (the oracle models the va_list a phicc function started). */
int vprintf(const char *format, __builtin_va_list ap);
int vsprintf(char *s, const char *format, __builtin_va_list ap);
int puts(const char *s);
int putchar(int c);

#endif /* __PHICC_STDIO_H */
