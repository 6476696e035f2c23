/* Variable-length arrays (parse/vla.rs, lowering/vla.rs -> `stacksave`, `dynalloca`,
 * `stackrestore`): the length is evaluated once where the declaration is reached, the
 * storage is freed whenever the scope is left - at the block's end, by `break`,
 * `continue`, a `goto` out of it or backwards to before the declaration - so loops of
 * 3000 x 16 KiB never overflow an 8 MiB stack natively. Expected values by hand; gcc -O0
 * confirms. */
#include "test.h"

struct pair { int a; char b; };

static int sum(int n, int a[n]) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

static long loop_with_jumps(int rounds, int len) {
    long total = 0;
    for (int i = 0; i < rounds; i++) {
        int v[len];
        v[0] = i;
        v[len - 1] = 1;
        if (i % 2)
            continue;
        total += v[0] + v[len - 1];
        if (i == rounds - 1)
            break;
    }
    return total;
}

static int goto_back(int rounds) {
    int n = 0, last = 0;
again:;
    int x[n % 1000 + 4096];
    x[0] = n;
    x[n % 1000] = 2;
    last = x[0];
    n++;
    if (n < rounds)
        goto again;
    return last;
}

static int goto_out(int rounds) {
    int kept = 0;
    int outer[rounds + 1];
    outer[rounds] = 7;
    for (int i = 0; i < rounds; i++) {
        {
            char inner[16384];
            char big[i + 16384];
            big[i] = 1;
            inner[0] = big[i];
            if (inner[0])
                goto next;
        }
    next:
        kept += outer[rounds];
    }
    return kept;
}

static int switch_break(int k) {
    int r = 0;
    for (int i = 0; i < 3000; i++) {
        switch (k) {
        case 1: {
            int w[4096 + i];
            w[i] = i;
            r = w[i];
            break;
        }
        default:
            r = -1;
        }
    }
    return r;
}

static int matrix(int n) {
    int m[n][3];
    struct pair p[n];
    for (int i = 0; i < n; i++) {
        m[i][0] = i;
        m[i][2] = 2 * i;
        p[i].a = i;
        p[i].b = 'x';
    }
    return m[n - 1][0] + m[n - 1][2] + p[n - 1].a + p[0].b;
}

int main(void) {
    int n = 5;
    int evaluated = 0;
    int a[n++ + (evaluated++, 0)];
    ASSERT(6, n);
    ASSERT(1, evaluated);
    for (int i = 0; i < 5; i++)
        a[i] = i + 1;
    ASSERT(15, sum(5, a));
    ASSERT(1500 * 1499 + 1500, loop_with_jumps(3000, 4096));
    ASSERT(2999, goto_back(3000));
    ASSERT(7 * 3000, goto_out(3000));
    ASSERT(2999, switch_break(1));
    ASSERT(-1, switch_break(2));
    ASSERT(9 * 3 + 9 + 'x', matrix(10));
    return 0;
}
