#include "test.h"

union word {
    unsigned int u;
    unsigned char bytes[4];
    short halves[2];
};

struct tagged {
    int kind;
    union { int i; char c; long long ll; } v;
};

int main(void) {
    union word w;
    ASSERT(4, sizeof(w));
    w.u = 0x11223344;
    /* Little-endian x86_64. */
    ASSERT(0x44, w.bytes[0]);
    ASSERT(0x11, w.bytes[3]);
    ASSERT(0x3344, w.halves[0]);
    w.bytes[0] = 0xff;
    ASSERT(0x112233ff, w.u);
    struct tagged t;
    t.kind = 1;
    t.v.ll = -1;
    ASSERT(-1, t.v.i);
    ASSERT(-1, t.v.c);
    ASSERT(16, sizeof(struct tagged));
    union { char c[5]; int i; } odd;
    ASSERT(8, sizeof(odd));
    union word init = {0x01020304};
    ASSERT(4, init.bytes[0]);
    printf("OK\n");
    return 0;
}
