// The defined twin of index_one_element_interior.c: the "struct hack" with a trailing
// one-element array, undefined in ISO C (C11 6.5.6p8) but handled by gcc "analogously to
// zero-length arrays" (gcc manual, "Arrays of Length Zero"), which the UB judge follows
// for an object reached through a pointer (compiler/src/lowering/trailing_arrays.rs):
// indexing, a pointer derived from the member, a union member at the end of the struct
// (c-torture's pr41395-2.c) and a trailing member of a union member (pr41463.c). Every
// access stays inside the malloc'ed block, which the oracle still checks.
#include <stdio.h>
#include <stdlib.h>
struct vec { unsigned n; short v[1]; };
struct uvec { unsigned n; union { short v[1]; struct { int i, j, k; } a; } u; };
struct inner { int len; void *items[1]; };
union node { struct inner in; int other[14]; };
int main(void) {
    struct vec *p = malloc(sizeof *p + 16 * sizeof(short));
    for (int i = 0; i < 8; i++)
        p->v[i] = (short)(3 * i);
    short *q = p->v;
    q[5] += 100;
    printf("%d %d %d\n", p->v[7], q[5], *(p->v + 6));
    struct uvec *u = malloc(sizeof *u + 64);
    u->u.v[16] = 42;
    printf("%d\n", u->u.v[16]);
    union node *nd = malloc(sizeof *nd);
    nd->in.items[3] = nd;
    printf("%d\n", nd->in.items[3] == (void *)nd);
    free(nd);
    free(u);
    free(p);
    return 0;
}
