#include "test.h"

int counter;
int initialized = 5;
long table[4] = {1, 2, 3, 4};
char message[] = "global";
const int answer = 42;
int *ptr_to_global = &initialized;
struct { int a; char b; } record = {7, 'x'};
static int hidden = 3;
extern int later;

static void bump(void) { counter++; }
static int get_later(void) { return later; }

int later = 99;

int main(void) {
    ASSERT(0, counter);
    bump();
    bump();
    ASSERT(2, counter);
    ASSERT(5, initialized);
    *ptr_to_global = 8;
    ASSERT(8, initialized);
    ASSERT(10, table[0] + table[1] + table[2] + table[3]);
    table[2] = 30;
    ASSERT(30, table[2]);
    ASSERT(7, sizeof(message));
    ASSERT(103, message[0]);
    ASSERT(42, answer);
    ASSERT(7, record.a);
    ASSERT(120, record.b);
    ASSERT(3, hidden);
    ASSERT(99, get_later());
    ASSERT(32, sizeof(table));
    printf("%s %d\n", message, counter);
    printf("OK\n");
    return 0;
}
