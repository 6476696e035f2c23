/* `scalar_storage_order("big-endian")` on a little-endian target (lowering/
 * reverse_order.rs): values read through the members are unchanged, the bytes seen
 * through memcpy / a char pointer are big-endian; nested records keep their own order;
 * bit-fields are numbered from the most significant end of their unit (c-torture's
 * pr86659-1.c shape). Expected bytes by hand for big-endian storage; gcc 12 -O0 on
 * x86_64 confirms every one. */
#include "test.h"

struct native {
    unsigned short h;
};

struct __attribute__((scalar_storage_order("big-endian"))) be {
    unsigned short s;
    unsigned int i;
    unsigned long long q;
    unsigned char bytes[2];
    struct native inner;
    int neg;
};

typedef struct __attribute__((scalar_storage_order("big-endian"))) {
    unsigned long long field0 : 29;
    unsigned long long field1 : 4;
    unsigned long long field2 : 31;
} bits;

struct __attribute__((scalar_storage_order("big-endian"))) small_bits {
    unsigned int a : 3;
    signed int b : 5;
    unsigned int c : 24;
};

static struct be global_be = {0x1234, 0x01020304, 0x1122334455667788ULL, {9, 8}, {0xabcd}, -2};

static unsigned char image[32];

static void take(const void *p, unsigned long n) {
    memcpy(image, p, n);
}

int main(void) {
    struct be x;
    memset(&x, 0, sizeof x);
    x.s = 0x1234;
    x.i = 0x01020304;
    x.q = 0x1122334455667788ULL;
    x.bytes[0] = 5;
    x.bytes[1] = 6;
    x.inner.h = 0xabcd;
    x.neg = -2;
    ASSERT(0x1234, x.s);
    ASSERT(0x01020304, x.i);
    ASSERT(0x1122334455667788ULL, x.q);
    ASSERT(-2, x.neg);
    ASSERT(0xabcd, x.inner.h);
    take(&x, sizeof x);
    ASSERT(0x12, image[0]);
    ASSERT(0x34, image[1]);
    ASSERT(0x01, image[4]);
    ASSERT(0x04, image[7]);
    ASSERT(0x11, image[8]);
    ASSERT(0x88, image[15]);
    ASSERT(5, image[16]);
    ASSERT(6, image[17]);
    /* The nested native record keeps the little-endian order. */
    ASSERT(0xcd, image[18]);
    ASSERT(0xab, image[19]);
    ASSERT(0xff, image[20]);
    ASSERT(0xfe, image[23]);

    /* Compound assignment and increments read, swap and write back. */
    x.i += 0x10;
    x.s++;
    --x.q;
    x.neg *= 3;
    ASSERT(0x01020314, x.i);
    ASSERT(0x1235, x.s);
    ASSERT(0x1122334455667787ULL, x.q);
    ASSERT(-6, x.neg);
    take(&x, sizeof x);
    ASSERT(0x35, image[1]);
    ASSERT(0x14, image[7]);
    ASSERT(0x87, image[15]);
    ASSERT(0xfa, image[23]);

    /* Static and automatic initialisers. */
    take(&global_be, sizeof global_be);
    ASSERT(0x12, image[0]);
    ASSERT(0x34, image[1]);
    ASSERT(0x01, image[4]);
    ASSERT(0x04, image[7]);
    ASSERT(0x11, image[8]);
    ASSERT(0x88, image[15]);
    ASSERT(9, image[16]);
    ASSERT(0xcd, image[18]);
    ASSERT(0xfe, image[23]);
    ASSERT(0x1122334455667788ULL, global_be.q);
    struct be local = {0x5678, 0xa0b0c0d0, 7, {1, 2}, {0x0102}, -1};
    take(&local, sizeof local);
    ASSERT(0x56, image[0]);
    ASSERT(0xa0, image[4]);
    ASSERT(0xd0, image[7]);
    ASSERT(0x07, image[15]);
    ASSERT(0x02, image[18]);
    ASSERT(0xa0b0c0d0, local.i);

    /* Bit-fields: field0 in the top 29 bits of the big-endian 8-byte unit. */
    bits b = {0};
    b.field0 = 23;
    ASSERT(23, b.field0);
    ASSERT(0, b.field1);
    ASSERT(0, b.field2);
    take(&b, sizeof b);
    ASSERT(0x00, image[0]);
    ASSERT(0x00, image[2]);
    ASSERT(0xb8, image[3]);
    ASSERT(0x00, image[4]);
    b.field2 = 0x40000001;
    b.field1 = 9;
    ASSERT(0x40000001, b.field2);
    ASSERT(9, b.field1);
    ASSERT(23, b.field0);
    take(&b, sizeof b);
    ASSERT(0xbc, image[3]);
    ASSERT(0xc0, image[4]);
    ASSERT(0x00, image[6]);
    ASSERT(0x01, image[7]);
    bits c = {5, 3, 7};
    take(&c, sizeof c);
    ASSERT(0x29, image[3]);
    ASSERT(0x80, image[4]);
    ASSERT(0x07, image[7]);
    struct small_bits sb = {0};
    sb.a = 5;
    sb.b = -3;
    sb.c = 0x123456;
    ASSERT(5, sb.a);
    ASSERT(-3, sb.b);
    ASSERT(0x123456, sb.c);
    sb.b += 1;
    ASSERT(-2, sb.b);
    take(&sb, sizeof sb);
    ASSERT(0xbe, image[0]);
    ASSERT(0x12, image[1]);
    ASSERT(0x56, image[3]);
    return 0;
}
