/* fcntl.h -- phicc's own <fcntl.h> (POSIX), a subset.
 *
 * Why it exists: c-torture's loop-2f.c and loop-2g.c open /dev/zero before
 * mapping anonymous memory.  The oracle's open knows /dev/zero, /dev/null
 * and the files of its per-run file system (oracle/src/interp/libc_os.rs);
 * close (<unistd.h> in glibc) is not declared.
 *
 * Invariants: glibc 2.36's values, equal on phicc's four targets (checked
 * against the cross toolchains' headers); open is variadic as in glibc (the
 * mode argument only with O_CREAT).
 */
#ifndef __PHICC_FCNTL_H
#define __PHICC_FCNTL_H

#include <sys/types.h>

#define O_ACCMODE 0003
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_CREAT 0100
#define O_EXCL 0200
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000

int open(const char *path, int flags, ...);

#endif /* __PHICC_FCNTL_H */
