#include "test.h"

typedef int myint;
typedef myint *intptr;
typedef struct { int x, y; } point;
typedef struct node node;
struct node { int v; node *next; };
typedef int arr3[3];
typedef int (*binop)(int, int);
typedef unsigned char byte;

static int mul(int a, int b) { return a * b; }

int main(void) {
    myint a = 3;
    intptr p = &a;
    ASSERT(3, *p);
    point pt = {1, 2};
    ASSERT(3, pt.x + pt.y);
    node n2 = {2, 0}, n1 = {1, &n2};
    ASSERT(2, n1.next->v);
    arr3 x = {4, 5, 6};
    ASSERT(12, sizeof(arr3));
    ASSERT(6, x[2]);
    binop f = mul;
    ASSERT(42, f(6, 7));
    byte b = 300;
    ASSERT(44, b);
    {
        typedef long myint; /* shadows the outer typedef */
        myint big = 1;
        ASSERT(8, sizeof(big));
    }
    ASSERT(4, sizeof(myint));
    {
        int myint = 9; /* an ordinary identifier hides the typedef name */
        ASSERT(9, myint);
    }
    printf("OK\n");
    return 0;
}
