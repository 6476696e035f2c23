/* Library functions called with no declaration and no header, as old c-torture tests
 * do: gcc gives each its real prototype (a builtin), so `malloc`'s pointer result and
 * `strlen`'s size_t survive on LP64, and `memset`'s size argument is a size_t. phicc
 * does the same (frontend/parse/builtins.rs), with the implicit-declaration warning. */

static char text[] = "implicit";

int main(void) {
    char *copy = malloc(sizeof text);
    if (copy == 0)
        abort();
    memcpy(copy, text, sizeof text);
    if (strlen(copy) != 8)
        abort();
    memset(copy, 'x', 3);
    if (strcmp(copy, "xxxlicit") != 0)
        abort();
    if (abs(-4) != 4 || labs(-5L) != 5 || llabs(-6LL) != 6)
        abort();
    printf("%s %d\n", copy, (int)strlen(copy));
    free(copy);
    exit(0);
}
