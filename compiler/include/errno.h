/* errno.h -- phicc's own <errno.h> (C99 7.5), a subset.
 *
 * Why it exists: programs that open files check errno after a failure.
 * errno is glibc's thread-local variable, reached as glibc's own header
 * does, through __errno_location (the oracle gives each run one int,
 * oracle/src/interp/libc_files.rs).
 *
 * Invariants: glibc 2.36's numbers, equal on phicc's four targets (checked
 * against the cross toolchains' headers).
 */
#ifndef __PHICC_ERRNO_H
#define __PHICC_ERRNO_H

int *__errno_location(void);
#define errno (*__errno_location())

#define EPERM 1
#define ENOENT 2
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EEXIST 17
#define EINVAL 22
#define EMFILE 24
#define ENOSPC 28
#define EDOM 33
#define ERANGE 34

#endif /* __PHICC_ERRNO_H */
