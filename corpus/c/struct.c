#include "test.h"

struct point { int x, y; };
struct rect { struct point min, max; char tag; };
struct node { int value; struct node *next; };

static int area(struct rect r) {
    return (r.max.x - r.min.x) * (r.max.y - r.min.y);
}

static struct point make_point(int x, int y) {
    struct point p;
    p.x = x;
    p.y = y;
    return p;
}

int main(void) {
    struct point p;
    p.x = 3;
    p.y = 4;
    ASSERT(7, p.x + p.y);
    ASSERT(8, sizeof(struct point));
    struct rect r = {{1, 2}, {4, 6}, 'r'};
    ASSERT(12, area(r));
    ASSERT(20, sizeof(struct rect));
    ASSERT(114, r.tag);
    struct point q = make_point(5, 6);
    ASSERT(11, q.x + q.y);
    struct point c = q;
    c.x = 100;
    ASSERT(5, q.x);
    ASSERT(100, c.x);
    struct point *pp = &p;
    pp->x = 30;
    ASSERT(30, p.x);
    ASSERT(4, (*pp).y);
    {
        struct node n3 = {3, 0};
        struct node n2 = {2, &n3};
        struct node n1 = {1, &n2};
        int s = 0;
        for (struct node *n = &n1; n; n = n->next)
            s = s * 10 + n->value;
        ASSERT(123, s);
        ASSERT(16, sizeof(struct node));
    }
    {
        struct { char a; int b; char c; } padded;
        ASSERT(12, sizeof(padded));
        struct { char a; char b; short c; } tight;
        ASSERT(4, sizeof(tight));
        struct { char a; long long b; } wide;
        ASSERT(16, sizeof(wide));
        ASSERT(8, (char *)&wide.b - (char *)&wide);
        ASSERT(4, (char *)&padded.b - (char *)&padded.a);
    }
    {
        struct point arr[3] = {{1, 2}, {3, 4}, {5, 6}};
        ASSERT(24, sizeof(arr));
        ASSERT(6, arr[2].y);
        struct point *e = arr + 1;
        ASSERT(3, e->x);
        arr[0] = arr[2];
        ASSERT(5, arr[0].x);
    }
    printf("OK\n");
    return 0;
}
