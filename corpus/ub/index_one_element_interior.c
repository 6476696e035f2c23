// ub: IndexOutOfBounds @12
// A one-element array that is not the last member of its struct: `p->tag[1]` is outside
// the array (C11 6.5.6p8), and gcc's "trailing one-element array" latitude does not apply
// (index_one_element_interior_ok.c has the trailing cases gcc defines).
#include <stdio.h>
#include <stdlib.h>
struct rec { char tag[1]; char more[7]; int n; };
int one = 1;
int main(void) {
    struct rec *p = malloc(sizeof *p);
    p->more[0] = 5;
    printf("%d\n", p->tag[one]);
    free(p);
    return 0;
}
