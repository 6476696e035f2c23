/* __builtin_types_compatible_p (c-torture builtin-types-compatible-p.c): two different
 * enumerated types are not compatible, although phicc computes with both as their
 * integer type; an enumerated type is compatible with that integer type (unsigned int
 * for gcc when no value is negative, int otherwise); enumeration constants are int.
 * Top-level qualifiers are ignored. Expected values are gcc -O0's. */
#include "test.h"

typedef enum { hot, dog, poo, bear } dingos;
typedef enum { janette, laura, amanda } cranberry;
enum signed_one { minus = -1, plus = 1 };
enum tagged { t0, t1 };
typedef dingos dingos_again;
typedef enum tagged tagged_t;
typedef dingos *dingos_ptr;

int i;
dingos d;

int main(void) {
    ASSERT(1, __builtin_types_compatible_p(int, const int));
    ASSERT(1, __builtin_types_compatible_p(__typeof__(hot), int));
    ASSERT(1, __builtin_types_compatible_p(__typeof__(hot), __typeof__(laura)));
    ASSERT(0, __builtin_types_compatible_p(dingos, cranberry));
    ASSERT(0, __builtin_types_compatible_p(__typeof__(dingos), __typeof__(cranberry)));
    ASSERT(1, __builtin_types_compatible_p(dingos, dingos_again));
    ASSERT(1, __builtin_types_compatible_p(dingos, unsigned int));
    ASSERT(0, __builtin_types_compatible_p(dingos, int));
    ASSERT(1, __builtin_types_compatible_p(enum signed_one, int));
    ASSERT(1, __builtin_types_compatible_p(enum tagged, tagged_t));
    ASSERT(0, __builtin_types_compatible_p(enum tagged, dingos));
    ASSERT(1, __builtin_types_compatible_p(const volatile enum tagged, tagged_t));
    ASSERT(1, __builtin_types_compatible_p(dingos_ptr, dingos *));
    ASSERT(1, __builtin_types_compatible_p(int[5], int[]));
    ASSERT(0, __builtin_types_compatible_p(char *, const char *));
    ASSERT(0, __builtin_types_compatible_p(char, int));
    {
        /* An inner typedef of another type hides the outer enum: unsigned int is
         * compatible with cranberry (whose integer type is unsigned int). */
        typedef unsigned int dingos;
        ASSERT(1, __builtin_types_compatible_p(dingos, cranberry));
        ASSERT(0, __builtin_types_compatible_p(dingos, int));
    }
    /* Arithmetic keeps the enums as their integer type. */
    d = bear;
    ASSERT(3, d + laura - 1);
    return 0;
}
