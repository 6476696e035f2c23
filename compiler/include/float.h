/* float.h -- phicc's own <float.h> (C99 5.2.4.2.2).
 *
 * Why it exists: csmith's safe_math.h guards float and double arithmetic
 * against overflow with FLT_MAX and DBL_MAX.  float and double are IEEE-754
 * binary32 and binary64 on every phicc target, so the values are fixed
 * constants, written as hexadecimal floating constants (exact by
 * construction; the lexer needs hex floats anyway for safe_math.h).
 *
 * Invariants: C99 values for binary32/binary64 with round-to-nearest;
 * FLT_EVAL_METHOD is 0 because phicc evaluates every float operation in its
 * own type, also on i686 (a gcc reference build for i686 must then use
 * -msse2 -mfpmath=sse, since gcc's x87 default is FLT_EVAL_METHOD 2).
 * long double is not supported by phicc, so there are no LDBL_* macros and
 * DECIMAL_DIG describes double.
 */
#ifndef __PHICC_FLOAT_H
#define __PHICC_FLOAT_H

#define FLT_RADIX 2
/* Round to nearest; constant because phicc has no fesetround. */
#define FLT_ROUNDS 1
#define FLT_EVAL_METHOD 0
#define DECIMAL_DIG 17

#define FLT_MANT_DIG 24
#define FLT_DIG 6
#define FLT_MIN_EXP (-125)
#define FLT_MIN_10_EXP (-37)
#define FLT_MAX_EXP 128
#define FLT_MAX_10_EXP 38
#define FLT_MAX 0x1.fffffep+127F
#define FLT_EPSILON 0x1p-23F
#define FLT_MIN 0x1p-126F

#define DBL_MANT_DIG 53
#define DBL_DIG 15
#define DBL_MIN_EXP (-1021)
#define DBL_MIN_10_EXP (-307)
#define DBL_MAX_EXP 1024
#define DBL_MAX_10_EXP 308
#define DBL_MAX 0x1.fffffffffffffp+1023
#define DBL_EPSILON 0x1p-52
#define DBL_MIN 0x1p-1022

#endif /* __PHICC_FLOAT_H */
