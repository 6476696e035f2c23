#include "test.h"

#pragma pack(push, 1)
struct packed {
    char a;
    int b;
    short c;
};
#pragma pack(pop)

#pragma pack(2)
struct two {
    char a;
    int b;
};
#pragma pack()

struct normal {
    char a;
    int b;
    short c;
};

int main(void) {
    ASSERT(7, sizeof(struct packed));
    ASSERT(12, sizeof(struct normal));
    ASSERT(6, sizeof(struct two));
    struct packed p;
    p.a = 1;
    p.b = 0x12345678;
    p.c = -2;
    ASSERT(1, (char *)&p.b - (char *)&p);
    ASSERT(5, (char *)&p.c - (char *)&p);
    ASSERT(0x12345678, p.b);
    ASSERT(-2, p.c);
    struct packed arr[2];
    ASSERT(14, sizeof(arr));
    arr[1].b = 77;
    ASSERT(77, arr[1].b);
    struct two t = {3, 4};
    ASSERT(2, (char *)&t.b - (char *)&t);
    ASSERT(7, t.a + t.b);
    printf("OK\n");
    return 0;
}
