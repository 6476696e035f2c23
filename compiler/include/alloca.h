/* alloca.h -- phicc's own <alloca.h> (glibc's, a subset).
 *
 * Why it exists: programs (and gcc's c-torture) include it for alloca, which
 * phicc computes in IR (`dynalloca`, lowering/dyn_stack.rs): an object on the
 * stack, freed when the calling function returns.
 *
 * Invariants: declarations only, prototype-compatible with glibc's; size_t is
 * defined under the same guard as in <stddef.h>.
 */
#ifndef __PHICC_ALLOCA_H
#define __PHICC_ALLOCA_H

#ifndef __PHICC_SIZE_T_DEFINED
#define __PHICC_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
#endif

void *alloca(size_t size);

#endif /* __PHICC_ALLOCA_H */
