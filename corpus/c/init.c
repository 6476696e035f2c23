#include "test.h"

struct pt { int x, y; };
struct line { struct pt a, b; int width; };

static int g_arr[5] = {1, 2, 3};
static struct pt g_pt = {.y = 7};
static struct line g_line = {{1, 2}, .b.x = 9, .width = 3};
static char g_str[8] = "hi";
static char *g_ptr_str = "world";
static int g_matrix[2][3] = {1, 2, 3, 4};
static int g_desig[6] = {[4] = 40, [1] = 10, 11};
static int g_unsized[] = {5, 6, 7, 8};
static int *g_addr = &g_arr[2];
static struct pt g_pts[] = {{1, 2}, [3] = {7, 8}};

int main(void) {
    ASSERT(3, g_arr[2]);
    ASSERT(0, g_arr[4]);
    ASSERT(0, g_pt.x);
    ASSERT(7, g_pt.y);
    ASSERT(2, g_line.a.y);
    ASSERT(9, g_line.b.x);
    ASSERT(0, g_line.b.y);
    ASSERT(3, g_line.width);
    ASSERT(105, g_str[1]);
    ASSERT(0, g_str[7]);
    ASSERT(114, g_ptr_str[2]);
    ASSERT(4, g_matrix[1][0]);
    ASSERT(0, g_matrix[1][2]);
    ASSERT(10, g_desig[1]);
    ASSERT(11, g_desig[2]);
    ASSERT(40, g_desig[4]);
    ASSERT(0, g_desig[5]);
    ASSERT(16, sizeof(g_unsized));
    ASSERT(3, *g_addr);
    ASSERT(4, sizeof(g_pts) / sizeof(g_pts[0]));
    ASSERT(8, g_pts[3].y);
    ASSERT(0, g_pts[2].x);
    {
        int a[4] = {1, 2};
        ASSERT(2, a[1]);
        ASSERT(0, a[3]);
        int z[3] = {0};
        ASSERT(0, z[2]);
        struct pt p = {3};
        ASSERT(3, p.x);
        ASSERT(0, p.y);
        struct pt q = {.y = 5, .x = 6};
        ASSERT(6, q.x);
        ASSERT(5, q.y);
        struct line l = {.b = {8, 9}};
        ASSERT(0, l.a.x);
        ASSERT(9, l.b.y);
        int m[2][2] = {{1}, {3, 4}};
        ASSERT(0, m[0][1]);
        ASSERT(3, m[1][0]);
        char s[] = "abc";
        ASSERT(4, sizeof(s));
        char t[6] = "ab";
        ASSERT(0, t[5]);
        char u[3] = "xyz"; /* no room for the NUL: allowed in C */
        ASSERT(122, u[2]);
        int d[] = {[2] = 5, 6};
        ASSERT(4, sizeof(d) / sizeof(int));
        ASSERT(6, d[3]);
        int n = 4;
        int e = n * 2, f = e + 1;
        ASSERT(9, f);
        struct pt arr[2] = {1, 2, 3, 4};
        ASSERT(4, arr[1].y);
        const char *words[] = {"one", "two", "three"};
        ASSERT(116, words[2][0]);
        ASSERT(3, (int)strlen(words[1]));
    }
    printf("OK\n");
    return 0;
}
