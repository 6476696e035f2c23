// The defined twin of unsequenced_assign.c: every modification is separated from the
// other accesses to its object by a sequence point, or is the only access besides reads
// that determine the value stored (C99 6.5p2).
#include <stdio.h>
static int id(int x) { return x; }
int main(void) {
    int i = 1, j = 0, k = 5;
    i = i + 1;                 /* read to compute the stored value */
    i = id(i++);               /* a sequence point before the call */
    j = (j++, j + 10);         /* the comma sequences j++ first */
    k = (k > 3) ? k - 1 : k++; /* k++ is not evaluated (k > 3) */
    i++ && i;                  /* && sequences its operands */
    i++, i++;                  /* and so does , */
    printf("%d %d %d\n", i, j, k);
    return 0;
}
