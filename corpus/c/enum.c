#include "test.h"

enum color { RED, GREEN, BLUE };
enum sparse { A = 5, B, C = 20, D, E = -1, F };
enum { ANON_X = 1 << 4, ANON_Y = ANON_X * 2 };
typedef enum { NORTH = 1, SOUTH = NORTH + 1 } direction;

static int weight(enum color c) {
    switch (c) {
    case RED: return 1;
    case GREEN: return 10;
    case BLUE: return 100;
    }
    return 0;
}

int main(void) {
    ASSERT(0, RED);
    ASSERT(1, GREEN);
    ASSERT(2, BLUE);
    ASSERT(6, B);
    ASSERT(21, D);
    ASSERT(-1, E);
    ASSERT(0, F);
    ASSERT(16, ANON_X);
    ASSERT(32, ANON_Y);
    ASSERT(2, SOUTH);
    enum color c = BLUE;
    ASSERT(100, weight(c));
    ASSERT(111, weight(RED) + weight(GREEN) + weight(BLUE));
    ASSERT(4, sizeof(enum color));
    ASSERT(4, sizeof(RED));
    direction d = SOUTH;
    ASSERT(2, d);
    int arr[BLUE + 1];
    ASSERT(12, sizeof(arr));
    printf("OK\n");
    return 0;
}
