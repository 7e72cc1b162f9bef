/*
** fuzz_core.c: libFuzzer target for the pure C core. The input is a filter
** BLOB, as any database could hand one to the extension.
**
** filter_open must accept it exactly when it meets every rule of docs/format.md's
** "Validation" (the prelude's, checked here, then its kind's, by the kind's oracle), and then
** say nothing; otherwise it must say why, in the message section 5 gives for the first rule it
** breaks. When it accepts:
**  - what every kind shares: keys taken from the input itself go through every operation of
**    the kind (filter_kind): might_contain, write_header (through filter_copy), add,
**    compatible and merge in memory, and might_contain_io, add_io and remove_io through
**    filter_io_memory on a view that holds the header alone. The _io ones give the answers and
**    bytes of the in-memory ones, stay in the BLOB and report a read or write that fails; a key
**    added probes 1 and is removed; a key that probes 0 is not removed and nothing is written.
**    An add or a merge may find no room (FILTER_FULL, a cuckoo filter): it runs on a copy,
**    which is dropped, as its callers do;
**  - the kind's oracle, a model of the kind written from docs/format.md: the header
**    re-encodes, by the kind's own writer, to the same bytes but the versions and reserved
**    bytes, and filter_copy writes that header; each operation gives the model's status,
**    answer and bytes (for the cuckoo kind, where each add's kicks put the fingerprints); and
**    the checks of the kind's own functions beyond filter_kind (bloom_core.h for the Bloom
**    kinds, counting_core.h for the counting kind, cuckoo_core.h for the cuckoo kind,
**    scalable_core.h with growth for the scalable kind, countmin_core.h for the sketch).
** AddressSanitizer checks every byte read and written.
**
** This file is the entry point: it reads the input as a BLOB and takes its keys from it, then
** picks the checks. What every kind shares is in fuzz_core_kinds.c, each kind's oracle in the
** file of its room (fuzz_core_bloom.c, fuzz_core_counting.c, fuzz_core_cuckoo.c,
** fuzz_core_scalable.c, fuzz_core_countmin.c), the helpers in fuzz_core_shared.c
** (fuzz_core.h). A new kind of kind_list.h adds its oracle, NAME_oracle, in a file of its own:
** without it fuzz_core does not link.
*/
#include "fuzz_core.h"

#include <math.h>
#include <string.h>

/* The most bytes a key takes from the input. */
enum { MAX_KEY_BYTES = 24 };

/* Aborts unless the REAL v hashes as docs/format.md's "Keys" says: as the INTEGER of the same
** value when it is integral and in [-2^63, 2^63), and every NaN alike. */
static void check_real_key(double v) {
    key_hash real = key_hash_real(v), expected;
    if (v != v) {
        expected = key_hash_real(NAN);
    } else if (v >= -9223372036854775808.0 && v < 9223372036854775808.0 &&
               (double)(int64_t)v == v) {
        expected = key_hash_integer((int64_t)v);
    } else {
        return;
    }
    if (real.h1 != expected.h1 || real.h2 != expected.h2) {
        fuzz_fail("the REAL %.17g hashes apart from its equal", v);
    }
}

/* Takes up to MAX_KEYS keys of every type from the input's own bytes into keys; returns how
** many. Each key's first byte picks its type and length. */
static size_t derive_keys(const uint8_t *data, size_t size, key_hash *keys) {
    size_t count = 0;
    for (size_t at = 0; at < size && count < MAX_KEYS; count++) {
        size_t length = 1 + data[at] % MAX_KEY_BYTES;
        uint64_t bits;
        double real;
        if (length > size - at) {
            length = size - at;
        }
        switch (data[at] % 4) {
        case 0:
            keys[count] = key_hash_integer((int64_t)little_endian(data + at, length));
            break;
        case 1:
            bits = little_endian(data + at, length);
            memcpy(&real, &bits, sizeof real);
            check_real_key(real);
            keys[count] = key_hash_real(real);
            break;
        case 2:
            keys[count] = key_hash_text(data + at, length);
            break;
        default:
            keys[count] = key_hash_blob(data + at, length);
            break;
        }
        at += length;
    }
    return count;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int oracles_checked;
    filter_view view;
    char why[FILTER_WHY_MAX], expected[FILTER_WHY_MAX];
    key_hash keys[MAX_KEYS];
    if (!oracles_checked) {
        check_oracles();
        oracles_checked = 1;
    }
    int accepted = spec_accepts(data, size, expected, 0);
    filter_status opened = filter_open(data, size, &view, why);
    check_validate_body(data, size, opened, why);
    if (opened != FILTER_OK) {
        check_refusal(why, expected);
        if (accepted) {
            fuzz_fail("a filter the spec accepts is refused: %s", why);
        }
        return 0;
    }
    if (why[0] != '\0') {
        fuzz_fail("an accepted filter has the message %s", why);
    }
    if (!accepted) {
        fuzz_fail("a filter the spec refuses is accepted");
    }
    if (view.kind == NULL || view.kind->id != data[FILTER_OFF_KIND] ||
        view.version != data[FILTER_OFF_VERSION] ||
        view.min_reader_version != data[FILTER_OFF_MIN_READER] ||
        view.hash != data[FILTER_OFF_HASH] || view.blob != data || view.bytes != size) {
        fuzz_fail("the view of an accepted filter differs from its prelude");
    }
    size_t count = derive_keys(data, size, keys);
    check_header_round_trip(&view);
    check_operations(&view, keys, count);
    oracle_of(view.kind)->check_own(&view, keys, count);
    return 0;
}
