// The defined twin of subobject_derived_pointer.c: a pointer into an array member
// indexed inside it, moved to one past its end and compared there, then given another
// object; the whole struct read byte by byte through `unsigned char *`.
#include <stdio.h>
struct rec { int a[4]; int b; };
int main(void) {
    struct rec s = {{1, 2, 3, 4}, 5};
    int *p = s.a;
    int sum = p[3];
    int *end = p + 4;
    while (p != end) sum += *p++;
    p = &s.b;
    sum += p[0];
    unsigned char *bytes = (unsigned char *)&s;
    for (unsigned i = 0; i < sizeof s; i++) sum += bytes[i];
    printf("%d\n", sum);
    return 0;
}
