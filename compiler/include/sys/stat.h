/* sys/stat.h -- phicc's own <sys/stat.h> (POSIX), a subset.
 *
 * Why it exists: c-torture's loop-2f.c and loop-2g.c include it.  Only the
 * mode bits: struct stat differs per target and no function of this header
 * is modelled by the oracle, so none is declared (a program that calls stat
 * is refused by the front end, not run wrongly).
 *
 * Invariants: glibc 2.36's values, equal on phicc's four targets.
 */
#ifndef __PHICC_SYS_STAT_H
#define __PHICC_SYS_STAT_H

#include <sys/types.h>

#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_IRUSR 0400
#define S_IWUSR 0200
#define S_IXUSR 0100
#define S_IRWXU (S_IRUSR | S_IWUSR | S_IXUSR)
#define S_IRWXG (S_IRWXU >> 3)
#define S_IRWXO (S_IRWXG >> 3)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)

#endif /* __PHICC_SYS_STAT_H */
