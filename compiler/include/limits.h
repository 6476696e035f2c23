/* limits.h -- phicc's own <limits.h> (C99 5.2.4.2.1).
 *
 * Why it exists: csmith's runtime headers test INT_MAX and CHAR_BIT (also
 * inside #if) and must not reach the host's libc headers.  Every value is
 * derived from the limits the preprocessor predefines for the target
 * (__CHAR_BIT__, __SCHAR_MAX__, __SHRT_MAX__, __INT_MAX__, __LONG_MAX__,
 * __LONG_LONG_MAX__, __CHAR_UNSIGNED__ -- the names gcc predefines), so the
 * same file is right for LP64 and ILP32 targets and for signed or unsigned
 * plain char.
 *
 * Invariants: every macro is an integer constant expression usable in #if
 * (no casts, no sizeof) whose value is exact there too (no expression
 * wraps); each has the type the standard asks for: the promoted type of the
 * corresponding type, e.g. UCHAR_MAX and USHRT_MAX are int, UINT_MAX is
 * unsigned int, ULONG_MAX unsigned long.  Two's complement is assumed, as on
 * every target phicc has.
 */
#ifndef __PHICC_LIMITS_H
#define __PHICC_LIMITS_H

#if !defined(__CHAR_BIT__) || !defined(__SCHAR_MAX__) || !defined(__SHRT_MAX__) \
    || !defined(__INT_MAX__) || !defined(__LONG_MAX__) || !defined(__LONG_LONG_MAX__)
#error "phicc <limits.h>: the preprocessor must predefine __CHAR_BIT__, __SCHAR_MAX__, __SHRT_MAX__, __INT_MAX__, __LONG_MAX__ and __LONG_LONG_MAX__"
#endif

#define CHAR_BIT __CHAR_BIT__

/* No locales beyond "C": a multibyte character is one byte. */
#define MB_LEN_MAX 1

#define SCHAR_MAX __SCHAR_MAX__
#define SCHAR_MIN (-SCHAR_MAX - 1)
/* int arithmetic: unsigned char promotes to int on every target. */
#define UCHAR_MAX (SCHAR_MAX * 2 + 1)

/* Plain char has the range of unsigned char where __CHAR_UNSIGNED__ is
 * predefined (aarch64, riscv64) and of signed char elsewhere (x86). */
#ifdef __CHAR_UNSIGNED__
#define CHAR_MIN 0
#define CHAR_MAX UCHAR_MAX
#else
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#endif

#define SHRT_MAX __SHRT_MAX__
#define SHRT_MIN (-SHRT_MAX - 1)
/* int arithmetic: unsigned short promotes to int (short is narrower). */
#define USHRT_MAX (SHRT_MAX * 2 + 1)

#define INT_MAX __INT_MAX__
#define INT_MIN (-INT_MAX - 1)
#define UINT_MAX (INT_MAX * 2U + 1U)

#define LONG_MAX __LONG_MAX__
#define LONG_MIN (-LONG_MAX - 1L)
#define ULONG_MAX (LONG_MAX * 2UL + 1UL)

#define LLONG_MAX __LONG_LONG_MAX__
#define LLONG_MIN (-LLONG_MAX - 1LL)
#define ULLONG_MAX (LLONG_MAX * 2ULL + 1ULL)

#endif /* __PHICC_LIMITS_H */
