/* sys/types.h -- phicc's own <sys/types.h> (POSIX), a subset.
 *
 * Why it exists: c-torture's loop-2f.c and loop-2g.c include it (with
 * <sys/mman.h>, <sys/stat.h>, <fcntl.h>) to map anonymous memory.
 *
 * Invariants: declarations only; the types are glibc 2.36's on each of
 * phicc's targets without _FILE_OFFSET_BITS (checked against the cross
 * toolchains' headers): off_t is long (32 bits on i686), ssize_t is the
 * signed type of size_t's width, pid_t int, mode_t, uid_t and gid_t unsigned
 * int, dev_t unsigned long on LP64 and unsigned long long on i686, ino_t
 * unsigned long.  size_t under the same guard as <stddef.h>.
 */
#ifndef __PHICC_SYS_TYPES_H
#define __PHICC_SYS_TYPES_H

#ifndef __PHICC_SIZE_T_DEFINED
#define __PHICC_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
#endif

#ifndef __PHICC_SYS_TYPES_DEFINED
#define __PHICC_SYS_TYPES_DEFINED
typedef __PTRDIFF_TYPE__ ssize_t;
typedef long off_t;
typedef int pid_t;
typedef unsigned int mode_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned long ino_t;
#ifdef __LP64__
typedef unsigned long dev_t;
#else
typedef unsigned long long dev_t;
#endif
#endif

#endif /* __PHICC_SYS_TYPES_H */
