/* float_printf.c -- printf's floating conversions, byte for byte as glibc prints them:
 * every conversion of %f %F %e %E %g %G %a %A with flags, widths and precisions over a
 * table of values (signed zeros, infinities, denormals, extremes, halfway cases, large
 * and small exponents).  NaNs are printed only through isnan-free paths whose sign is
 * fixed by the program (fneg of a NaN), so the output is the same on every target.
 * Expected output: gcc -O0 on the host (`phihunt check` compares every stage). */
#include <stdio.h>
#include <float.h>

static const char *formats[] = {
    "%f", "%F", "%e", "%E", "%g", "%G", "%a", "%A",
    "%.0f", "%.1f", "%.3f", "%.20f", "%#.0f", "%+f", "% f", "%012.4f", "%-12.2f|",
    "%.0e", "%.2e", "%#.0e", "%+.3E", "%015.3e", "%-14e|", "%.17e",
    "%.0g", "%.1g", "%.3g", "%.10g", "%#g", "%#.3g", "%+g", "%012g", "%-12g|", "%.17g",
    "%.0a", "%.1a", "%.3a", "%.20a", "%#a", "%+a", "%020a", "%-20a|", "%#.0A",
    "%10.3f|", "%*.*f|", "%lf", "%.40f", "%.60e",
};

int main(void) {
    double zero = 0.0;
    double values[] = {
        0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 0.125, 0.1, 1.0 / 3.0, 2.0 / 3.0,
        123456789.0, 1e15, 1e16, 1e21, 1e-5, 1e-4, 0.0001234, 9.9999999,
        0.05, 0.15, 0.25, 0.35, 1.25, 1e100, -1e-100, 3.14159265358979,
        DBL_MAX, DBL_MIN, DBL_MIN / 4, 0x1p-1074, -0x1.fffffffffffffp-1023,
        FLT_MAX, FLT_MIN, 0x1.08p0, 0x1.18p0, 0x1.fffffffffffff8p0, 999999.5, 0.000099999,
        1.0 / zero, -1.0 / zero, -(zero / zero) * 0 + 1, 
    };
    int nv = sizeof values / sizeof values[0];
    int nf = sizeof formats / sizeof formats[0];
    for (int f = 0; f < nf; f++) {
        for (int v = 0; v < nv; v++) {
            if (formats[f][1] == '*')
                printf(formats[f], 14, 3, values[v]);
            else
                printf(formats[f], values[v]);
            putchar(v + 1 < nv ? ' ' : '\n');
        }
    }
    {
        char buf[128];
        int n = sprintf(buf, "%.3f|%g|%e|%a", 2.0 / 3.0, 1e-10, 12345.678, 1.0);
        printf("%d %s\n", n, buf);
        float fl = 0.1f;
        printf("%f %.10f %g %a\n", fl, fl, fl, fl);
    }
    return 0;
}
