/*
** fuzz_core_kinds.c: what fuzz_core checks of every kind, through the table of
** kinds (filter_kinds.h) and each kind's oracle: the prelude's rules and the
** message of the first rule a BLOB breaks, the header's round trip through the
** kind's writer, validate_body through a checked filter_io, and every operation
** of filter_kind against the others and against the oracle's model. The table
** of oracles is made from kind_list.h, as the table of kinds is.
*/
#include "fuzz_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_ORACLE_ENTRY(id, name) &name##_oracle,

/* The oracle of each kind, in the order of the table of kinds. */
static const kind_oracle *const oracles[] = {FILTER_KINDS(FUZZ_ORACLE_ENTRY)};

const kind_oracle *oracle_of(const filter_kind *kind) {
    return oracles[kind->id - 1];
}

void check_oracles(void) {
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *kind = filter_kind_at(i);
        if (filter_kind_by_id(kind->id) != kind) {
            fuzz_fail("the table of kinds does not find the '%s' kind by its id %u", kind->name,
                      kind->id);
        }
        const kind_oracle *oracle = oracle_of(kind);
        if (oracle->id != kind->id) {
            fuzz_fail("the oracle of the '%s' kind models kind %u", kind->name, oracle->id);
        }
        int adds = filter_kind_can(kind, FILTER_ADDS),
            merges = filter_kind_can(kind, FILTER_MERGES);
        int removes = filter_kind_can(kind, FILTER_REMOVES);
        if ((oracle->remove != NULL) != removes || (oracle->add != NULL) != adds ||
            (oracle->merge != NULL) != merges) {
            fuzz_fail("the '%s' kind adds %d, merges %d and removes %d, its oracle %d, %d and %d",
                      kind->name, adds, merges, removes, oracle->add != NULL, oracle->merge != NULL,
                      oracle->remove != NULL);
        }
        /* filter.h: add falls back on add_io, whose NULL means that nothing is added after the
        ** build; a kind that removes or grows adds; one that adds nothing counts nothing. */
        if ((kind->add != NULL && kind->add_io == NULL) || (removes && !adds) ||
            (filter_kind_can(kind, FILTER_GROWS) && !adds) || (!adds && kind->count_offset != 0) ||
            (kind->compatible == NULL) != (kind->merge == NULL)) {
            fuzz_fail("the '%s' kind's slots say that it can do what it cannot", kind->name);
        }
    }
}

/* The key hash by which a kind hashes its keys (docs/format.md, section 1): kinds 1 to 6 and 8
** by key hash 1, kind 7 (Parquet) by key hash 2, kind 9 (Spark) by key hash 3. */
static unsigned spec_key_hash_of(unsigned kind_id) {
    return kind_id == PARQUET_KIND ? KEY_HASH_XXH64_PARQUET
           : kind_id == SPARK_KIND ? KEY_HASH_MURMUR3_SPARK
                                   : KEY_HASH_XXH3_128;
}

int spec_prelude_accepts(const uint8_t *data, size_t size, char *expected) {
    static const uint8_t magic[4] = {'S', 'Q', 'B', 'F'};
    expected[0] = '\0';
    if (size < FILTER_HEADER_BYTES) {
        return refuse(expected, "not a Bloom filter: length %zu is shorter than the 64-byte header",
                      size);
    }
    if (memcmp(data, magic, sizeof magic) != 0) {
        return refuse(expected,
                      "not a Bloom filter: magic is x'%02X%02X%02X%02X', not x'53514246' (SQBF)",
                      data[0], data[1], data[2], data[3]);
    }
    unsigned version = data[FILTER_OFF_VERSION], min_reader = data[FILTER_OFF_MIN_READER];
    if (min_reader < 1 || min_reader > version) {
        return refuse(expected, "corrupt filter: format version %u with minimum reader version %u",
                      version, min_reader);
    }
    if (min_reader > FILTER_FORMAT_VERSION) {
        return refuse(expected,
                      "filter format version %u needs a reader of version %u or later; this one "
                      "reads version %d",
                      version, min_reader, FILTER_FORMAT_VERSION);
    }
    return 1;
}

int spec_accepts(const uint8_t *data, size_t size, char *expected, int header_only) {
    if (!spec_prelude_accepts(data, size, expected)) {
        return 0;
    }
    unsigned min_reader = data[FILTER_OFF_MIN_READER];
    unsigned kind_id = data[FILTER_OFF_KIND], hash = data[FILTER_OFF_HASH];
    const filter_kind *kind = filter_kind_by_id((int)kind_id);
    if (kind == NULL) {
        return refuse(expected, "corrupt filter: unknown kind %u", kind_id);
    }
    if (min_reader < kind->format_version) {
        return refuse(
            expected,
            "corrupt filter: kind %u is of format version %u, read by readers of version %u "
            "and later, not %u",
            kind_id, kind->format_version, kind->format_version, min_reader);
    }
    if (hash != KEY_HASH_XXH3_128 && hash != KEY_HASH_XXH64_PARQUET &&
        hash != KEY_HASH_MURMUR3_SPARK) {
        return refuse(expected, "corrupt filter: unknown hash %u", hash);
    }
    if (hash != spec_key_hash_of(kind_id)) {
        return refuse(expected, "corrupt filter: kind %u hashes its keys by hash %u, not %u",
                      kind_id, spec_key_hash_of(kind_id), hash);
    }
    const kind_oracle *oracle = oracle_of(kind);
    if (!oracle->valid(data, size, expected)) {
        return 0;
    }
    return header_only || oracle->valid_body == NULL || oracle->valid_body(data, size, expected);
}

void check_refusal(const char *why, const char *expected) {
    if (memchr(why, '\0', FILTER_WHY_MAX) == NULL) {
        fuzz_fail("a refusal's message is not terminated");
    }
    if (strcmp(why, expected) != 0) {
        fuzz_fail("a refusal says \"%s\", section 5 \"%s\"", why, expected);
    }
}

void check_header_round_trip(const filter_view *f) {
    const kind_oracle *oracle = oracle_of(f->kind);
    uint8_t *encoded = malloc(FILTER_HEADER_BYTES), *again = malloc(FILTER_HEADER_BYTES);
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (encoded == NULL || again == NULL) {
        fuzz_fail("out of memory for a header");
    }
    oracle->encode_header(encoded, f->blob);
    if (encoded[FILTER_OFF_VERSION] != f->kind->format_version ||
        encoded[FILTER_OFF_MIN_READER] != f->kind->format_version) {
        fuzz_fail("a '%s' header is written as format version %u, minimum reader %u", f->kind->name,
                  encoded[FILTER_OFF_VERSION], encoded[FILTER_OFF_MIN_READER]);
    }
    for (size_t i = 0; i < FILTER_HEADER_BYTES; i++) {
        int versions = i == FILTER_OFF_VERSION || i == FILTER_OFF_MIN_READER;
        int reserved = i >= 8 && oracle->is_reserved(i);
        if (reserved ? encoded[i] != 0 : !versions && encoded[i] != f->blob[i]) {
            fuzz_fail("header byte %zu re-encodes as 0x%02X, was 0x%02X", i, encoded[i],
                      f->blob[i]);
        }
    }
    if (filter_open_header(encoded, f->bytes, &view, why) != FILTER_OK) {
        fuzz_fail("a re-encoded header is refused: %s", why);
    }
    if (view.kind != f->kind || view.hash != f->hash || view.version != f->kind->format_version ||
        view.min_reader_version != f->kind->format_version) {
        fuzz_fail("a re-encoded header opens as another kind or version");
    }
    oracle->encode_header(again, encoded);
    if (memcmp(again, encoded, FILTER_HEADER_BYTES) != 0) {
        fuzz_fail("a re-encoded header re-encodes differently");
    }
    free(encoded);
    free(again);
}

/* Opens blob, which an operation of the kind of f wrote, as a filter of f's size and kind. */
static filter_view open_written(const uint8_t *blob, const filter_view *f, const char *what) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(blob, f->bytes, &view, why) != FILTER_OK || view.kind != f->kind) {
        fuzz_fail("%s is refused: %s", what, why);
    }
    return view;
}

/* What filter_kind_refusal says a kind cannot do, and the words of the ability in its
** message (the errors of docs/functions.md: "a 'standard' filter cannot remove keys; ..."). */
static const struct {
    filter_ability ability;
    const char *doing;
} abilities[] = {
    {FILTER_ADDS, "add keys"},       {FILTER_ADDS_IN_PLACE, "add keys where it is stored"},
    {FILTER_REMOVES, "remove keys"}, {FILTER_MERGES, "merge with another"},
    {FILTER_GROWS, "grow"},          {FILTER_PROBES_IN_PLACE, "be probed where it is stored"},
};

/* The refusal of kind for abilities[a], as the errors of docs/functions.md give it: "a 'NAME'
** filter cannot DOING; build a 'K1', 'K2' or 'K3' filter to DOING", the kinds that can in the
** order of the table (those of kind's noun when any can: a filter is not told to build a
** sketch); for a kind that adds nothing after it is built (rule 30 (static
** filters)), "a 'NAME' filter cannot DOING: it is built once from all its keys; build it again,
** or build a ..." ("build it from both sets of keys" for a merge). Cut as FILTER_WHY_MAX cuts. */
static void expected_refusal(const filter_kind *kind, size_t a, char *out) {
    char text[1024];
    size_t used = (size_t)snprintf(text, sizeof text, "a '%s' filter cannot %s", kind->name,
                                   abilities[a].doing);
    if (filter_kind_can(kind, FILTER_ADDS)) {
        used += (size_t)snprintf(text + used, sizeof text - used, "; build a ");
    } else {
        used += (size_t)snprintf(text + used, sizeof text - used,
                                 ": it is built once from all its keys; build it %s, or build a ",
                                 abilities[a].ability == FILTER_MERGES ? "from both sets of keys"
                                                                       : "again");
    }
    /* The kinds that can, those of kind's noun ("filter", "sketch") when there are any. */
    const char *noun = kind->noun != NULL ? kind->noun : "filter";
    size_t able = 0, count = 0, same = 0;
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *other = filter_kind_at(i);
        int can = filter_kind_can(other, abilities[a].ability);
        count += can;
        same += can && strcmp(other->noun != NULL ? other->noun : "filter", noun) == 0;
    }
    count = same > 0 ? same : count;
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *other = filter_kind_at(i);
        if (filter_kind_can(other, abilities[a].ability) &&
            (same == 0 || strcmp(other->noun != NULL ? other->noun : "filter", noun) == 0)) {
            able++;
            used += (size_t)snprintf(text + used, sizeof text - used, "%s'%s'",
                                     able == 1       ? ""
                                     : able == count ? " or "
                                                     : ", ",
                                     other->name);
        }
    }
    snprintf(text + used, sizeof text - used, " filter to %s", abilities[a].doing);
    size_t length = strlen(text) < FILTER_WHY_MAX - 1 ? strlen(text) : FILTER_WHY_MAX - 1;
    memcpy(out, text, length);
    out[length] = '\0';
}

/* Aborts unless filter_kind_refusal says, of each thing the kind of f cannot do, what
** expected_refusal says; and, when it cannot merge, unless filter_compatible refuses f with g (of
** its kind) with that message. */
static void check_refusals(const filter_view *f, const filter_view *g) {
    char why[FILTER_WHY_MAX], expected[FILTER_WHY_MAX];
    for (size_t a = 0; a < sizeof abilities / sizeof abilities[0]; a++) {
        if (filter_kind_can(f->kind, abilities[a].ability)) {
            continue;
        }
        memset(why, 0xFF, sizeof why);
        filter_kind_refusal(f->kind, abilities[a].ability, why);
        expected_refusal(f->kind, a, expected);
        if (memchr(why, '\0', sizeof why) == NULL || strcmp(why, expected) != 0) {
            fuzz_fail("a '%s' filter refuses to %s with \"%.*s\", not \"%s\"", f->kind->name,
                      abilities[a].doing, FILTER_WHY_MAX, why, expected);
        }
        if (abilities[a].ability == FILTER_MERGES) {
            memset(why, 0, sizeof why);
            if (filter_compatible(f, g, why) != FILTER_INVALID || strcmp(why, expected) != 0) {
                fuzz_fail("filter_compatible of a '%s' filter says \"%s\", not \"%s\"",
                          f->kind->name, why, expected);
            }
        }
    }
}

/* The answer of key in f from the bits probe_bits gives (every bit of one way set), as a live
** table's index gives it; the positions in f's body and the ways within their bounds. */
static int probe_of_bits(const filter_view *f, key_hash key) {
    filter_probe_bits bits;
    uint64_t body_bits = (f->bytes - FILTER_HEADER_BYTES) * 8;
    int answer = 0;
    f->kind->probe_bits(f, key, &bits);
    if (bits.ways < 0 || bits.ways > FILTER_PROBE_WAYS) {
        fuzz_fail("probe_bits gives %d ways", bits.ways);
    }
    for (int w = 0; w < bits.ways; w++) {
        int all = 1;
        if (bits.count[w] < 1 || bits.count[w] > FILTER_PROBE_BITS) {
            fuzz_fail("probe_bits gives %d bits in way %d", bits.count[w], w);
        }
        for (int j = 0; j < bits.count[w]; j++) {
            uint64_t at = bits.position[w][j];
            if (at >= body_bits) {
                fuzz_fail("probe_bits gives bit %llu of a body of %llu", (unsigned long long)at,
                          (unsigned long long)body_bits);
            }
            all &= (f->blob[FILTER_HEADER_BYTES + at / 8] >> (at % 8)) & 1;
        }
        answer |= all;
    }
    return answer;
}

/*
** The operations check_operations checks, each against the oracle's model too: filter_copy;
** then, key by key, might_contain, might_contain_io (of a kind that probes in place) and the
** bits of probe_bits (of a kind that probes by bits); for a
** kind that removes, remove_io of a key that probes 0 (FILTER_ABSENT, nothing written); for a
** kind that adds, add_io, and add on a copy (the same status, and the same bytes when it
** succeeds; FILTER_REFUSED, nothing written, only from a kind whose filters hold values of one
** type), the key then probing 1, and remove_io of the key just added succeeding; then, for a
** kind that merges, compatible and merge of f, on a copy, into the filter with the keys added
** (the same status as the model's: FILTER_FULL when a fingerprint finds no room). What the kind
** cannot do (a static kind: add, remove, merge), filter_kind_refusal and filter_compatible
** refuse as docs/functions.md's errors say.
*/
void check_operations(const filter_view *f, const key_hash *keys, size_t count) {
    const filter_kind *kind = f->kind;
    const kind_oracle *oracle = oracle_of(kind);
    int adds = filter_kind_can(kind, FILTER_ADDS), removes = filter_kind_can(kind, FILTER_REMOVES);
    int merges = filter_kind_can(kind, FILTER_MERGES);
    int probes_io = filter_kind_can(kind, FILTER_PROBES_IN_PLACE);
    uint8_t *copy = malloc(f->bytes), *expected = duplicate(f->blob, f->bytes);
    uint8_t *added = duplicate(f->blob, f->bytes), *via_io = duplicate(f->blob, f->bytes);
    uint8_t *model = duplicate(f->blob, f->bytes);
    io_target t = io_new();
    char why[FILTER_WHY_MAX];
    if (copy == NULL) {
        fuzz_fail("out of memory for %llu bytes", (unsigned long long)f->bytes);
    }

    filter_copy(copy, f);
    open_written(copy, f, "the kind's copy");
    oracle->encode_header(expected, f->blob);
    if (memcmp(copy, expected, f->bytes) != 0) {
        fuzz_fail("the kind's copy differs from the header re-encoded and the body");
    }

    for (size_t i = 0; i < count; i++) {
        filter_view view = open_written(added, f, "a filter the kind added to");
        int probe = kind->might_contain(&view, keys[i]), answer, was_absent = !probe;
        if (probes_io &&
            (check_io(&t, f, via_io, OP_MIGHT_CONTAIN, keys[i], &answer) != FILTER_OK ||
             answer != probe)) {
            fuzz_fail("might_contain_io answers %d, might_contain %d", answer, probe);
        }
        if (oracle->probe(model, keys[i]) != probe) {
            fuzz_fail("might_contain answers %d, the oracle %d", probe, !probe);
        }
        if (kind->probe_bits != NULL && probe_of_bits(&view, keys[i]) != probe) {
            fuzz_fail("might_contain answers %d, the bits of probe_bits %d", probe, !probe);
        }
        if (removes && !probe &&
            check_io(&t, f, via_io, OP_REMOVE, keys[i], &answer) != FILTER_ABSENT) {
            fuzz_fail("remove_io removes a key that probes 0");
        }
        if (!adds) {
            continue;
        }
        filter_status status = check_io(&t, f, via_io, OP_ADD, keys[i], &answer);
        uint8_t *in_memory = duplicate(added, f->bytes); /* dropped unless the add succeeds */
        filter_status memory_status = filter_add(kind, in_memory, keys[i]);
        if (memory_status != status) {
            fuzz_fail("add returns %d, add_io %d", memory_status, status);
        }
        if (status == FILTER_OK) {
            memcpy(added, in_memory, f->bytes);
            if (answer != was_absent) {
                fuzz_fail("add_io says was_absent %d of a key that probed %d", answer, probe);
            }
        } else if (status != FILTER_FULL &&
                   (status != FILTER_REFUSED || kind->value_type == NULL)) {
            fuzz_fail("add_io returns %d", status);
        }
        free(in_memory);
        if (memcmp(added, via_io, f->bytes) != 0) {
            fuzz_fail("add and add_io give other bytes");
        }
        int model_was_absent;
        filter_status model_status = oracle->add(model, keys[i], &model_was_absent);
        if (status != model_status || memcmp(added, model, f->bytes) != 0) {
            fuzz_fail("add_io returns %d, the oracle %d; the bytes %s", status, model_status,
                      memcmp(added, model, f->bytes) != 0 ? "differ" : "agree");
        }
        if (status != FILTER_OK) {
            continue;
        }
        view = open_written(added, f, "a filter the kind added to");
        if (kind->might_contain(&view, keys[i]) != 1 ||
            (probes_io &&
             (check_io(&t, f, via_io, OP_MIGHT_CONTAIN, keys[i], &answer) != FILTER_OK ||
              answer != 1))) {
            fuzz_fail("a key added probes 0");
        }
        if (removes) {
            uint8_t *removed = duplicate(via_io, f->bytes);
            if (check_io(&t, f, removed, OP_REMOVE, keys[i], &answer) != FILTER_OK) {
                fuzz_fail("remove_io does not remove a key just added");
            }
            uint8_t *model_removed = duplicate(model, f->bytes);
            if (oracle->remove(model_removed, keys[i]) != FILTER_OK ||
                memcmp(removed, model_removed, f->bytes) != 0) {
                fuzz_fail("remove_io of a key just added disagrees with the oracle");
            }
            free(model_removed);
            free(removed);
        }
    }

    filter_view view = open_written(added, f, "a filter the kind added to");
    check_refusals(&view, f);
    if (merges) {
        filter_status compatible = filter_compatible(&view, f, why);
        int must_merge = oracle->compatible == NULL || oracle->compatible(added, f->blob);
        if (compatible != FILTER_OK && (must_merge || compatible != FILTER_INVALID)) {
            fuzz_fail("a filter is incompatible with itself with keys added: %s", why);
        }
        if (compatible == FILTER_OK && !must_merge) {
            fuzz_fail("a filter is compatible with itself with keys added, its oracle says not");
        }
        filter_status merged = FILTER_INVALID;
        if (compatible == FILTER_OK) {
            uint8_t *merging = duplicate(added, f->bytes); /* dropped unless the merge succeeds */
            merged = kind->merge(merging, f);
            if (merged == FILTER_OK) {
                memcpy(added, merging, f->bytes);
            } else if (merged != FILTER_FULL) {
                fuzz_fail("merge returns %d", merged);
            }
            free(merging);
            view = open_written(added, f, "a merged filter");
        }
        filter_status model_merged =
            compatible == FILTER_OK ? oracle->merge(model, f->blob) : FILTER_INVALID;
        if (merged != model_merged || memcmp(added, model, f->bytes) != 0) {
            fuzz_fail("the kind's merge returns %d, the oracle %d; the bytes %s", merged,
                      model_merged, memcmp(added, model, f->bytes) != 0 ? "differ" : "agree");
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (kind->might_contain(&view, keys[i]) != oracle->probe(model, keys[i])) {
            fuzz_fail("might_contain disagrees with the oracle after a merge");
        }
    }
    free(copy);
    free(expected);
    free(added);
    free(via_io);
    free(model);
    io_close(&t);
}

/*
** check_validate_body: the kind's validate_body, on a view of the header alone through the
** checked filter_io over a copy of the BLOB, gives filter_open's status (opened) and message
** (opened_why), writes nothing, reads inside the BLOB at most STAGES_MAX times (a bounded
** number, whatever its length), and reports each of its reads failing in turn.
*/
void check_validate_body(const uint8_t *data, size_t size, filter_status opened,
                         const char *opened_why) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open_header(data, size, &view, why) != FILTER_OK ||
        view.kind->validate_body == NULL) {
        return;
    }
    io_target t = io_new();
    uint8_t *blob = duplicate(data, size);
    io_open(&t, blob, &view, 0);
    filter_io io = io_of(&t, 1);
    why[0] = '\0';
    filter_status status = view.kind->validate_body(&t.view, &io, why);
    if (status != opened || strcmp(why, opened_why) != 0) {
        fuzz_fail("validate_body through a filter_io says %d \"%s\", filter_open %d \"%s\"", status,
                  why, opened, opened_why);
    }
    unsigned calls = t.calls;
    if (t.writes != 0 || calls > STAGES_MAX) {
        fuzz_fail("validate_body makes %u reads and %u writes", calls, t.writes);
    }
    for (unsigned fail_at = 1; fail_at <= calls; fail_at++) {
        io_open(&t, blob, &view, fail_at);
        io = io_of(&t, 1);
        if (view.kind->validate_body(&t.view, &io, why) != FILTER_IO_FAILED) {
            fuzz_fail("validate_body does not report its read %u failing", fail_at);
        }
    }
    free(blob);
    io_close(&t);
}
