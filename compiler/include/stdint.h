/* stdint.h -- phicc's own <stdint.h> (C99 7.18).
 *
 * Why it exists: csmith programs are written in the exact-width types
 * (int8_t .. uint64_t) and csmith's safe_math.h compares their limits in #if
 * (e.g. `#if (INT8_MAX>=INT_MAX)`), so this header is the most used of all.
 *
 * The typedefs are the ones glibc uses on the target, chosen from the data
 * model the preprocessor predefines (__SIZEOF_LONG__, __SIZEOF_POINTER__,
 * __INTMAX_TYPE__, __UINTMAX_TYPE__, __LONG_MAX__, __INT_MAX__, the names gcc
 * predefines): a native build of a program compiled with these headers links
 * against the target's real libc and prints the same thing as one compiled
 * with glibc's headers (printf's %ld vs %lld follows from these choices).
 *   LP64  (x86_64, aarch64, riscv64): int64_t, intptr_t, int_fast16/32/64_t
 *         are long;
 *   ILP32 (i686): int64_t is long long; intptr_t, int_fast16/32_t are int.
 *
 * Invariants: char is 8 bits, short 16, int 32, long long 64, long and
 * pointers both 32 or both 64 (checked below with #error); every limit macro
 * is usable in #if, has the exact value, and has the promoted type of its
 * typedef; INTn_C/UINTn_C give the promoted type of int_leastN_t/uint_leastN_t.
 */
#ifndef __PHICC_STDINT_H
#define __PHICC_STDINT_H

#if !defined(__SIZEOF_LONG__) || !defined(__SIZEOF_POINTER__) || !defined(__INTMAX_TYPE__) \
    || !defined(__UINTMAX_TYPE__) || !defined(__LONG_MAX__) || !defined(__INT_MAX__)
#error "phicc <stdint.h>: the preprocessor must predefine __SIZEOF_LONG__, __SIZEOF_POINTER__, __INTMAX_TYPE__, __UINTMAX_TYPE__, __LONG_MAX__ and __INT_MAX__"
#endif

/* The data model this header knows; anything else is refused loudly rather
 * than given wrong types. */
#if __CHAR_BIT__ != 8 || __SHRT_MAX__ != 0x7fff || __INT_MAX__ != 0x7fffffff \
    || __LONG_LONG_MAX__ != 0x7fffffffffffffff
#error "phicc <stdint.h>: needs 8-bit char, 16-bit short, 32-bit int, 64-bit long long"
#endif
#if __SIZEOF_LONG__ == 8 && __SIZEOF_POINTER__ == 8
#define __PHICC_LP64 1
#elif __SIZEOF_LONG__ == 4 && __SIZEOF_POINTER__ == 4
#define __PHICC_LP64 0
#else
#error "phicc <stdint.h>: needs an LP64 or ILP32 data model"
#endif

/* 7.18.1.1 Exact-width integer types. */
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
#if __PHICC_LP64
typedef long int64_t;
typedef unsigned long uint64_t;
#else
typedef long long int64_t;
typedef unsigned long long uint64_t;
#endif

/* 7.18.1.2 Minimum-width integer types: the exact-width ones. */
typedef int8_t int_least8_t;
typedef int16_t int_least16_t;
typedef int32_t int_least32_t;
typedef int64_t int_least64_t;
typedef uint8_t uint_least8_t;
typedef uint16_t uint_least16_t;
typedef uint32_t uint_least32_t;
typedef uint64_t uint_least64_t;

/* 7.18.1.3 Fastest minimum-width integer types: glibc's choice, the machine
 * word for 16 and 32 bits. */
typedef signed char int_fast8_t;
typedef unsigned char uint_fast8_t;
#if __PHICC_LP64
typedef long int_fast16_t;
typedef long int_fast32_t;
typedef unsigned long uint_fast16_t;
typedef unsigned long uint_fast32_t;
#else
typedef int int_fast16_t;
typedef int int_fast32_t;
typedef unsigned int uint_fast16_t;
typedef unsigned int uint_fast32_t;
#endif
typedef int64_t int_fast64_t;
typedef uint64_t uint_fast64_t;

/* 7.18.1.4 Integer types capable of holding object pointers. */
#if __PHICC_LP64
typedef long intptr_t;
typedef unsigned long uintptr_t;
#else
typedef int intptr_t;
typedef unsigned int uintptr_t;
#endif

/* 7.18.1.5 Greatest-width integer types: 64 bits on every phicc target. */
typedef __INTMAX_TYPE__ intmax_t;
typedef __UINTMAX_TYPE__ uintmax_t;

/* 7.18.4 Macros for integer constants: the promoted type of int_leastN_t. */
#define INT8_C(c) c
#define INT16_C(c) c
#define INT32_C(c) c
#define UINT8_C(c) c
#define UINT16_C(c) c
#define UINT32_C(c) c##U
#if __PHICC_LP64
#define INT64_C(c) c##L
#define UINT64_C(c) c##UL
#else
#define INT64_C(c) c##LL
#define UINT64_C(c) c##ULL
#endif
#define INTMAX_C(c) INT64_C(c)
#define UINTMAX_C(c) UINT64_C(c)

/* 7.18.2.1 Limits of exact-width integer types.  The 8- and 16-bit types
 * promote to int, so their limits are int constants. */
#define INT8_MAX 127
#define INT8_MIN (-INT8_MAX - 1)
#define UINT8_MAX 255
#define INT16_MAX 32767
#define INT16_MIN (-INT16_MAX - 1)
#define UINT16_MAX 65535
#define INT32_MAX 2147483647
#define INT32_MIN (-INT32_MAX - 1)
#define UINT32_MAX 4294967295U
#define INT64_MAX INT64_C(9223372036854775807)
#define INT64_MIN (-INT64_MAX - 1)
#define UINT64_MAX UINT64_C(18446744073709551615)

/* 7.18.2.2 Limits of minimum-width integer types. */
#define INT_LEAST8_MIN INT8_MIN
#define INT_LEAST8_MAX INT8_MAX
#define UINT_LEAST8_MAX UINT8_MAX
#define INT_LEAST16_MIN INT16_MIN
#define INT_LEAST16_MAX INT16_MAX
#define UINT_LEAST16_MAX UINT16_MAX
#define INT_LEAST32_MIN INT32_MIN
#define INT_LEAST32_MAX INT32_MAX
#define UINT_LEAST32_MAX UINT32_MAX
#define INT_LEAST64_MIN INT64_MIN
#define INT_LEAST64_MAX INT64_MAX
#define UINT_LEAST64_MAX UINT64_MAX

/* 7.18.2.3 Limits of fastest minimum-width integer types. */
#define INT_FAST8_MIN INT8_MIN
#define INT_FAST8_MAX INT8_MAX
#define UINT_FAST8_MAX UINT8_MAX
#if __PHICC_LP64
#define INT_FAST16_MAX __LONG_MAX__
#define UINT_FAST16_MAX (__LONG_MAX__ * 2UL + 1UL)
#else
#define INT_FAST16_MAX __INT_MAX__
#define UINT_FAST16_MAX (__INT_MAX__ * 2U + 1U)
#endif
#define INT_FAST16_MIN (-INT_FAST16_MAX - 1)
#define INT_FAST32_MIN INT_FAST16_MIN
#define INT_FAST32_MAX INT_FAST16_MAX
#define UINT_FAST32_MAX UINT_FAST16_MAX
#define INT_FAST64_MIN INT64_MIN
#define INT_FAST64_MAX INT64_MAX
#define UINT_FAST64_MAX UINT64_MAX

/* 7.18.2.4 Limits of integer types capable of holding object pointers, and
 * 7.18.3 limits of other integer types: ptrdiff_t and size_t (<stddef.h>)
 * have the width of a pointer on every phicc target. */
#if __PHICC_LP64
#define INTPTR_MAX __LONG_MAX__
#define UINTPTR_MAX (__LONG_MAX__ * 2UL + 1UL)
#else
#define INTPTR_MAX __INT_MAX__
#define UINTPTR_MAX (__INT_MAX__ * 2U + 1U)
#endif
#define INTPTR_MIN (-INTPTR_MAX - 1)
#define PTRDIFF_MIN INTPTR_MIN
#define PTRDIFF_MAX INTPTR_MAX
#define SIZE_MAX UINTPTR_MAX

/* 7.18.2.5 Limits of greatest-width integer types. */
#define INTMAX_MIN INT64_MIN
#define INTMAX_MAX INT64_MAX
#define UINTMAX_MAX UINT64_MAX

/* 7.18.3 sig_atomic_t is int and wint_t is unsigned int with glibc on every
 * phicc target (neither type is declared here: <signal.h>/<wchar.h>). */
#define SIG_ATOMIC_MIN (-__INT_MAX__ - 1)
#define SIG_ATOMIC_MAX __INT_MAX__
#define WINT_MIN 0U
#define WINT_MAX (__INT_MAX__ * 2U + 1U)

/* wchar_t's signedness and width differ per target (int on x86_64 and
 * riscv64, unsigned int on aarch64, long on i686) and cannot be derived from
 * __WCHAR_TYPE__ in #if, so its limits come from gcc's __WCHAR_MIN__ and
 * __WCHAR_MAX__ when the preprocessor predefines them, and are absent
 * otherwise (nothing phicc compiles uses them). */
#if defined(__WCHAR_MIN__) && defined(__WCHAR_MAX__)
#define WCHAR_MIN __WCHAR_MIN__
#define WCHAR_MAX __WCHAR_MAX__
#endif

#endif /* __PHICC_STDINT_H */
