/* assert.h -- phicc's own <assert.h> (C99 7.2).
 *
 * Why it exists: csmith's random_inc.h includes <assert.h>.  A failed
 * assertion calls abort(), which the oracle reports as an abort; no message
 * is printed, because a program's stdout is what the harness compares and
 * phicc has no stderr.
 *
 * Invariants: no include guard, on purpose (C99 7.2p1): each inclusion
 * redefines assert according to whether NDEBUG is defined at that point.
 * The expression is evaluated exactly once when NDEBUG is not defined and
 * never when it is; either way assert(e) is a void expression.
 */
#undef assert

#ifdef NDEBUG
#define assert(ignore) ((void)0)
#else
#ifndef __PHICC_ASSERT_ABORT_DECLARED
#define __PHICC_ASSERT_ABORT_DECLARED
/* The same declaration as in <stdlib.h>; repeating it is allowed. */
void abort(void);
#endif
#define assert(expression) ((expression) ? (void)0 : abort())
#endif
