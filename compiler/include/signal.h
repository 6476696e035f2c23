/* signal.h -- phicc's own <signal.h> (C99 7.14), a subset.
 *
 * Why it exists: c-torture's 20101011-1.c installs a SIGFPE handler before
 * dividing by zero (undefined in C: the UB judge reports it).  The oracle
 * keeps each signal's handler per run; raise runs the handler as a call
 * from libc, or ends the run as the default action would
 * (oracle/src/interp/libc_signal.rs).
 *
 * Invariants: glibc 2.36's numbers and special handlers, equal on phicc's
 * four targets (checked against the cross toolchains' headers).
 */
#ifndef __PHICC_SIGNAL_H
#define __PHICC_SIGNAL_H

typedef int sig_atomic_t;
typedef void (*__sighandler_t)(int);

#define SIG_DFL ((__sighandler_t)0)
#define SIG_IGN ((__sighandler_t)1)
#define SIG_ERR ((__sighandler_t)-1)

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15

__sighandler_t signal(int sig, __sighandler_t handler);
int raise(int sig);

#endif /* __PHICC_SIGNAL_H */
