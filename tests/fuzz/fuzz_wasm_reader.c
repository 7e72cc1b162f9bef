/*
** fuzz_wasm_reader.c: libFuzzer target for the WebAssembly reader's exports
** (ext/wasm/wasm_reader.c, what the npm package's sqlite-bloom/filter calls), built
** natively, against the core they wrap and the C library's printf, which its
** own (ext/wasm/wasm_format.c) must equal. The input:
**   string   a filter BLOB, copied to a buffer of its length and opened by
**            wasm_reader_open;
**   then operations until the input ends (at most 64), each an op byte, modulo 4 (a
**   refused BLOB's probes are taken from the input, not made):
**     0  8 bytes, a double's bits: probe_number (a NaN, which JavaScript makes
**        no key, is skipped);
**     1  8 bytes: probe_integer;
**     2  a byte, then a string: probe_bytes, with KEY_TAG_TEXT when the byte is
**        even, else the byte as the type;
**     3  a format byte, a width byte, a precision byte, a room byte and 8 bytes
**        of a double: wasm_format_snprintf of %[flags][width].[precision]C, C
**        one of f, e, g, E, G, into room bytes (0 to 95);
**   then, for a BLOB it accepted, wasm_reader_info into rooms of 0, 1, half
**   the text, all but its NUL, all of it and one byte more, each a buffer of
**   exactly that size.
** Fails: a BLOB opened otherwise than filter_open opens it, or refused with
** another message; a probe answering other than the kind's might_contain of
** the key SQL would hold (a number: an INTEGER when it is integral in the
** 64-bit range, else a REAL; a type other than TEXT: a BLOB), or than 2 where
** filter_probe_refused refuses that key; a format whose
** text or length is not the C library's; info other than filter_info's JSON
** through a sink of its own (the same fields, to the byte), a length other than the whole text's
*whatever the room, a buffer not
** holding as much of the text as fits then a NUL; any out-of-bounds access
** (AddressSanitizer).
*/
#include "../info_text.h"
#include "filter_kinds.h"
#include "fuzz_input.h"
#include "wasm_format.h"
#include "wasm_reader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Checks wasm_reader_info against filter_info's JSON through a sink of the test's, into rooms
** of every size that can go wrong, each a buffer of exactly that size. */
static void check_info(const filter_view *f) {
    info_text want = info_text_new();
    filter_info(f, &want.sink);
    size_t rooms[] = {0, 1, want.out.len / 2, want.out.len, want.out.len + 1, want.out.len + 2};
    for (size_t i = 0; i < sizeof rooms / sizeof rooms[0]; i++) {
        size_t room = rooms[i];
        char *got = malloc(room > 0 ? room : 1);
        if (got == NULL) {
            fuzz_fail("out of memory");
        }
        uint32_t length = wasm_reader_info((wasm_address)got, (uint32_t)room);
        if (length != want.out.len) {
            fuzz_fail("info: length %lu into %lu bytes, the text has %lu", (unsigned long)length,
                      (unsigned long)room, (unsigned long)want.out.len);
        }
        size_t fits = room == 0 ? 0 : (room - 1 < want.out.len ? room - 1 : want.out.len);
        if (room > 0 && (memcmp(got, want.out.data, fits) != 0 || got[fits] != '\0')) {
            fuzz_fail("info into %lu bytes: '%.*s', not the first %lu bytes of '%s' and a NUL",
                      (unsigned long)room, (int)fits, got, (unsigned long)fits, want.out.data);
        }
        free(got);
    }
    free(want.out.data);
}

/* ---- The probes ---- */

/* Fails unless the reader's answer is the kind's for key, or 2 where filter_probe_refused
** refuses it. */
static void check_answer(const filter_view *f, const key_value *key, int got, const char *what) {
    key_hash hash = filter_hash_key(f, key);
    char why[FILTER_REFUSAL_MAX];
    int want = f->kind->might_contain(f, hash);
    want = !want && filter_probe_refused(f, hash, key->type, why) ? 2 : want;
    if (got != want) {
        fuzz_fail("%s: the reader answers %d, the kind %d", what, got, want);
    }
}

/* probe_number of a double's bits from the input, against the key SQL holds: an INTEGER when
** integral in the 64-bit range, else a REAL. f NULL: only taken. */
static void check_number(const filter_view *f, fuzz_input *in) {
    uint64_t bits = fuzz_take_u64(in);
    double v;
    memcpy(&v, &bits, sizeof v);
    if (f == NULL || isnan(v)) {
        return;
    }
    key_value key = {.type = KEY_TAG_REAL, .real = v};
    if (v == trunc(v) && v >= -ldexp(1.0, 63) && v < ldexp(1.0, 63)) {
        key.type = KEY_TAG_INTEGER;
        key.integer = (int64_t)v;
    }
    check_answer(f, &key, wasm_reader_probe_number(v), "probe_number");
}

/* probe_integer of 8 bytes from the input, against the INTEGER key. f NULL: only taken. */
static void check_integer(const filter_view *f, fuzz_input *in) {
    int64_t v = (int64_t)fuzz_take_u64(in);
    key_value key = {.type = KEY_TAG_INTEGER, .integer = v};
    if (f != NULL) {
        check_answer(f, &key, wasm_reader_probe_integer(v), "probe_integer");
    }
}

/* probe_bytes of a string from the input as TEXT for an even type byte, else as what the reader
** makes of the byte (a BLOB whatever it is but KEY_TAG_TEXT). f NULL: only taken. */
static void check_bytes(const filter_view *f, fuzz_input *in) {
    int type = fuzz_take_u8(in);
    type = type % 2 == 0 ? KEY_TAG_TEXT : type;
    const uint8_t *bytes;
    size_t length = fuzz_take_string(in, &bytes);
    if (f == NULL) {
        return;
    }
    key_value key = {.type = type == KEY_TAG_TEXT ? KEY_TAG_TEXT : KEY_TAG_BLOB,
                     .bytes = bytes,
                     .length = length};
    check_answer(f, &key, wasm_reader_probe_bytes(type, (wasm_address)bytes, (uint32_t)length),
                 "probe_bytes");
}

/* ---- The formatter ---- */

/* wasm_format_snprintf against snprintf for one format of a double chosen by the input. */
static void check_format(fuzz_input *in) {
    static const char *const flags[] = {"", "-", "+", " ", "#", "0", "+#", "-0 "};
    static const char conversions[] = "feEgG";
    unsigned choice = fuzz_take_u8(in);
    unsigned width = fuzz_take_u8(in) % 48, precision = fuzz_take_u8(in) % 64;
    size_t room = fuzz_take_u8(in) % 96;
    uint64_t bits = fuzz_take_u64(in);
    double v;
    memcpy(&v, &bits, sizeof v);
    char format[32];
    snprintf(format, sizeof format, "%%%s%u.%u%c", flags[choice % 8], width, precision,
             conversions[(choice / 8) % 5]);
    char want[96], got[96];
    memset(want, 'x', sizeof want);
    memset(got, 'x', sizeof got);
    int want_length = snprintf(want, room, format, v);
    int got_length = wasm_format_snprintf(got, room, format, v);
    if (want_length != got_length || memcmp(want, got, sizeof want) != 0) {
        fuzz_fail("format '%s' of %a into %lu bytes: '%.*s' (%d), the C library '%.*s' (%d)",
                  format, v, (unsigned long)room, (int)room, got, got_length, (int)room, want,
                  want_length);
    }
}

/* ---- The entry point ---- */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_input in = {data, size};
    const uint8_t *bytes;
    size_t length = fuzz_take_string(&in, &bytes);
    uint8_t *blob = malloc(length > 0 ? length : 1);
    if (blob == NULL) {
        fuzz_fail("out of memory");
    }
    memcpy(blob, bytes, length);
    filter_view f;
    char why[FILTER_WHY_MAX];
    int accepted = filter_open(blob, length, &f, why) == FILTER_OK;
    if (wasm_reader_open((wasm_address)blob, (uint32_t)length) != accepted) {
        fuzz_fail("open answers %d, filter_open %d", !accepted, accepted);
    }
    if (!accepted && strcmp(wasm_reader_message(), why) != 0) {
        fuzz_fail("open refuses with '%s', filter_open with '%s'", wasm_reader_message(), why);
    }
    const filter_view *probed = accepted ? &f : NULL; /* a refused BLOB is never probed */
    for (int op = 0; op < 64 && in.size > 0; op++) {
        switch (fuzz_take_u8(&in) % 4) {
        case 0:
            check_number(probed, &in);
            break;
        case 1:
            check_integer(probed, &in);
            break;
        case 2:
            check_bytes(probed, &in);
            break;
        default:
            check_format(&in);
        }
    }
    if (accepted) {
        check_info(&f);
    }
    free(blob);
    return 0;
}
