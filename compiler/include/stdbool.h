/* stdbool.h -- phicc's own <stdbool.h> (C99 7.16).
 *
 * Why it exists: c-torture includes it (20010604-1.c) and phicc ships its own
 * headers (no host headers, whose glibc-specific contents the front end does
 * not parse).
 *
 * Invariants: the C99 macros exactly (bool, true, false as integer constants
 * usable in #if, __bool_true_false_are_defined), as gcc's own stdbool.h.
 */
#ifndef __PHICC_STDBOOL_H
#define __PHICC_STDBOOL_H

#define bool _Bool
#define true 1
#define false 0
#define __bool_true_false_are_defined 1

#endif /* __PHICC_STDBOOL_H */
