/* float_data.c -- floats in memory and across calls: struct members, arrays, unions,
 * globals and static initializers (constant expressions folded as the target computes
 * them: each operation in its type, round-to-nearest-even), integer constant expressions
 * with a float cast, float parameters and results, default argument promotion
 * (variadic and unprototyped calls), va_arg(ap, double), the exact math.h functions,
 * division by zero (Annex F: IEEE, defined), gcc's float builtins and predefined macros.
 * Expected output: gcc -O0 on the host (`phihunt check` compares every stage). */
#include <stdio.h>
#include <stdarg.h>
#include <math.h>
#include <float.h>

struct point { float x; double y; int tag; };
union bits { double d; unsigned long long u; float f; unsigned w; };

static double table[4] = {1.5, -2.25, 1e300 * 10, 0x1p-1074 / 2};
static float ftable[] = {0.1f, 1.0f / 3, 16777217, (float)0.1};
static struct point origin = {1.25f, 2.0 / 3.0, 7};
static const double folded = 0.1 + 0.2;
static const float folded_f = 0.1f + 0.2f;
static int from_cast[(int)2.5] = {(int)-1.9, (int)3.99};
static unsigned char small = (unsigned char)255.5;
double global_d;
float global_f = -0.0f;

static double sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) {
        if (i % 2)
            s += va_arg(ap, int);
        else
            s += va_arg(ap, double);
    }
    va_end(ap);
    return s;
}

static double old_style();
static double old_style(x, y) float x; double y; { return x + y; }

static float scale(float v, int k) { return v * k; }
static double mix(float a, double b, float c, double d, int e, float f, double g, float h,
                  double i, float j) {
    return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10;
}

int main(void) {
    struct point p = origin;
    p.x += 1;
    p.y *= 3;
    struct point q = {p.x * 2, p.y / 2};
    printf("%a %a %d | %a %a %d\n", (double)p.x, p.y, p.tag, (double)q.x, q.y, q.tag);
    double arr[5] = {1, 2.5};
    for (int i = 2; i < 5; i++)
        arr[i] = arr[i - 1] * arr[i - 2];
    printf("%g %g %g %g %g\n", arr[0], arr[1], arr[2], arr[3], arr[4]);
    union bits b;
    b.d = -1.5;
    printf("%llx\n", b.u);
    b.f = 1.0f;
    printf("%x\n", b.w);
    printf("%a %a %a %a\n", table[0], table[1], table[2], table[3]);
    printf("%a %a %a %a\n", ftable[0], ftable[1], ftable[2], ftable[3]);
    printf("%a %a %d %a\n", folded, (double)folded_f, (int)sizeof from_cast, (double)small);
    printf("%d %d %d\n", from_cast[0], from_cast[1], small);
    printf("%a %a\n", global_d, (double)global_f);
    global_d = 1e-320;
    global_f = global_d;
    printf("%a %a\n", global_d, (double)global_f);
    printf("%g\n", sum(4, 1.5, 2, 0.25f, 3));
    printf("%g\n", old_style(1.5f, 2.25));
    printf("%a\n", (double)scale(1.1f, 3));
    printf("%.17g\n", mix(1, 2, 3, 4, 5, 6, 7, 8, 9, 10.5f));
    {
        double z = 0;
        printf("%f %f %d\n", 1 / z, -1 / z, (0 / z) != (0 / z));
    }
    printf("%g %g %g %g %g\n", sqrt(2.0), sqrtf(2.0f), fabs(-3.5), floor(-2.5), ceil(-2.5));
    printf("%g %g %g %g\n", trunc(-2.7), round(2.5), round(-0.5), roundf(1.5f));
    printf("%g %g %g\n", fmod(7.5, 2), fmod(-7.5, 2), fmodf(5.5f, 1.5f));
    printf("%g %g %g %g\n", copysign(3, -0.0), fmin(1, 2), fmax(1, 2), fminf(-1, 3));
    printf("%a %a %a\n", ldexp(1.5, 10), ldexp(1.0, -1074), ldexpf(1.0f, -149));
    {
        int e;
        double m = frexp(48.0, &e);
        double ip;
        double frac = modf(-3.75, &ip);
        float fip;
        float ffrac = modff(2.5f, &fip);
        printf("%g %d %g %g %g %g\n", m, e, frac, ip, ffrac, fip);
    }
    printf("%d %d %d\n", isnan(0.0 / table[2] * 0), isinf(table[2]), isfinite(1.0));
    printf("%g %g %a\n", FLT_EPSILON, DBL_EPSILON, HUGE_VAL);
    printf("%f %f %d %d\n", __builtin_inf(), (double)-__builtin_inff(),
           __builtin_nan("") != __builtin_nan(""), __builtin_huge_valf() == __builtin_huge_val());
    printf("%a %a %d %d\n", __DBL_MAX__, (double)__FLT_MIN__, __DBL_MANT_DIG__, __FLT_EVAL_METHOD__);
    printf("%g %g\n", __builtin_fabs(-2.5), __builtin_copysign(1.0, -0.0));
    return 0;
}
