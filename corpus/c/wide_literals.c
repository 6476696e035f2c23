/* Wide character constants and wide string literals (L'x', L"..."): wchar_t is the
 * target's (int on x86_64 and riscv64, long on i686, unsigned int on aarch64), its
 * characters are code points; adjacent narrow and wide literals make a wide one.
 * Expected values from gcc 12 (x86_64); the signedness line differs per target and is
 * printed, not asserted (stdout is compared with each target's gcc). */
#include "test.h"
#include <stddef.h>

wchar_t global_text[] = L"h\u00e9!";
const wchar_t braced[5] = { L"ab" };
wchar_t sized[2] = L"xy";

int main(void) {
    wchar_t local[] = L"wide" "r";
    const wchar_t *p = L"a" "bc" L"d";
    ASSERT(97, L'a');
    ASSERT(256, L'\400');
    ASSERT(255, L'\377');
    ASSERT(0x1234, L'\x1234');
    ASSERT(98, L'ab');
    ASSERT(4, sizeof(L'a'));
    ASSERT(4, sizeof(wchar_t));
    ASSERT(12, sizeof(L"ab"));
    ASSERT(16, sizeof(global_text));
    ASSERT(0xe9, global_text[1]);
    ASSERT(33, global_text[2]);
    ASSERT(0, global_text[3]);
    ASSERT(20, sizeof(braced));
    ASSERT(98, braced[1]);
    ASSERT(0, braced[4]);
    ASSERT(121, sized[1]);
    ASSERT(24, sizeof(local));
    ASSERT(114, local[4]);
    ASSERT(0, local[5]);
    ASSERT(99, p[2]);
    ASSERT(100, p[3]);
    ASSERT(0, p[4]);
    ASSERT(98, (L"a" "b")[1]);
    ASSERT(1, __builtin_strlen((const char *)L"abc"));
    ASSERT(0, ((long)L"xyz" & 3));
#if L'\400' != 256
    ASSERT(0, 1);
#endif
    printf("signed wchar_t: %d\n", L'\xffffffff' < 0);
    printf("L'\\xffffffff' >> 31: %d\n", (int)(L'\xffffffff' >> 31));
    return 0;
}
