/* string.h -- phicc's own <string.h> (C99 7.21), a subset.
 *
 * Why it exists: csmith.h includes <string.h>; generated programs call
 * strcmp (on argv[1], to switch on per-variable hashes) and csmith's
 * random_inc.h defines memcpy and memset itself for TCC.  These are the
 * string functions the oracle implements, and only those are declared.
 *
 * Invariants: declarations only, prototype-compatible with glibc's (restrict
 * left out, as in <stdio.h>); size_t and NULL are defined under the same
 * guards as in <stddef.h>.
 */
#ifndef __PHICC_STRING_H
#define __PHICC_STRING_H

#ifndef __SIZE_TYPE__
#error "phicc <string.h>: the preprocessor must predefine __SIZE_TYPE__"
#endif

#ifndef __PHICC_SIZE_T_DEFINED
#define __PHICC_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

void *memcpy(void *dest, const void *src, size_t n);
void *memmove(void *dest, const void *src, size_t n);
void *memset(void *s, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
size_t strlen(const char *s);
char *strcpy(char *dest, const char *src);
char *strncpy(char *dest, const char *src, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
void *memchr(const void *s, int c, size_t n);

#endif /* __PHICC_STRING_H */
