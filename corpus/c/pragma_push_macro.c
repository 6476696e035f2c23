/* #pragma push_macro / pop_macro as gcc implements them: push saves a macro's definition
 * (or that it is undefined), pop restores it; a pop with nothing saved changes nothing.
 * phicc once ignored both pragmas and kept the redefinition in force: wrong code. */
#include "test.h"

#define X 1
#define F(a) ((a) + 10)

static int before(void) { return X; }

#pragma push_macro("X")
#undef X
#define X 2
static int inside(void) { return X; }
#pragma push_macro("X")
#define X 3 /* a redefinition warning, as in gcc */
static int deeper(void) { return X; }
#pragma pop_macro("X")
static int after_one_pop(void) { return X; }
#pragma pop_macro("X")
static int after(void) { return X; }
#pragma pop_macro("X") /* nothing saved: X stays 1 */
static int extra_pop(void) { return X; }

#pragma push_macro("F")
#undef F
#define F(a) ((a) * 100)
static int f_inside(void) { return F(2); }
#pragma pop_macro("F")

/* Saving a macro that is not defined: pop undefines it again. */
#pragma push_macro("Y")
#define Y 7
static int y_inside(void) { return Y; }
#pragma pop_macro("Y")
#ifdef Y
static int y_after(void) { return 1; }
#else
static int y_after(void) { return 0; }
#endif

int main(void) {
    ASSERT(1, before());
    ASSERT(2, inside());
    ASSERT(3, deeper());
    ASSERT(2, after_one_pop());
    ASSERT(1, after());
    ASSERT(1, extra_pop());
    ASSERT(200, f_inside());
    ASSERT(12, F(2));
    ASSERT(7, y_inside());
    ASSERT(0, y_after());
    return 0;
}
