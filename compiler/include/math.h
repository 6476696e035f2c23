/* math.h -- phicc's own <math.h> (C99 7.12), a subset.
 *
 * Why it exists: csmith's safe_math.h calls fabsf and fabs in its float and
 * double overflow guards (and ldexpf/ldexp in its pre-C99 branch), and
 * csmith.h includes <math.h> unconditionally.  Only what csmith reaches is
 * declared: a call to any other math function is then an error in phicc's
 * front end instead of a program the oracle cannot run.
 *
 * Invariants: declarations only, with glibc's prototypes (a native build
 * links against the target's libm/libc); every function declared here must
 * be implemented by the oracle (fabs and fabsf are exact: clear the sign
 * bit; ldexp and ldexpf scale by a power of two with correct rounding).
 */
#ifndef __PHICC_MATH_H
#define __PHICC_MATH_H

double fabs(double x);
float fabsf(float x);
double ldexp(double x, int exp);
float ldexpf(float x, int exp);

#endif /* __PHICC_MATH_H */
