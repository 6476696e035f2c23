<: :> <% %> %:%: a+++++b x...y .. -> <<= >>= != == && || ^= |= &= %= ## #
0x1p-3 1.5e+10 .5 1. 0XaBcDeF 0777 42ULL 42lu 1e10f 0x1.8p1L
'a' '\n' '\x41' '\101' '\'' '"' "str\"ing" "tab\tq" "" "a" "b"
ide\
ntifier "str\
ing" 1\
2 /\
/ comment
/\
* block comment */ after
a/**/b/* multi
line */c // line comment \
continued comment
%:define DIGRAPH_DEF 1
DIGRAPH_DEF
  #  define SPACED   x  y
SPACED
# /* null directive */
#
$dollar a$b
