/* math.h -- phicc's own <math.h> (C99 7.12), a subset.
 *
 * Why it exists: programs (csmith's safe_math.h, c-torture, hand-written tests) call
 * the basic math functions; phicc has no system headers.
 *
 * Invariants: declarations with glibc's prototypes (a native build links against the
 * target's libm/libc, with -lm); the functions in the first group are exact or
 * correctly rounded by IEEE 754 on every target, and the oracle runs each of them
 * (oracle/src/interp/libm.rs); the transcendental ones in the second group are not
 * correctly rounded in glibc and differ between targets in the last bit, so the oracle
 * refuses a program that calls them, naming the function (docs/c-floats.md).  The
 * classification macros evaluate their argument more than once (as a function-like
 * macro may not in C99: keep side effects out of their arguments).  No long double.
 */
#ifndef __PHICC_MATH_H
#define __PHICC_MATH_H

#define INFINITY (1.0f / 0.0f)
#define NAN (0.0f / 0.0f)
#define HUGE_VAL (1.0 / 0.0)
#define HUGE_VALF (1.0f / 0.0f)
#define isnan(x) ((x) != (x))
#define isinf(x) (!isnan(x) && isnan((x) - (x)))
#define isfinite(x) (!isnan((x) - (x)))

double sqrt(double x);
float sqrtf(float x);
double fabs(double x);
float fabsf(float x);
double floor(double x);
float floorf(float x);
double ceil(double x);
float ceilf(float x);
double trunc(double x);
float truncf(float x);
double round(double x);
float roundf(float x);
double fmod(double x, double y);
float fmodf(float x, float y);
double copysign(double x, double y);
float copysignf(float x, float y);
double fmin(double x, double y);
float fminf(float x, float y);
double fmax(double x, double y);
float fmaxf(float x, float y);
double ldexp(double x, int exp);
float ldexpf(float x, int exp);
double frexp(double x, int *exp);
float frexpf(float x, int *exp);
double modf(double x, double *iptr);
float modff(float x, float *iptr);

double sin(double x);
double cos(double x);
double tan(double x);
double asin(double x);
double acos(double x);
double atan(double x);
double atan2(double y, double x);
double sinh(double x);
double cosh(double x);
double tanh(double x);
double exp(double x);
double exp2(double x);
double log(double x);
double log2(double x);
double log10(double x);
double pow(double x, double y);
double cbrt(double x);
double hypot(double x, double y);
double expm1(double x);

#endif /* __PHICC_MATH_H */
