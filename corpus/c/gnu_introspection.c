/* Builtins the parser answers from types and constants (GNU C): __builtin_classify_type
 * (the operand is never evaluated), __builtin_choose_expr (the other operand is dropped,
 * never evaluated), __func__ and __FUNCTION__ / __PRETTY_FUNCTION__; and <stdbool.h>.
 * Expected values from gcc 12 -O0 (x86_64). */
#include "test.h"
#include <stdbool.h>

enum colour { RED, GREEN };
struct pair { int a : 3; long long b : 40; char c; } pair;
union either { int i; char c; } either;
int numbers[3];
static int side_effects;
static void noop(void) {}

/* At file scope: __builtin_choose_expr in a static initializer. */
int chosen_at_file_scope = __builtin_choose_expr(sizeof(int) == 4, 40, 80);

static const char *name_of_this_function(void) { return __func__; }

int main(void) {
    char c = 0;
    double d = 0;
    float f = 0;
    int *p = 0;
    bool yes = true;
    ASSERT(1, __builtin_classify_type(0));
    ASSERT(1, __builtin_classify_type(c));
    ASSERT(1, __builtin_classify_type(RED));
    ASSERT(1, __builtin_classify_type((enum colour)1));
    ASSERT(1, __builtin_classify_type(yes));
    ASSERT(1, __builtin_classify_type(pair.a));
    ASSERT(1, __builtin_classify_type(pair.b));
    ASSERT(5, __builtin_classify_type(p));
    ASSERT(5, __builtin_classify_type(numbers));
    ASSERT(5, __builtin_classify_type("text"));
    ASSERT(5, __builtin_classify_type(noop));
    ASSERT(8, __builtin_classify_type(d));
    ASSERT(8, __builtin_classify_type(f));
    ASSERT(12, __builtin_classify_type(pair));
    ASSERT(13, __builtin_classify_type(either));
    ASSERT(1, __builtin_classify_type(side_effects++));
    ASSERT(0, side_effects);
    ASSERT(40, chosen_at_file_scope);
    ASSERT(7, __builtin_choose_expr(1, 7, side_effects++));
    ASSERT(0, side_effects);
    ASSERT(1, sizeof(__builtin_choose_expr(0, c, p)) == sizeof(p));
    ASSERT(1, sizeof(__builtin_choose_expr(2, c, p)));
    ASSERT(0, strcmp(__func__, "main"));
    ASSERT(0, strcmp(__FUNCTION__, "main"));
    ASSERT(0, strcmp(__PRETTY_FUNCTION__, "main"));
    ASSERT(5, sizeof(__func__));
    ASSERT(0, strcmp(name_of_this_function(), "name_of_this_function"));
    ASSERT(1, yes);
    ASSERT(0, false);
    ASSERT(1, __bool_true_false_are_defined);
    ASSERT(1, sizeof(bool));
    return 0;
}
