/* Blue paint and rescanning. */
#define foo foo + 1
#define AA BB
#define BB AA
#define f(x) x f
#define g f(g)
foo AA BB f(1)(2) g
#define id(x) x
#define q id(q)
id(q) id(id(id(3)))
#define LPAREN (
#define fn(x) [x]
fn LPAREN 1) fn
(2)
#define EMPTY
fn EMPTY (3)
#define ALIAS fn
ALIAS(4) ALIAS
(5)
/* Arguments: parentheses, commas, empty and multi-line ones. */
#define first(a, b) a
#define second(a, b) b
first((1, 2), 3) second(, x) second(
  y,
  z
)
#define two(a, b) <a|b>
two(,) two( , ) two((,),(,))
#define z() zero
z() z( ) z/**/()
/* Variadic macros and GNU comma elision. */
#define v(a, ...) a:__VA_ARGS__:
v(1) v(1,) v(1, 2, 3) v((a, b), (c, d))
#define e(fmt, ...) p(fmt, ## __VA_ARGS__)
e("a") e("a", 1) e("a", 1, 2)
#define named(first, rest...) first + rest
named(1, 2, 3)
/* Stringizing. */
#define s(x) #x
#define xs(x) s(x)
s(  a   +
    b  ) s(a+b) s("q\"uote" '\'' "\\") s( /* c */ x /* c */ y ) xs(foo) xs(__STDC__)
s(@) s(a ## b) s(#) s(()) s(L"wide")
/* Pasting. */
#define cat(a, b) a ## b
#define xcat(a, b) cat(a, b)
cat(x, 1) cat(+, =) cat(<<, =) cat(1, e5) cat(., 5) cat(u, 8) cat(a b, c d) cat(, x) cat(x, ) cat(,)
#define xy 42
cat(x, y) xcat(x, y)
#define three(a, b, c) a ## b ## c
three(1, 2, 3) three(, , 4) three(-, -, )
#define P a ## b
P
#define hash #
#define mk(x) hash x
mk(define)
/* Nested expansions through arguments. */
#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
ADD(MUL(1, 2), ADD(3, MUL(4, 5)))
#define APPLY(m, x) m(x)
APPLY(id, 6) APPLY(s, 7) APPLY(APPLY, id)
#define CALL(x) x(8)
CALL(id) CALL(CALL)
#define recur(x) x recur
recur(recur)(9)
#define obj (obj + fobj(1))
#define fobj(x) (x + obj)
obj fobj(2)
