/* Files (oracle/src/interp/libc_files.rs): round trips through files with relative
 * names, reading back with fgets, fgetc, fread and fscanf, positions, end of file, and
 * glibc's failures (fopen of a missing file: NULL and errno ENOENT; remove of it: -1);
 * a file named by tmpnam, written, read and removed before anything is checked (its
 * name is in the host's /tmp natively: a failing check must not leave it there). The
 * last part sends stdout to a file with freopen: nothing after it is observed output,
 * so it reports through the exit status. Expected values by hand from C11 7.21 and
 * glibc 2.36's documented results; gcc 12 -O0 (x86_64) agrees. Natively every run has
 * a fresh working directory of its own (removed after the run). */
#include "test.h"
#include <errno.h>

int main(void) {
    char name[L_tmpnam];
    char *named = tmpnam(name);
    FILE *f = fopen(name, "w");
    int wrote = f && fputs("in /tmp", f) >= 0 && fclose(f) == 0;
    char back[16] = "";
    f = fopen(name, "r");
    int read = f && fgets(back, sizeof back, f) == back && fclose(f) == 0;
    int removed = remove(name);
    ASSERT(1, named == name);
    ASSERT(1, wrote && read);
    ASSERT(0, strcmp(back, "in /tmp"));
    ASSERT(0, removed);
    errno = 0;
    ASSERT(1, fopen(name, "r") == NULL);
    ASSERT(ENOENT, errno);
    errno = 0;
    ASSERT(-1, remove(name));
    ASSERT(ENOENT, errno);

    const char *path = "phihunt-round-trip.txt";
    f = fopen(path, "w");
    ASSERT(1, f != NULL);
    ASSERT(7, fprintf(f, "%d %s\n", 42, "abc"));
    ASSERT(1, fputs("second line\n", f) >= 0);
    ASSERT('x', fputc('x', f));
    ASSERT(2, fwrite("yz", 1, 2, f));
    ASSERT(22, ftell(f));
    ASSERT(0, fclose(f));

    f = fopen(path, "r");
    ASSERT(1, f != NULL);
    char line[32];
    ASSERT(1, fgets(line, sizeof line, f) == line);
    ASSERT(0, strcmp(line, "42 abc\n"));
    /* A short buffer: n - 1 bytes and a NUL. */
    ASSERT(1, fgets(line, 5, f) == line);
    ASSERT(0, strcmp(line, "seco"));
    ASSERT('n', fgetc(f));
    ASSERT('d', getc(f));
    char rest[16] = {0};
    /* " line\nxyz" is 9 bytes: one item of 4, one more, and a partial one. */
    ASSERT(2, fread(rest, 4, 3, f));
    ASSERT(0, strcmp(rest, " line\nxyz"));
    ASSERT(1, feof(f) != 0);
    ASSERT(EOF, fgetc(f));
    ASSERT(1, fgets(line, sizeof line, f) == NULL);
    rewind(f);
    ASSERT(0, feof(f));
    int n = 0;
    char word[16];
    ASSERT(2, fscanf(f, "%d %15s", &n, word));
    ASSERT(42, n);
    ASSERT(0, strcmp(word, "abc"));
    ASSERT(0, fseek(f, -3, SEEK_END));
    ASSERT(19, ftell(f));
    ASSERT(1, fscanf(f, "%s", word));
    ASSERT(0, strcmp(word, "xyz"));
    /* %s stopped at the end of the file: the end-of-file flag is set. */
    ASSERT(1, feof(f) != 0);
    ASSERT(EOF, fscanf(f, "%d", &n));
    ASSERT(0, fclose(f));

    /* Appending, and a relative name (the run's working directory). */
    f = fopen("phihunt-libc-files.txt", "w+");
    ASSERT(1, f != NULL);
    fputs("ab", f);
    fclose(f);
    f = fopen("phihunt-libc-files.txt", "a");
    fputs("cd", f);
    fclose(f);
    f = fopen("phihunt-libc-files.txt", "r");
    ASSERT(1, fgets(line, sizeof line, f) == line);
    ASSERT(0, strcmp(line, "abcd"));
    fclose(f);
    ASSERT(0, remove("phihunt-libc-files.txt"));

    ASSERT(0, remove(path));
    ASSERT(1, fopen(path, "r") == NULL);
    ASSERT(1, fopen("phihunt-no-such-file", "r") == NULL);

    /* stdout into a file: checked by the exit status. */
    fflush(stdout);
    if (freopen(path, "w", stdout) != stdout)
        return 2;
    printf("%d-%s", 7, "seven");
    puts("!");
    fclose(stdout);
    f = fopen(path, "r");
    if (!f || !fgets(line, sizeof line, f))
        return 3;
    fclose(f);
    remove(path);
    return strcmp(line, "7-seven!\n") == 0 ? 0 : 4;
}
