/*
** replay_main.c: a main() for the fuzz targets where libFuzzer is not linked
** (gcc, or clang without its fuzzer runtime). It runs the target once on each
** file named on the command line, as `target -runs=0 files...` would with
** libFuzzer, so that the seed corpora and the fixed crashers in regressions/
** are replayed by the normal test suite, under the sanitizers of the build.
*/
#include "fuzz_input.h"

#include <stdio.h>
#include <stdlib.h>

/* Reads the file at path into a buffer of exactly its size (so that AddressSanitizer sees a
** read past the end), sets *size and returns it; aborts if the file cannot be read. */
static uint8_t *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    long length;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fuzz_fail("cannot read %s", path);
    }
    uint8_t *data = malloc(length > 0 ? (size_t)length : 1);
    if (data == NULL || fread(data, 1, (size_t)length, f) != (size_t)length || fclose(f) != 0) {
        fuzz_fail("cannot read %s", path);
    }
    *size = (size_t)length;
    return data;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s input...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        size_t size;
        uint8_t *data = read_file(argv[i], &size);
        if (LLVMFuzzerTestOneInput(data, size) != 0) {
            fuzz_fail("%s: the target returned non-zero", argv[i]);
        }
        free(data);
    }
    printf("%s: replayed %d inputs\n", argv[0], argc - 1);
    return 0;
}
