#include "test.h"

static int sum(int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static int grid_sum(int g[][3], int rows) {
    int s = 0;
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < 3; j++)
            s += g[i][j];
    return s;
}

int main(void) {
    int a[3];
    a[0] = 1; a[1] = 2; a[2] = 3;
    ASSERT(6, sum(a, 3));
    ASSERT(12, sizeof(a));
    ASSERT(3, sizeof(a) / sizeof(a[0]));
    int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    ASSERT(24, sizeof(m));
    ASSERT(12, sizeof(m[0]));
    ASSERT(6, m[1][2]);
    ASSERT(4, *m[1]);
    ASSERT(5, *(*(m + 1) + 1));
    ASSERT(21, grid_sum(m, 2));
    {
        int cube[2][2][2];
        int n = 0;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int k = 0; k < 2; k++)
                    cube[i][j][k] = n++;
        ASSERT(7, cube[1][1][1]);
        ASSERT(5, cube[1][0][1]);
        ASSERT(5, ((int *)cube)[5]);
    }
    {
        int big[100];
        for (int i = 0; i < 100; i++)
            big[i] = i * i;
        ASSERT(9801, big[99]);
        ASSERT(328350, sum(big, 100));
    }
    {
        char s[] = "hello";
        ASSERT(6, sizeof(s));
        ASSERT(104, s[0]);
        ASSERT(0, s[5]);
        int (*row)[3] = m;
        ASSERT(4, row[1][0]);
        ASSERT(12, sizeof(*row));
    }
    printf("OK\n");
    return 0;
}
