/* sys/mman.h -- phicc's own <sys/mman.h> (POSIX), a subset.
 *
 * Why it exists: c-torture's loop-2f.c and loop-2g.c map anonymous memory.
 * The oracle models anonymous private mappings only
 * (oracle/src/interp/libc_os.rs): mmap of a file is refused there.
 *
 * Invariants: the constants are glibc 2.36's, equal on x86_64, i686,
 * aarch64 and riscv64 (checked against the cross toolchains' headers).
 */
#ifndef __PHICC_SYS_MMAN_H
#define __PHICC_SYS_MMAN_H

#include <sys/types.h>

#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4

#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_ANON MAP_ANONYMOUS

#define MAP_FAILED ((void *)-1)

void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t length);
int mprotect(void *addr, size_t length, int prot);

#endif /* __PHICC_SYS_MMAN_H */
