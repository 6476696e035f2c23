/* gcc's predefined type macros (__INT_LEAST8_TYPE__, __UINT_FAST32_TYPE__, __SIZE_TYPE__,
 * ...): each macro names a type of the target, which this file identifies as an index in
 * the list of integer types below and prints. The expected indices are each target's
 * gcc's (`TARGET-gcc -dM -E - </dev/null`; `phihunt check` compares every target's run
 * with that target's gcc -O0), e.g. __INT_FAST16_TYPE__ is long (6) on x86_64, aarch64
 * and riscv64, int (4) on i686; __WCHAR_TYPE__ is unsigned int (5) on aarch64, long (6)
 * on i686. c-torture's pr42833.c uses two of them. */
#include <stdio.h>

#define INDEX_OF(T)                                                                    \
    (__builtin_types_compatible_p(T, signed char)          ? 0                        \
     : __builtin_types_compatible_p(T, unsigned char)      ? 1                        \
     : __builtin_types_compatible_p(T, short)              ? 2                        \
     : __builtin_types_compatible_p(T, unsigned short)     ? 3                        \
     : __builtin_types_compatible_p(T, int)                ? 4                        \
     : __builtin_types_compatible_p(T, unsigned int)       ? 5                        \
     : __builtin_types_compatible_p(T, long)               ? 6                        \
     : __builtin_types_compatible_p(T, unsigned long)      ? 7                        \
     : __builtin_types_compatible_p(T, long long)          ? 8                        \
     : __builtin_types_compatible_p(T, unsigned long long) ? 9                        \
                                                           : -1)

#define SHOW(M) printf("%-22s => %d\n", #M, INDEX_OF(M))

int main(void) {
    SHOW(__INT8_TYPE__);
    SHOW(__INT16_TYPE__);
    SHOW(__INT32_TYPE__);
    SHOW(__INT64_TYPE__);
    SHOW(__UINT8_TYPE__);
    SHOW(__UINT16_TYPE__);
    SHOW(__UINT32_TYPE__);
    SHOW(__UINT64_TYPE__);
    SHOW(__INT_LEAST8_TYPE__);
    SHOW(__INT_LEAST16_TYPE__);
    SHOW(__INT_LEAST32_TYPE__);
    SHOW(__INT_LEAST64_TYPE__);
    SHOW(__UINT_LEAST8_TYPE__);
    SHOW(__UINT_LEAST16_TYPE__);
    SHOW(__UINT_LEAST32_TYPE__);
    SHOW(__UINT_LEAST64_TYPE__);
    SHOW(__INT_FAST8_TYPE__);
    SHOW(__INT_FAST16_TYPE__);
    SHOW(__INT_FAST32_TYPE__);
    SHOW(__INT_FAST64_TYPE__);
    SHOW(__UINT_FAST8_TYPE__);
    SHOW(__UINT_FAST16_TYPE__);
    SHOW(__UINT_FAST32_TYPE__);
    SHOW(__UINT_FAST64_TYPE__);
    SHOW(__INTPTR_TYPE__);
    SHOW(__UINTPTR_TYPE__);
    SHOW(__INTMAX_TYPE__);
    SHOW(__UINTMAX_TYPE__);
    SHOW(__SIZE_TYPE__);
    SHOW(__PTRDIFF_TYPE__);
    SHOW(__WCHAR_TYPE__);
    SHOW(__WINT_TYPE__);
    SHOW(__CHAR16_TYPE__);
    SHOW(__CHAR32_TYPE__);
    SHOW(__SIG_ATOMIC_TYPE__);
    return 0;
}
