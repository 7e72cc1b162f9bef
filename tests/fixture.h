/*
** fixture.h: reading the hex fixtures of tests/golden/ in the C tests.
*/
#ifndef BLOOM_FIXTURE_H
#define BLOOM_FIXTURE_H

#include <stdint.h>
#include <stdio.h>

/* Reads a hex fixture (upper-case hex digits; white space and '#' comment lines ignored)
** into buf; returns its length in bytes, 0 if the file cannot be read. */
static size_t read_hex_file(const char *path, uint8_t *buf, size_t cap) {
    FILE *f = fopen(path, "r");
    size_t len = 0;
    int c, high = -1, in_comment = 0;
    if (f == NULL) {
        return 0;
    }
    while ((c = fgetc(f)) != EOF) {
        if (in_comment || c == '#') {
            in_comment = c != '\n';
            continue;
        }
        int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (digit < 0) {
            continue;
        }
        if (high < 0) {
            high = digit;
        } else if (len < cap) {
            buf[len++] = (uint8_t)(high << 4 | digit);
            high = -1;
        }
    }
    fclose(f);
    return len;
}

#endif /* BLOOM_FIXTURE_H */
