#include "test.h"

static int classify(int x) {
    switch (x) {
    case 0:
        return 10;
    case 1:
    case 2:
        return 20;
    case -5:
        return 30;
    case 1000000:
        return 40;
    default:
        return 50;
    }
}

static int fall(int x) {
    int r = 0;
    switch (x) {
    case 1: r += 1;
    case 2: r += 2;
    case 3: r += 3; break;
    case 4: r += 4;
    }
    return r;
}

int main(void) {
    ASSERT(10, classify(0));
    ASSERT(20, classify(1));
    ASSERT(20, classify(2));
    ASSERT(30, classify(-5));
    ASSERT(40, classify(1000000));
    ASSERT(50, classify(3));
    ASSERT(6, fall(1));
    ASSERT(5, fall(2));
    ASSERT(3, fall(3));
    ASSERT(4, fall(4));
    ASSERT(0, fall(5));
    {
        int s = 0;
        for (int i = 0; i < 6; i++) {
            switch (i & 3) {
            default: s += 100; break;
            case 0: continue;
            case 1: s += 1;
            }
            s += 1000;
        }
        ASSERT(4202, s);
    }
    {
        int r = 0;
        switch (3) {
            r = 99;
        case 3:
            r += 1;
        }
        ASSERT(1, r);
        switch (7) {
        case 1: r = 5;
        }
        ASSERT(1, r);
        unsigned char c = 200;
        switch (c) {
        case 200: r = 2; break;
        case -56: r = 3; break;
        }
        ASSERT(2, r);
        long long big = 1LL << 33;
        switch (big) {
        case 0: r = 0; break;
        case 1LL << 33: r = 33; break;
        }
        ASSERT(33, r);
    }
    printf("OK\n");
    return 0;
}
