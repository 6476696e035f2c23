/* `scalar_storage_order("little-endian")` is the native order of every phicc target, so
 * such a record is an ordinary one (parse/storage_order.rs; gcc agrees): members,
 * bit-fields (c-torture's pr86659-2.c shape) and the bytes in memory are as without the
 * attribute. Expected values by hand for a little-endian target; gcc -O0 confirms. */
#include "test.h"

typedef struct __attribute__((scalar_storage_order("little-endian"))) {
    unsigned long long field0 : 29;
    unsigned long long field1 : 4;
    unsigned long long field2 : 31;
} bits;

struct __attribute__((scalar_storage_order("little-endian"))) le {
    unsigned short pad[1];
    unsigned char a;
    unsigned int word;
};

union __attribute__((scalar_storage_order("little-endian"))) view {
    unsigned int word;
    unsigned char bytes[4];
};

int main(void) {
    bits b = {0};
    b.field0 = 23;
    b.field2 = 0x40000001;
    ASSERT(23, b.field0);
    ASSERT(0, b.field1);
    ASSERT(0x40000001, b.field2);
    ASSERT(8, sizeof(bits));
    struct le x = {{0x1234}, 7, 0x01020304};
    unsigned char *raw = (unsigned char *)&x;
    ASSERT(0x34, raw[0]);
    ASSERT(0x12, raw[1]);
    ASSERT(0x04, raw[4]);
    ASSERT(0x01, raw[7]);
    unsigned int *w = &x.word;
    ASSERT(0x01020304, *w);
    union view v;
    v.word = 0xa1b2c3d4;
    ASSERT(0xd4, v.bytes[0]);
    ASSERT(0xa1, v.bytes[3]);
    return 0;
}
