/* Anonymous mappings (oracle/src/interp/libc_os.rs) and signal/raise
 * (oracle/src/interp/libc_signal.rs). Expected values by hand from POSIX and Linux:
 * anonymous pages are zero-filled and page-aligned, a zero length is EINVAL with
 * MAP_FAILED; signal returns the previous handler (SIG_DFL first), raise runs the
 * handler and returns 0, SIG_IGN ignores. gcc 12 -O0 (x86_64) agrees. */
#include "test.h"
#include <errno.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/types.h>

static volatile sig_atomic_t seen;

static void on_usr1(int sig) {
    seen = sig * 10 + seen;
}

int main(void) {
    size_t len = 10000;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT(1, p != MAP_FAILED);
    ASSERT(0, (unsigned long)p % 4096);
    /* Zero-filled, to the end of the last page. */
    ASSERT(0, p[0] + p[len - 1] + p[12287]);
    for (int i = 0; i < 100; i++)
        p[i * 100] = (char)i;
    ASSERT(99, p[9900]);
    ASSERT(0, mprotect(p, len, PROT_READ | PROT_WRITE));
    ASSERT(0, munmap(p, len));
    errno = 0;
    ASSERT(1, mmap(NULL, 0, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED);
    ASSERT(EINVAL, errno);

    ASSERT(1, signal(SIGUSR1, on_usr1) == SIG_DFL);
    ASSERT(0, raise(SIGUSR1));
    ASSERT(SIGUSR1 * 10, seen);
    ASSERT(0, raise(SIGUSR1));
    ASSERT(SIGUSR1 * 20, seen);
    ASSERT(1, signal(SIGUSR1, SIG_IGN) == on_usr1);
    ASSERT(0, raise(SIGUSR1));
    ASSERT(SIGUSR1 * 20, seen);
    ASSERT(1, signal(SIGKILL, SIG_IGN) == SIG_ERR);
    return 0;
}
