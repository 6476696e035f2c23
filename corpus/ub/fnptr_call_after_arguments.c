// ub: BadCall @9
// A call through a pointer of the wrong function type (C11 6.5.2.2p9) whose arguments
// are all evaluated: the call happens, and is undefined.
static int seven(void) { return 7; }
static void nothing(void) {}
int main(void) {
    long (*f)(int) = (long (*)(int))nothing;
    int x = seven();
    f(seven() + x);
    return 0;
}
