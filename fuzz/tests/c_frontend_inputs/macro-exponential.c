/* An exponential #define chain (2^40 tokens): refused by the preprocessor's
   expansion budget (it ran for minutes and gigabytes when the budget was 200M).
   Expect error: macro expansion too large */
#define a0 x
#define a1 a0 a0
#define a2 a1 a1
#define a3 a2 a2
#define a4 a3 a3
#define a5 a4 a4
#define a6 a5 a5
#define a7 a6 a6
#define a8 a7 a7
#define a9 a8 a8
#define a10 a9 a9
#define a11 a10 a10
#define a12 a11 a11
#define a13 a12 a12
#define a14 a13 a13
#define a15 a14 a14
#define a16 a15 a15
#define a17 a16 a16
#define a18 a17 a17
#define a19 a18 a18
#define a20 a19 a19
#define a21 a20 a20
#define a22 a21 a21
#define a23 a22 a22
#define a24 a23 a23
#define a25 a24 a24
#define a26 a25 a25
#define a27 a26 a26
#define a28 a27 a27
#define a29 a28 a28
#define a30 a29 a29
#define a31 a30 a30
#define a32 a31 a31
#define a33 a32 a32
#define a34 a33 a33
#define a35 a34 a34
#define a36 a35 a35
#define a37 a36 a36
#define a38 a37 a37
#define a39 a38 a38
#define a40 a39 a39
int a40;
