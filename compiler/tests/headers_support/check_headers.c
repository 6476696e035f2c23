/* check_headers.c -- compile-time checks of phicc's compiler/include headers.
 *
 * Compiled by the real gcc (tests/headers_gcc.rs) with -nostdinc and only
 * compiler/include on the include path, once per data model (-m64, -m32,
 * each with signed and unsigned plain char).  It compiles only if every
 * check holds; nothing is run.
 *
 * Two kinds of expectation, deliberately independent of the headers' own
 * text:
 *   - values written out by hand (INT64_MAX is 0x7fffffffffffffff, ...),
 *     checked in #if, so every limit is also proven usable by the
 *     preprocessor, and again in C, with its type;
 *   - the types and limits gcc itself predefines for the target
 *     (__INT64_TYPE__, __INTPTR_TYPE__, __INT_FAST16_TYPE__, __SIZE_MAX__,
 *     ...), which are the ones glibc uses: matching them is what makes a
 *     program compiled with our headers ABI-compatible with the target's libc.
 *
 * Written in C11 (-std=c11, not -pedantic) for _Static_assert, whose message
 * names the failed condition, and because gcc folds the floating comparisons
 * of <float.h> in it; __builtin_types_compatible_p and __typeof__ are gcc's.
 * The headers themselves are checked to be plain C99 elsewhere.
 */
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) _Static_assert(cond, #cond)
#define SAME_TYPE(a, b) __builtin_types_compatible_p(a, b)
#define HAS_TYPE(expr, type) SAME_TYPE(__typeof__(expr), type)

/* The data model gcc was asked for; everything below follows from it. */
#if __SIZEOF_POINTER__ == 8 && __SIZEOF_LONG__ == 8
#define LP64 1
#elif __SIZEOF_POINTER__ == 4 && __SIZEOF_LONG__ == 4
#define LP64 0
#else
#error "check_headers.c: unexpected data model"
#endif

/* ---- Every limit macro works in #if, with the value written by hand. ---- */

#if CHAR_BIT != 8 || SCHAR_MIN != -128 || SCHAR_MAX != 127 || UCHAR_MAX != 255
#error "char limits"
#endif
#if defined(__CHAR_UNSIGNED__) && (CHAR_MIN != 0 || CHAR_MAX != 255)
#error "CHAR_MIN/CHAR_MAX for unsigned plain char"
#endif
#if !defined(__CHAR_UNSIGNED__) && (CHAR_MIN != -128 || CHAR_MAX != 127)
#error "CHAR_MIN/CHAR_MAX for signed plain char"
#endif
#if SHRT_MIN != -32768 || SHRT_MAX != 32767 || USHRT_MAX != 65535
#error "short limits"
#endif
#if INT_MIN != -2147483647 - 1 || INT_MAX != 2147483647 || UINT_MAX != 4294967295
#error "int limits"
#endif
#if LLONG_MIN != -9223372036854775807 - 1 || LLONG_MAX != 9223372036854775807 \
    || ULLONG_MAX != 18446744073709551615u
#error "long long limits"
#endif
#if LP64 && (LONG_MIN != -9223372036854775807 - 1 || LONG_MAX != 9223372036854775807 \
             || ULONG_MAX != 18446744073709551615u)
#error "LP64 long limits"
#endif
#if !LP64 && (LONG_MIN != -2147483647 - 1 || LONG_MAX != 2147483647 || ULONG_MAX != 4294967295)
#error "ILP32 long limits"
#endif

#if INT8_MIN != -128 || INT8_MAX != 127 || UINT8_MAX != 255
#error "8-bit limits"
#endif
#if INT16_MIN != -32768 || INT16_MAX != 32767 || UINT16_MAX != 65535
#error "16-bit limits"
#endif
#if INT32_MIN != -2147483647 - 1 || INT32_MAX != 2147483647 || UINT32_MAX != 4294967295
#error "32-bit limits"
#endif
#if INT64_MIN != -9223372036854775807 - 1 || INT64_MAX != 0x7fffffffffffffff \
    || UINT64_MAX != 0xffffffffffffffff
#error "64-bit limits"
#endif
#if INT_LEAST8_MIN != INT8_MIN || INT_LEAST8_MAX != INT8_MAX || UINT_LEAST8_MAX != UINT8_MAX \
    || INT_LEAST16_MIN != INT16_MIN || INT_LEAST16_MAX != INT16_MAX                          \
    || UINT_LEAST16_MAX != UINT16_MAX || INT_LEAST32_MIN != INT32_MIN                         \
    || INT_LEAST32_MAX != INT32_MAX || UINT_LEAST32_MAX != UINT32_MAX                         \
    || INT_LEAST64_MIN != INT64_MIN || INT_LEAST64_MAX != INT64_MAX                           \
    || UINT_LEAST64_MAX != UINT64_MAX
#error "least limits"
#endif
#if INT_FAST8_MIN != -128 || INT_FAST8_MAX != 127 || UINT_FAST8_MAX != 255 \
    || INT_FAST64_MIN != INT64_MIN || INT_FAST64_MAX != INT64_MAX || UINT_FAST64_MAX != UINT64_MAX
#error "fast8/fast64 limits"
#endif
#if LP64 && (INT_FAST16_MAX != 0x7fffffffffffffff || UINT_FAST32_MAX != 0xffffffffffffffff \
             || INTPTR_MIN != -0x7fffffffffffffff - 1 || UINTPTR_MAX != 0xffffffffffffffff \
             || SIZE_MAX != 0xffffffffffffffff || PTRDIFF_MAX != 0x7fffffffffffffff)
#error "LP64 fast16/32, pointer and size limits"
#endif
#if !LP64 && (INT_FAST16_MAX != 0x7fffffff || UINT_FAST32_MAX != 0xffffffff \
              || INTPTR_MIN != -0x7fffffff - 1 || UINTPTR_MAX != 0xffffffff \
              || SIZE_MAX != 0xffffffff || PTRDIFF_MAX != 0x7fffffff)
#error "ILP32 fast16/32, pointer and size limits"
#endif
#if INTMAX_MIN != INT64_MIN || INTMAX_MAX != INT64_MAX || UINTMAX_MAX != UINT64_MAX
#error "intmax limits"
#endif
#if INT64_C(0x7fffffffffffffff) != INT64_MAX || UINT64_C(0xffffffffffffffff) != UINT64_MAX \
    || INTMAX_C(-1) != -1 || UINT32_C(4294967295) != UINT32_MAX
#error "INTn_C in #if"
#endif

/* gcc's own predefined limits for the target (the ABI's). */
#if SIZE_MAX != __SIZE_MAX__ || PTRDIFF_MAX != __PTRDIFF_MAX__ || INTPTR_MAX != __INTPTR_MAX__ \
    || UINTPTR_MAX != __UINTPTR_MAX__ || INTMAX_MAX != __INTMAX_MAX__                           \
    || UINTMAX_MAX != __UINTMAX_MAX__ || INT_FAST16_MAX != __INT_FAST16_MAX__                   \
    || INT_FAST32_MAX != __INT_FAST32_MAX__ || UINT_FAST16_MAX != __UINT_FAST16_MAX__           \
    || UINT_FAST32_MAX != __UINT_FAST32_MAX__ || SIG_ATOMIC_MIN != __SIG_ATOMIC_MIN__           \
    || SIG_ATOMIC_MAX != __SIG_ATOMIC_MAX__ || WINT_MIN != __WINT_MIN__                         \
    || WINT_MAX != __WINT_MAX__ || WCHAR_MIN != __WCHAR_MIN__ || WCHAR_MAX != __WCHAR_MAX__
#error "a limit differs from gcc's predefined one"
#endif

/* csmith's safe_math.h compares widths this way. */
#if !(INT8_MAX < INT_MAX) || !(INT16_MAX < INT_MAX) || !(INT32_MAX >= INT_MAX)
#error "csmith's #if (INTn_MAX>=INT_MAX) tests"
#endif

#if FLT_RADIX != 2 || FLT_MANT_DIG != 24 || DBL_MANT_DIG != 53 || FLT_EVAL_METHOD != 0 \
    || FLT_MIN_EXP != -125 || FLT_MAX_EXP != 128 || DBL_MIN_EXP != -1021               \
    || DBL_MAX_EXP != 1024
#error "float.h integer macros"
#endif

#if EXIT_SUCCESS != 0 || EXIT_FAILURE != 1 || EOF != -1
#error "stdlib.h/stdio.h constants"
#endif

/* ---- Sizes and signedness. ---- */

CHECK(sizeof(int8_t) == 1 && sizeof(uint8_t) == 1);
CHECK(sizeof(int16_t) == 2 && sizeof(uint16_t) == 2);
CHECK(sizeof(int32_t) == 4 && sizeof(uint32_t) == 4);
CHECK(sizeof(int64_t) == 8 && sizeof(uint64_t) == 8);
CHECK(sizeof(intptr_t) == sizeof(void *) && sizeof(uintptr_t) == sizeof(void *));
CHECK(sizeof(size_t) == sizeof(void *) && sizeof(ptrdiff_t) == sizeof(void *));
CHECK(sizeof(intmax_t) == 8 && sizeof(uintmax_t) == 8);
CHECK((int8_t)-1 < 0 && (int16_t)-1 < 0 && (int32_t)-1 < 0 && (int64_t)-1 < 0);
CHECK((uint8_t)-1 > 0 && (uint16_t)-1 > 0 && (uint32_t)-1 > 0 && (uint64_t)-1 > 0);
CHECK((intptr_t)-1 < 0 && (uintptr_t)-1 > 0 && (size_t)-1 > 0 && (ptrdiff_t)-1 < 0);
CHECK((intmax_t)-1 < 0 && (uintmax_t)-1 > 0);
CHECK((CHAR_MIN < 0) == ((char)-1 < 0));

/* ---- Every type is the one gcc (and so glibc) uses on the target. ---- */

CHECK(SAME_TYPE(int8_t, __INT8_TYPE__) && SAME_TYPE(uint8_t, __UINT8_TYPE__));
CHECK(SAME_TYPE(int16_t, __INT16_TYPE__) && SAME_TYPE(uint16_t, __UINT16_TYPE__));
CHECK(SAME_TYPE(int32_t, __INT32_TYPE__) && SAME_TYPE(uint32_t, __UINT32_TYPE__));
CHECK(SAME_TYPE(int64_t, __INT64_TYPE__) && SAME_TYPE(uint64_t, __UINT64_TYPE__));
CHECK(SAME_TYPE(int_least8_t, __INT_LEAST8_TYPE__));
CHECK(SAME_TYPE(int_least16_t, __INT_LEAST16_TYPE__));
CHECK(SAME_TYPE(int_least32_t, __INT_LEAST32_TYPE__));
CHECK(SAME_TYPE(int_least64_t, __INT_LEAST64_TYPE__));
CHECK(SAME_TYPE(uint_least8_t, __UINT_LEAST8_TYPE__));
CHECK(SAME_TYPE(uint_least16_t, __UINT_LEAST16_TYPE__));
CHECK(SAME_TYPE(uint_least32_t, __UINT_LEAST32_TYPE__));
CHECK(SAME_TYPE(uint_least64_t, __UINT_LEAST64_TYPE__));
CHECK(SAME_TYPE(int_fast8_t, __INT_FAST8_TYPE__));
CHECK(SAME_TYPE(int_fast16_t, __INT_FAST16_TYPE__));
CHECK(SAME_TYPE(int_fast32_t, __INT_FAST32_TYPE__));
CHECK(SAME_TYPE(int_fast64_t, __INT_FAST64_TYPE__));
CHECK(SAME_TYPE(uint_fast8_t, __UINT_FAST8_TYPE__));
CHECK(SAME_TYPE(uint_fast16_t, __UINT_FAST16_TYPE__));
CHECK(SAME_TYPE(uint_fast32_t, __UINT_FAST32_TYPE__));
CHECK(SAME_TYPE(uint_fast64_t, __UINT_FAST64_TYPE__));
CHECK(SAME_TYPE(intptr_t, __INTPTR_TYPE__) && SAME_TYPE(uintptr_t, __UINTPTR_TYPE__));
CHECK(SAME_TYPE(intmax_t, __INTMAX_TYPE__) && SAME_TYPE(uintmax_t, __UINTMAX_TYPE__));
CHECK(SAME_TYPE(size_t, __typeof__(sizeof(int))));
CHECK(SAME_TYPE(ptrdiff_t, __typeof__((char *)0 - (char *)0)));
CHECK(SAME_TYPE(wchar_t, __typeof__(L'x')));
CHECK(SAME_TYPE(__typeof__(NULL), void *));

/* ---- Every macro has the promoted type of its type (C99 7.18.2p2). ---- */

CHECK(HAS_TYPE(INT8_MIN, int) && HAS_TYPE(INT8_MAX, int) && HAS_TYPE(UINT8_MAX, int));
CHECK(HAS_TYPE(INT16_MIN, int) && HAS_TYPE(INT16_MAX, int) && HAS_TYPE(UINT16_MAX, int));
CHECK(HAS_TYPE(INT32_MIN, int32_t) && HAS_TYPE(INT32_MAX, int32_t));
CHECK(HAS_TYPE(UINT32_MAX, uint32_t));
CHECK(HAS_TYPE(INT64_MIN, int64_t) && HAS_TYPE(INT64_MAX, int64_t));
CHECK(HAS_TYPE(UINT64_MAX, uint64_t));
CHECK(HAS_TYPE(INT_LEAST8_MAX, int) && HAS_TYPE(UINT_LEAST16_MAX, int));
CHECK(HAS_TYPE(INT_LEAST64_MIN, int_least64_t) && HAS_TYPE(UINT_LEAST64_MAX, uint_least64_t));
CHECK(HAS_TYPE(INT_FAST8_MIN, int) && HAS_TYPE(UINT_FAST8_MAX, int));
CHECK(HAS_TYPE(INT_FAST16_MIN, int_fast16_t) && HAS_TYPE(INT_FAST16_MAX, int_fast16_t));
CHECK(HAS_TYPE(UINT_FAST16_MAX, uint_fast16_t));
CHECK(HAS_TYPE(INT_FAST32_MIN, int_fast32_t) && HAS_TYPE(INT_FAST32_MAX, int_fast32_t));
CHECK(HAS_TYPE(UINT_FAST32_MAX, uint_fast32_t));
CHECK(HAS_TYPE(INT_FAST64_MIN, int_fast64_t) && HAS_TYPE(UINT_FAST64_MAX, uint_fast64_t));
CHECK(HAS_TYPE(INTPTR_MIN, intptr_t) && HAS_TYPE(INTPTR_MAX, intptr_t));
CHECK(HAS_TYPE(UINTPTR_MAX, uintptr_t));
CHECK(HAS_TYPE(PTRDIFF_MIN, ptrdiff_t) && HAS_TYPE(PTRDIFF_MAX, ptrdiff_t));
CHECK(HAS_TYPE(SIZE_MAX, size_t));
CHECK(HAS_TYPE(INTMAX_MIN, intmax_t) && HAS_TYPE(INTMAX_MAX, intmax_t));
CHECK(HAS_TYPE(UINTMAX_MAX, uintmax_t));
CHECK(HAS_TYPE(SIG_ATOMIC_MIN, __SIG_ATOMIC_TYPE__) && HAS_TYPE(WINT_MAX, __WINT_TYPE__));
CHECK(HAS_TYPE(WCHAR_MIN, __typeof__(+(wchar_t)0)) && HAS_TYPE(WCHAR_MAX, __typeof__(+(wchar_t)0)));

CHECK(HAS_TYPE(INT8_C(0), int) && HAS_TYPE(INT16_C(0), int) && HAS_TYPE(INT32_C(0), int));
CHECK(HAS_TYPE(INT64_C(0), int64_t) && HAS_TYPE(INTMAX_C(0), intmax_t));
CHECK(HAS_TYPE(UINT8_C(0), int) && HAS_TYPE(UINT16_C(0), int));
CHECK(HAS_TYPE(UINT32_C(0), uint32_t) && HAS_TYPE(UINT64_C(0), uint64_t));
CHECK(HAS_TYPE(UINTMAX_C(0), uintmax_t));

CHECK(HAS_TYPE(CHAR_BIT, int) && HAS_TYPE(SCHAR_MIN, int) && HAS_TYPE(UCHAR_MAX, int));
CHECK(HAS_TYPE(CHAR_MIN, int) && HAS_TYPE(CHAR_MAX, int));
CHECK(HAS_TYPE(SHRT_MIN, int) && HAS_TYPE(USHRT_MAX, int));
CHECK(HAS_TYPE(INT_MIN, int) && HAS_TYPE(INT_MAX, int) && HAS_TYPE(UINT_MAX, unsigned int));
CHECK(HAS_TYPE(LONG_MIN, long) && HAS_TYPE(LONG_MAX, long));
CHECK(HAS_TYPE(ULONG_MAX, unsigned long));
CHECK(HAS_TYPE(LLONG_MIN, long long) && HAS_TYPE(LLONG_MAX, long long));
CHECK(HAS_TYPE(ULLONG_MAX, unsigned long long));

/* The limits are the extreme values of their types: all ones for the
 * unsigned types, all ones but the sign bit for the signed ones. */
CHECK((uint8_t)-1 == UINT8_MAX && (uint16_t)-1 == UINT16_MAX);
CHECK((uint32_t)-1 == UINT32_MAX && (uint64_t)-1 == UINT64_MAX);
CHECK((size_t)-1 == SIZE_MAX && (uintptr_t)-1 == UINTPTR_MAX && (uintmax_t)-1 == UINTMAX_MAX);
CHECK((uint_fast16_t)-1 == UINT_FAST16_MAX && (uint_fast32_t)-1 == UINT_FAST32_MAX);
CHECK((unsigned char)-1 == UCHAR_MAX && (unsigned short)-1 == USHRT_MAX);
CHECK((unsigned)-1 == UINT_MAX && (unsigned long)-1 == ULONG_MAX);
CHECK((unsigned long long)-1 == ULLONG_MAX);
CHECK(INT64_MAX == (int64_t)(UINT64_MAX >> 1) && INTPTR_MAX == (intptr_t)(UINTPTR_MAX >> 1));
CHECK(INT_FAST16_MAX == (int_fast16_t)(UINT_FAST16_MAX >> 1));
CHECK(PTRDIFF_MAX == (ptrdiff_t)(SIZE_MAX >> 1) && LONG_MAX == (long)(ULONG_MAX >> 1));

/* ---- <stddef.h>'s offsetof is a size_t constant. ---- */

struct offsets {
    char c;
    int i;
    double d[3];
};
CHECK(offsetof(struct offsets, c) == 0);
CHECK(offsetof(struct offsets, i) == sizeof(int));
CHECK(offsetof(struct offsets, d[2]) == offsetof(struct offsets, d) + 2 * sizeof(double));
CHECK(HAS_TYPE(offsetof(struct offsets, i), size_t));

/* ---- <float.h>: IEEE-754 binary32/binary64, equal to gcc's values. ---- */

CHECK(FLT_MAX == __FLT_MAX__ && FLT_MIN == __FLT_MIN__ && FLT_EPSILON == __FLT_EPSILON__);
CHECK(DBL_MAX == __DBL_MAX__ && DBL_MIN == __DBL_MIN__ && DBL_EPSILON == __DBL_EPSILON__);
CHECK(HAS_TYPE(FLT_MAX, float) && HAS_TYPE(FLT_MIN, float) && HAS_TYPE(FLT_EPSILON, float));
CHECK(HAS_TYPE(DBL_MAX, double) && HAS_TYPE(DBL_MIN, double) && HAS_TYPE(DBL_EPSILON, double));
CHECK(FLT_DIG == __FLT_DIG__ && DBL_DIG == __DBL_DIG__);
CHECK(FLT_MIN_10_EXP == __FLT_MIN_10_EXP__ && FLT_MAX_10_EXP == __FLT_MAX_10_EXP__);
CHECK(DBL_MIN_10_EXP == __DBL_MIN_10_EXP__ && DBL_MAX_10_EXP == __DBL_MAX_10_EXP__);
CHECK(DECIMAL_DIG == __DBL_DECIMAL_DIG__ && FLT_ROUNDS == 1);
/* By hand: 1 + epsilon is the next value after 1 (2^-23, 2^-52), the
 * smallest normal is 2^(MIN_EXP - 1) and the largest finite value is
 * (2 - epsilon) * 2^(MAX_EXP - 1).  Powers of two are written as hex floats:
 * gcc's -m32 excess precision would round a decimal spelling differently. */
CHECK(FLT_EPSILON == 1.0f / 8388608.0f && DBL_EPSILON == 1.0 / 4503599627370496.0);
CHECK(FLT_MIN * 0x1p126f == 1.0f && DBL_MIN * 0x1p1022 == 1.0);
CHECK(FLT_MAX == (2.0f - FLT_EPSILON) * 0x1p127f && DBL_MAX == (2.0 - DBL_EPSILON) * 0x1p1023);

/* ---- Function declarations have glibc's types. ---- */

CHECK(SAME_TYPE(__typeof__(printf), int(const char *, ...)));
CHECK(SAME_TYPE(__typeof__(puts), int(const char *)));
CHECK(SAME_TYPE(__typeof__(putchar), int(int)));
CHECK(SAME_TYPE(__typeof__(abort), void(void)) && SAME_TYPE(__typeof__(exit), void(int)));
CHECK(SAME_TYPE(__typeof__(malloc), void *(size_t)));
CHECK(SAME_TYPE(__typeof__(calloc), void *(size_t, size_t)));
CHECK(SAME_TYPE(__typeof__(free), void(void *)));
CHECK(SAME_TYPE(__typeof__(memcpy), void *(void *, const void *, size_t)));
CHECK(SAME_TYPE(__typeof__(memmove), void *(void *, const void *, size_t)));
CHECK(SAME_TYPE(__typeof__(memset), void *(void *, int, size_t)));
CHECK(SAME_TYPE(__typeof__(memcmp), int(const void *, const void *, size_t)));
CHECK(SAME_TYPE(__typeof__(strcmp), int(const char *, const char *)));
CHECK(SAME_TYPE(__typeof__(strncmp), int(const char *, const char *, size_t)));
CHECK(SAME_TYPE(__typeof__(strlen), size_t(const char *)));
CHECK(SAME_TYPE(__typeof__(fabs), double(double)) && SAME_TYPE(__typeof__(fabsf), float(float)));
CHECK(SAME_TYPE(__typeof__(ldexp), double(double, int)));
CHECK(SAME_TYPE(__typeof__(ldexpf), float(float, int)));

/* ---- <assert.h> is a void expression, and NDEBUG turns it off. ---- */

CHECK(HAS_TYPE(assert(1), void));
#define NDEBUG
#include <assert.h>
CHECK(HAS_TYPE(assert(1), void));
/* With NDEBUG the argument is not even evaluated: an lvalue that is not
 * modifiable would be rejected by ++ if it were expanded. */
CHECK(sizeof(assert(++*(const int *)0), 1) == sizeof(int));
#undef NDEBUG
#include <assert.h>
CHECK(HAS_TYPE(assert(1), void));
