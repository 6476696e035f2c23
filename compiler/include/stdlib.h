/* stdlib.h -- phicc's own <stdlib.h> (C99 7.20), a subset.
 *
 * Why it exists: C programs for phicc (csmith's and the harness's own
 * generator's) end with exit or abort and may allocate; these are the
 * stdlib functions the oracle implements, and only those are declared, so a
 * call to any other is an error in the front end rather than a program the
 * oracle cannot run.
 *
 * Invariants: declarations only, prototype-compatible with glibc's; size_t
 * and NULL are defined under the same guards as in <stddef.h>.
 */
#ifndef __PHICC_STDLIB_H
#define __PHICC_STDLIB_H

#ifndef __SIZE_TYPE__
#error "phicc <stdlib.h>: the preprocessor must predefine __SIZE_TYPE__"
#endif

#ifndef __PHICC_SIZE_T_DEFINED
#define __PHICC_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

void abort(void);
void exit(int status);
void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void free(void *ptr);
/* The oracle runs them with glibc 2.36's order of comparisons
 * (oracle/src/interp/libc_sort.rs). */
void qsort(void *base, size_t nmemb, size_t size,
           int (*compar)(const void *, const void *));
void *bsearch(const void *key, const void *base, size_t nmemb, size_t size,
              int (*compar)(const void *, const void *));

#endif /* __PHICC_STDLIB_H */
