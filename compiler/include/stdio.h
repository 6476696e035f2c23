/* stdio.h -- phicc's own <stdio.h> (C99 7.19), a subset.
 *
 * Why it exists: csmith programs print their checksums with printf (via
 * csmith's platform_generic.h), c-torture tests print to stdout and stderr;
 * the oracle implements these functions on the program's stdout.  FILE is
 * incomplete; stdin, stdout and stderr are glibc's variables (phicc's IR
 * names them as libc declarations, compiler/src/lowering/libc_objects.rs).
 * Files (fopen, tmpnam, fscanf, remove, ...) live in the oracle's per-run
 * file system (oracle/src/interp/libc_files.rs); natively the program runs
 * in a fresh temporary working directory.  What a program writes to stderr
 * or to a file is not part of its observed output (natively only stdout is
 * compared).
 *
 * Invariants: declarations only, prototype-compatible with glibc's (restrict
 * is left out: it does not change a parameter's type for compatibility, and
 * it spares the front end a keyword nothing else uses); size_t and NULL are
 * defined under the same guards as in <stddef.h>.
 */
#ifndef __PHICC_STDIO_H
#define __PHICC_STDIO_H

#ifndef __SIZE_TYPE__
#error "phicc <stdio.h>: the preprocessor must predefine __SIZE_TYPE__"
#endif

#ifndef __PHICC_SIZE_T_DEFINED
#define __PHICC_SIZE_T_DEFINED
typedef __SIZE_TYPE__ size_t;
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

#define EOF (-1)

/* Variadic: the front end must lower `...` calls with the default argument
 * promotions (float to double, small integers to int). */
int printf(const char *format, ...);
int sprintf(char *str, const char *format, ...);
int snprintf(char *str, size_t size, const char *format, ...);
/* The va_list forms (the oracle models the va_list a phicc function started). */
int vprintf(const char *format, __builtin_va_list ap);
int vsprintf(char *s, const char *format, __builtin_va_list ap);
int puts(const char *s);
int putchar(int c);

/* The standard streams (glibc's `struct _IO_FILE`, incomplete here). */
typedef struct _IO_FILE FILE;
extern FILE *stdin;
extern FILE *stdout;
extern FILE *stderr;
#define stdin stdin
#define stdout stdout
#define stderr stderr
int fprintf(FILE *stream, const char *format, ...);
int vfprintf(FILE *stream, const char *format, __builtin_va_list ap);
int fputs(const char *s, FILE *stream);
int fputc(int c, FILE *stream);
int putc(int c, FILE *stream);
size_t fwrite(const void *ptr, size_t size, size_t n, FILE *stream);
int fflush(FILE *stream);

/* Files (glibc 2.36's values; equal on phicc's four targets). */
#define L_tmpnam 20
#define TMP_MAX 238328
#define FILENAME_MAX 4096
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
char *tmpnam(char *s);
FILE *fopen(const char *path, const char *mode);
FILE *freopen(const char *path, const char *mode, FILE *stream);
int fclose(FILE *stream);
int remove(const char *path);
char *fgets(char *s, int n, FILE *stream);
int fgetc(FILE *stream);
int getc(FILE *stream);
size_t fread(void *ptr, size_t size, size_t n, FILE *stream);
int fscanf(FILE *stream, const char *format, ...);
int feof(FILE *stream);
int ferror(FILE *stream);
void rewind(FILE *stream);
long ftell(FILE *stream);
int fseek(FILE *stream, long offset, int whence);
void perror(const char *s);

#endif /* __PHICC_STDIO_H */
