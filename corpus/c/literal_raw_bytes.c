/* Raw source bytes >= 0x80 that are not UTF-8, inside literals, keep their byte value
 * (gcc copies them verbatim); phicc once replaced them by U+FFFD (3 bytes): wrong code.
 * The literals below hold the raw bytes 0xFF, 0x80, 0xE9 and 0xFE (not escapes); the
 * casts make every line mean the same whether plain char is signed or not. */
#include "test.h"

static const char table[] = "ÿ€é";

int main(void) {
    const char *s = "aÿ€z";
    ASSERT(4, strlen(s));
    ASSERT(-1, (signed char)s[1]);
    ASSERT(128, (unsigned char)s[2]);
    ASSERT(122, s[3]);
    ASSERT(3, sizeof("ÿþ"));
    ASSERT(255, (unsigned char)"ÿ"[0]);
    ASSERT(-1, (signed char)'ÿ');
    ASSERT(233, (unsigned char)'é');
    ASSERT(4, sizeof(table));
    ASSERT(-128, (signed char)table[1]);
    ASSERT(233, (unsigned char)table[2]);
    /* valid UTF-8 stays its bytes: U+00E9 is C3 A9 */
    ASSERT(3, sizeof("Ã©"));
    ASSERT(195, (unsigned char)"Ã©"[0]);
    ASSERT(169, (unsigned char)"Ã©"[1]);
    return 0;
}
