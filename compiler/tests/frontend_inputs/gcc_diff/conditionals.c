#define ZERO 0
#define ONE 1
#define X 3
#define EMPTY
#define SQ(x) ((x) * (x))
#define DEF defined(X)
#if -1 > 0u
u1
#endif
#if -1 > 0
bad1
#endif
#if 0xffffffffffffffff == -1 && 18446744073709551615u == -1
u2
#endif
#if (0u - 1) / 2 == 0x7fffffffffffffff
u3
#endif
#if 7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1 && 7 % -2 == 1
div
#endif
#if 1 << 63 < 0 && 1u << 63 > 0 && -16 >> 2 == -4
shifts
#endif
#if (1 ? -1 : 0u) > 0 && (1 ? -1 : 0) < 0
cond
#endif
#if 0 && 1 / 0 || 1
shortcut
#endif
#if 0 ? 1 / 0 : 2
ternary_skip
#endif
#if 'A' == 65 && '\n' == 10 && '\377' < 0 && 'ab' == 24930
chars
#endif
#if defined X && defined(EMPTY) && !defined Y && DEF
defs
#endif
#if SQ(X) == 9 && UNDEFINED == 0 && ONE + ONE == 2
exprs
#endif
#if ZERO
bad2
#elif ONE
elif1
#elif 1 / 0
bad3
#else
bad4
#endif
#ifdef X
#if 0
#if garbage (
#endif
#error not reached
#else
nested
#endif
#endif
#ifndef ONE
bad5
#else
ifndef_else
#endif
#if (((((((((((1)))))))))))
parens
#endif
#if 1 ? 2 : 3 ? 4 : 5
chain
#endif
#if (0, 1)
comma
#endif
#if 0
don't mind 'this
#unknown_directive
#endif
#if __STDC__ && __STDC_VERSION__ == 199901L
stdc
#endif
__LINE__ __FILE__
#line 200
__LINE__
