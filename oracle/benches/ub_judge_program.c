/* A csmith-like workload for benches/ub_judge.rs: globals, arrays of structs, pointer
   walks, nested blocks with locals (lifetime markers), signed int and long arithmetic
   (overflow checks), array member indexing (bounds checks), pointer comparisons and
   differences within one array, and a checksum printed at the end. UB-free: every
   signed operation stays in range (values are masked), every index is in bounds. */
#include <stdio.h>
#include <stdint.h>

struct S0 { int f0; long f1; short f2[4]; unsigned f3; };

static struct S0 g_arr[16];
static int g_tab[8][8];
static long g_acc = 1;
static uint32_t crc = 0xFFFFFFFFu;

static void crc_byte(unsigned char b) {
    crc ^= b;
    for (int k = 0; k < 8; k++) {
        unsigned mask = -(crc & 1u);
        crc = (crc >> 1) ^ (0xEDB88320u & mask);
    }
}

static int mix(int a, int b) {
    int x = (a & 0xffff) * (b & 0x7fff);
    int y = (a >> 3) - (b & 0xfff);
    return (x ^ y) & 0x3fffffff;
}

static long step(struct S0 *s, int i) {
    long r = s->f1 + (long)(i & 0xff) * 3;
    {
        int t = s->f0 % 1000;
        short *p = &s->f2[0];
        short *end = &s->f2[4];
        for (; p < end; p++) {
            int v = *p + t;
            *p = (short)(v & 0x3fff);
        }
        r += end - &s->f2[0];
    }
    s->f1 = r & 0xfffffffL;
    s->f3 = s->f3 * 1664525u + 1013904223u;
    return r;
}

int main(void) {
    for (int i = 0; i < 16; i++) {
        g_arr[i].f0 = i * 7;
        g_arr[i].f1 = i;
        for (int j = 0; j < 4; j++)
            g_arr[i].f2[j] = (short)(i + j);
        g_arr[i].f3 = (unsigned)i;
    }
    for (int round = 0; round < 300; round++) {
        for (int i = 0; i < 16; i++) {
            struct S0 *s = &g_arr[i];
            int m = mix(s->f0 + round, i + 1);
            s->f0 = m % 100000;
            g_acc = (g_acc + step(s, round)) & 0xffffffffL;
            {
                int r = (round + i) & 7, c = (i * 3) & 7;
                int cell = g_tab[r][c];
                g_tab[r][c] = (cell + m) & 0xfffff;
            }
        }
    }
    for (int i = 0; i < 16; i++) {
        crc_byte((unsigned char)g_arr[i].f0);
        crc_byte((unsigned char)g_arr[i].f1);
        crc_byte((unsigned char)g_arr[i].f3);
        for (int j = 0; j < 4; j++)
            crc_byte((unsigned char)g_arr[i].f2[j]);
    }
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            crc_byte((unsigned char)g_tab[r][c]);
    crc_byte((unsigned char)g_acc);
    printf("checksum = %X\n", crc ^ 0xFFFFFFFFu);
    return 0;
}
