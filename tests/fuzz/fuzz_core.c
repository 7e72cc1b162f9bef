/*
** fuzz_core.c: libFuzzer target for the pure C core. The input is a filter
** BLOB, as any database could hand one to the extension.
**
** filter_open must accept it exactly when it meets every rule of docs/format.md's
** "Validation" (the prelude's, checked here, then its kind's, by the kind's oracle), and then
** say nothing; otherwise it must say why, in the message section 5 gives for the first rule it
** breaks. When it accepts:
**  - what every kind shares: keys taken from the input itself, hashed as the filter hashes its
**    keys (by its key hash, or by its kind's hash_key), go through every operation of the kind
**    (filter_kind) that it has (filter_kind_can): might_contain, write_header (through
**    filter_copy), add, compatible and merge in memory, and might_contain_io, add_io and
**    remove_io through filter_io_memory on a view that holds the header alone; what it does not
**    have (a static kind: add, remove, merge) is refused as docs/functions.md says. The _io
**    ones give the answers and bytes of the in-memory ones, stay in the BLOB and report a read
**    or write that fails; a key added probes 1 and is removed; a key that probes 0 is not
**    removed and nothing is written. An add or a merge may find no room (FILTER_FULL, a cuckoo
**    filter), and an add may refuse a key that is not a value of the filter's type
**    (FILTER_REFUSED, a Parquet filter), writing nothing: it runs on a copy, which is dropped,
**    as its callers do;
**  - the kind's oracle, a model of the kind written from docs/format.md: the header
**    re-encodes, by the kind's own writer, to the same bytes but the versions and reserved
**    bytes, and filter_copy writes that header; each operation gives the model's status,
**    answer and bytes (for the cuckoo kind, where each add's kicks put the fingerprints); and
**    the checks of the kind's own functions beyond filter_kind (bloom_core.h for the Bloom
**    kinds, counting_core.h for the counting kind, cuckoo_core.h for the cuckoo kind,
**    scalable_core.h with growth for the scalable kind, countmin_core.h for the sketch,
**    parquet_core.h with the conversion of keys to each physical type for the Parquet kind,
**    fuse_core.h's header and sizing for the binary fuse kind).
** Whatever the input, its keys (and more, with n and p, chosen by its last bytes) are also built
** into a binary fuse filter through fuse_core.h, which must be 4.8's build byte for byte, hold
** them all, and pass the checks above (check_fuse_builds).
** AddressSanitizer checks every byte read and written.
**
** This file is the entry point: it reads the input as a BLOB and takes its keys from it, then
** picks the checks. What every kind shares is in fuzz_core_kinds.c, each kind's oracle in the
** file of its room (fuzz_core_bloom.c, fuzz_core_counting.c, fuzz_core_cuckoo.c,
** fuzz_core_scalable.c, fuzz_core_countmin.c, fuzz_core_parquet.c, fuzz_core_fuse.c), the
** helpers in fuzz_core_shared.c (fuzz_core.h). A new kind of kind_list.h adds its oracle,
** NAME_oracle, in a file of its own: without it fuzz_core does not link.
*/
#include "fuzz_core.h"

#include <math.h>
#include <string.h>

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

size_t derive_key_values(const uint8_t *data, size_t size, key_value *values) {
    size_t count = 0;
    for (size_t at = 0; at < size && count < MAX_KEYS; count++) {
        size_t length = 1 + data[at] % MAX_KEY_BYTES;
        uint64_t bits;
        key_value *v = &values[count];
        if (length > size - at) {
            length = size - at;
        }
        memset(v, 0, sizeof *v);
        switch (data[at] % 4) {
        case 0:
            v->type = KEY_TAG_INTEGER;
            v->integer = (int64_t)little_endian(data + at, length);
            break;
        case 1:
            bits = little_endian(data + at, length);
            v->type = KEY_TAG_REAL;
            memcpy(&v->real, &bits, sizeof v->real);
            break;
        default:
            v->type = data[at] % 4 == 2 ? KEY_TAG_TEXT : KEY_TAG_BLOB;
            v->bytes = data + at;
            v->length = length;
            break;
        }
        at += length;
    }
    return count;
}

/* Takes up to MAX_KEYS keys of every type from the input's own bytes (derive_key_values) and
** hashes them as the accepted filter f hashes its keys (filter_hash_key: by its prelude's key
** hash, or by its kind's own hash_key) into keys; returns how many. */
static size_t derive_keys(const filter_view *f, key_hash *keys) {
    key_value values[MAX_KEYS];
    size_t count = derive_key_values(f->blob, (size_t)f->bytes, values);
    for (size_t i = 0; i < count; i++) {
        if (values[i].type == KEY_TAG_REAL) {
            check_real_key(values[i].real);
        }
        keys[i] = filter_hash_key(f, &values[i]);
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
    check_fuse_builds(data, size);
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
    size_t count = derive_keys(&view, keys);
    check_header_round_trip(&view);
    check_operations(&view, keys, count);
    oracle_of(view.kind)->check_own(&view, keys, count);
    return 0;
}
