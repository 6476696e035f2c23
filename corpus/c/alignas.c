/* Declared alignments (C11 6.7.5 `_Alignas`, `_Alignof`; gcc's `aligned` attribute on
 * objects and functions): a file-scope, static, automatic and scalar object, struct
 * members, `_Alignas(type-name)`, and what `__alignof__` of an object or a function
 * designator answers. Each line is compared with each target's gcc -O0 (`phihunt check`):
 * `_Alignof(long long)` and `_Alignof` of a struct with a `_Alignas(double)` member are 4
 * on i686 (the ABI alignment, where `__alignof__` of an object is 8); `__alignof__` of a
 * function without the attribute is gcc's function boundary (1 on x86, 4 on aarch64, 2 on
 * riscv64). c-torture's pr68532.c and align-3.c use these. */
#include <stdio.h>

unsigned short _Alignas(32) in[128];
unsigned short __attribute__((aligned(64))) in2[3];
char c1;
struct S { char c; _Alignas(16) int x; } s;
struct T { char c; _Alignas(double) char d; };
struct U { _Alignas(0) char c; char d; };
void f(void) __attribute__((aligned(256)));
void f(void) {}
void g(void) {}
void h(void) __attribute__((aligned(32)));
void h(void) {}

int main(void) {
    static char _Alignas(64) loc[3];
    char _Alignas(32) auto_[3];
    _Alignas(16) int scalar = 5;
    int plain = 3;
    long long ll = 1;
    printf("in: %d %d\n", (int)__alignof__(in), (int)((unsigned long)in % 32));
    printf("in2: %d %d\n", (int)__alignof__(in2), (int)((unsigned long)in2 % 64));
    printf("struct S: %d %d %d\n", (int)sizeof(struct S), (int)__alignof__(struct S),
           (int)((char *)&s.x - (char *)&s));
    printf("struct T: %d %d\n", (int)_Alignof(struct T), (int)sizeof(struct T));
    printf("struct U: %d %d\n", (int)_Alignof(struct U), (int)sizeof(struct U));
    printf("static: %d %d\n", (int)__alignof__(loc), (int)((unsigned long)loc % 64));
    printf("auto: %d %d\n", (int)__alignof__(auto_), (int)((unsigned long)auto_ % 32));
    printf("scalar: %d %d %d\n", (int)__alignof__(scalar), (int)((unsigned long)&scalar % 16),
           scalar + plain);
    printf("functions: %d %d %d %d %d\n", (int)__alignof__(f), (int)__alignof__(g),
           (int)__alignof__(h), (int)((unsigned long)f % 256), (int)((unsigned long)h % 32));
    printf("long long: %d %d\n", (int)_Alignof(long long), (int)__alignof__(ll));
    return 0;
}
