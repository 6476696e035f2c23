/* ctype.h -- phicc's own <ctype.h> (C99 7.4), functions only.
 *
 * Why it exists: c-torture and hand-written programs classify characters; the
 * oracle runs glibc's functions in the "C" locale (oracle/src/interp/ctype.rs),
 * whose results are glibc's table bits (isprint('a') is 16384, not 1).
 *
 * Invariants: declarations only, the same functions glibc exports, so a call
 * runs the real glibc natively; no macros (glibc's macros read its locale
 * table, which the oracle does not model).
 */
#ifndef __PHICC_CTYPE_H
#define __PHICC_CTYPE_H

int isalnum(int c);
int isalpha(int c);
int isblank(int c);
int iscntrl(int c);
int isdigit(int c);
int isgraph(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int isspace(int c);
int isupper(int c);
int isxdigit(int c);
int tolower(int c);
int toupper(int c);

#endif /* __PHICC_CTYPE_H */
