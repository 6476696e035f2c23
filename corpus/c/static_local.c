#include "test.h"

static int next_id(void) {
    static int id = 100;
    return id++;
}

static int *remember(void) {
    static int slot;
    return &slot;
}

static int calls(int reset) {
    static int n;
    if (reset)
        n = 0;
    return ++n;
}

int main(void) {
    ASSERT(100, next_id());
    ASSERT(101, next_id());
    ASSERT(102, next_id());
    *remember() = 17;
    ASSERT(17, *remember());
    ASSERT(1, remember() == remember());
    ASSERT(1, calls(0));
    ASSERT(2, calls(0));
    ASSERT(1, calls(1));
    {
        static char buf[4] = "ab";
        buf[2]++;
        ASSERT(1, buf[2]);
        static const char *names[] = {"x", "yy"};
        ASSERT(121, names[1][1]);
    }
    printf("OK\n");
    return 0;
}
