/*
** fuzz_input.h: how the fuzz targets read their input, and the encoding of
** the SQL values in it (shared with gen_corpus.c, which writes the seeds).
**
** An input is consumed from the front: fixed-width integers little-endian,
** byte strings as a 2-byte length and that many bytes (cut to what is left).
** Reading past the end yields zeros and empty strings, so every input is
** valid for every target.
*/
#ifndef BLOOM_FUZZ_INPUT_H
#define BLOOM_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* The entry point libFuzzer calls, and replay_main.c without libFuzzer. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The unread part of an input. */
typedef struct fuzz_input {
    const uint8_t *data;
    size_t size;
} fuzz_input;

/*
** A SQL value in an input: a tag byte (taken modulo FUZZ_VALUE_TAGS), then
** its payload.
*/
typedef enum fuzz_value_tag {
    FUZZ_NULL = 0,          /* no payload */
    FUZZ_INTEGER = 1,       /* 8 bytes: the int64 */
    FUZZ_REAL = 2,          /* 8 bytes: the IEEE-754 bits (a NaN binds as NULL) */
    FUZZ_INTEGRAL_REAL = 3, /* 8 bytes: an int64, bound as the nearest double */
    FUZZ_SPECIAL_REAL = 4,  /* 1 byte: an index into fuzz_special_reals (modulo its size) */
    FUZZ_TEXT = 5,          /* string: bound as UTF-8, whatever the bytes */
    FUZZ_TEXT16 = 6,        /* string: bound as native UTF-16 (an odd last byte dropped) */
    FUZZ_BLOB = 7,          /* string: the bytes */
    FUZZ_ZEROBLOB = 8,      /* 2 bytes: the length of a zeroblob */
    FUZZ_VALUE_TAGS = 9
} fuzz_value_tag;

/* Number of REALs FUZZ_SPECIAL_REAL chooses from. */
enum { FUZZ_SPECIAL_REALS = 16 };

/* Returns the i-th special REAL (i < FUZZ_SPECIAL_REALS): -0.0, boundaries of the integer
** range and of the rates, infinities, NaN. */
double fuzz_special_real(unsigned i);

/* A value read from an input; which fields hold it depends on its tag. */
typedef struct fuzz_value {
    fuzz_value_tag tag;
    int64_t integer;      /* FUZZ_INTEGER; the length of a FUZZ_ZEROBLOB */
    double real;          /* FUZZ_REAL, FUZZ_INTEGRAL_REAL, FUZZ_SPECIAL_REAL */
    const uint8_t *bytes; /* FUZZ_TEXT, FUZZ_TEXT16, FUZZ_BLOB: points into the input */
    size_t length;        /* their length in bytes */
} fuzz_value;

/* Prints "fuzz: " and the formatted message to stderr, then aborts: a broken promise. */
_Noreturn void fuzz_fail(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Returns the next byte, 0 when the input is exhausted. */
uint8_t fuzz_take_u8(fuzz_input *in);

/* Returns the next 2 bytes as a little-endian integer (missing bytes read as 0). */
uint16_t fuzz_take_u16(fuzz_input *in);

/* Returns the next 8 bytes as a little-endian integer (missing bytes read as 0). */
uint64_t fuzz_take_u64(fuzz_input *in);

/* Takes up to want bytes: points *bytes at them and returns how many there were. */
size_t fuzz_take_bytes(fuzz_input *in, size_t want, const uint8_t **bytes);

/* Takes a string: a 2-byte length, then that many bytes (fewer if the input ends first). */
size_t fuzz_take_string(fuzz_input *in, const uint8_t **bytes);

/* Takes a value: a tag byte and its payload. */
fuzz_value fuzz_take_value(fuzz_input *in);

#endif /* BLOOM_FUZZ_INPUT_H */
