/*
** test_filter.c: the container every filter shares (filter: the prelude, filter_io, the helpers
** of every kind; filter_info: bloom_info's JSON) and the table of kinds above the kinds
*(filter_kinds, kind_list.h): lookup,
** filter_open, what each kind can do and the refusal of what it cannot, the hash of a key, and
** the operations every kind answers (filter_add, filter_remove, filter_copy, filter_compatible,
** filter_merge), on every kind of the table through its recipe, against the cell model.
*/
#include "../test_kinds.h"
#include "cell_model.h"
#include "../info_text.h"
#include "unit.h"

#include <math.h>

/* ---- The container ------------------------------------------------------------------- */

/* docs/format.md section 5, the container's checks with the table's messages, on a standard
** filter: the length, the magic, the versions, the kind and the hash of the prelude. */
void test_prelude_validation(void) {
    uint8_t valid[88];
    CHECK_U64(make_filter(&bloom_standard_kind, 192, 7, 20, 0.01, valid, sizeof valid), 88);

    check_invalid(valid, 0, 99, 0,
                  "not a Bloom filter: length 0 is shorter than the 64-byte header");
    check_invalid(valid, 63, 99, 0,
                  "not a Bloom filter: length 63 is shorter than the 64-byte header");
    check_invalid(valid, 88, 0, 's',
                  "not a Bloom filter: magic is x'73514246', not x'53514246' (SQBF)");
    check_invalid(valid, 88, 5, 2,
                  "corrupt filter: format version 1 with minimum reader version 2");
    check_invalid(valid, 88, 5, 0,
                  "corrupt filter: format version 1 with minimum reader version 0");
    check_invalid(valid, 88, 4, 0,
                  "corrupt filter: format version 0 with minimum reader version 1");
    check_invalid(valid, 88, 6, 255, "corrupt filter: unknown kind 255");
    check_invalid(valid, 88, 6, 10, "corrupt filter: unknown kind 10");
    check_invalid(valid, 88, 6, 0, "corrupt filter: unknown kind 0");
    check_invalid(valid, 88, 7, 0, "corrupt filter: unknown hash 0");
    expect_invalid_at(
        valid, 88, 4, 0x0404, 2,
        "filter format version 4 needs a reader of version 4 or later; this one reads "
        "version 3");
    /* A kind added by a later format version is written with that version as its minimum
    ** reader version: this reader refuses it as newer before looking at the kind. */
    uint8_t newer_format[88];
    memcpy(newer_format, valid, sizeof newer_format);
    newer_format[4] = newer_format[5] = 4;
    newer_format[6] = 10;
    newer_format[8] = 0xEE;
    expect_invalid(newer_format, sizeof newer_format,
                   "filter format version 4 needs a reader of version 4 or later; this one reads "
                   "version 3");
}

/* The helpers of every kind: the range of a rate, and counts of keys kept at 2^64 - 1. */
void test_container_helpers(void) {
    CHECK(filter_check_rate(0.5) == FILTER_OK && filter_check_rate(1e-300) == FILTER_OK);
    CHECK(filter_check_rate(0) == FILTER_BAD_ARGUMENT &&
          filter_check_rate(1) == FILTER_BAD_ARGUMENT);
    CHECK(filter_check_rate(NAN) == FILTER_BAD_ARGUMENT);
    CHECK_U64(filter_add_counts(2, 3), 5);
    CHECK_U64(filter_add_counts(UINT64_MAX - 1, 1), UINT64_MAX);
    CHECK_U64(filter_add_counts(UINT64_MAX, UINT64_MAX), UINT64_MAX);
}

/* filter_io_memory reads and writes the bytes of its BLOB at their offsets; a part of a
** filter_io (filter_io_part_init) those of the whole from its base on, failing as it fails. */
void test_filter_io(void) {
    static const uint8_t written[2] = {0xAA, 0xBB};
    uint8_t blob[32], buf[4];
    for (int i = 0; i < 32; i++) {
        blob[i] = (uint8_t)i;
    }
    filter_io memory = filter_io_memory(blob);
    CHECK(memory.read(memory.state, 5, buf, 3) == 0 && buf[0] == 5 && buf[2] == 7);
    CHECK(memory.write(memory.state, 30, written, 2) == 0);
    CHECK(blob[29] == 29 && blob[30] == 0xAA && blob[31] == 0xBB);

    counted_io state;
    filter_io whole = counted(&state, blob, 2);
    filter_io_part part;
    filter_io_part_init(&part, &whole, 16);
    CHECK(part.io.read(part.io.state, 4, buf, 2) == 0 && buf[0] == 20 && buf[1] == 21);
    CHECK(part.io.write(part.io.state, 0, buf, 2) == 0);
    CHECK(blob[16] == 20 && blob[17] == 21 && blob[18] == 18 && state.writes == 1);
    CHECK(part.io.read(part.io.state, 0, buf, 1) != 0 && state.calls == 3); /* the third fails */
}

/* ---- bloom_info's JSON (filter_info) ----------------------------------------------- */

/* The helpers write a field after a comma but the first of its object or list; an estimate
** that is infinite, and a string that is NULL, as null; filter_info the prelude's fields, then
** the kind's, as one object. */
void test_filter_info(void) {
    info_text out = info_text_new();
    out.sink.first = 1;
    info_count(&out.sink, "a", 18446744073709551615U);
    info_real(&out.sink, "b", 0.1);
    info_estimate(&out.sink, "c", INFINITY);
    info_estimate(&out.sink, "d", 2.25);
    info_string(&out.sink, "e", NULL);
    info_string(&out.sink, "f", "x");
    info_flag(&out.sink, "g", 1);
    info_list_begin(&out.sink, "h");
    info_list_end(&out.sink);
    info_list_begin(&out.sink, "i");
    for (int i = 0; i < 2; i++) {
        info_object_begin(&out.sink);
        info_count(&out.sink, "j", (uint64_t)i);
        info_null(&out.sink, "k");
        info_object_end(&out.sink);
    }
    info_list_end(&out.sink);
    info_flag(&out.sink, "l", 0);
    CHECK_STR(out.out.data, "\"a\":18446744073709551615,\"b\":0.1,\"c\":null,\"d\":2.3,\"e\":null,"
                            "\"f\":\"x\",\"g\":true,\"h\":[],\"i\":[{\"j\":0,\"k\":null},"
                            "{\"j\":1,\"k\":null}],\"l\":false");

    uint8_t blob[88];
    filter_view f;
    char why[FILTER_WHY_MAX];
    CHECK_U64(make_filter(&bloom_standard_kind, 192, 7, 20, 0.01, blob, sizeof blob), 88);
    CHECK(filter_open(blob, sizeof blob, &f, why) == FILTER_OK);
    text_clear(&out.out);
    filter_info(&f, &out.sink);
    CHECK_STR(out.out.data,
              "{\"format_version\":1,\"min_reader_version\":1,\"layout\":\"standard\","
              "\"hash\":\"xxh3-128\",\"k\":7,\"m\":192,\"bytes\":88,\"n\":20,\"p\":0.01,"
              "\"keys_added\":0,\"bits_set\":0,\"fill_ratio\":0.0,\"estimated_keys\":0.0,"
              "\"estimated_keys_error\":0.0,\"estimated_fp_rate\":0.0,\"over_capacity\":false}");
    free(out.out.data);
}

/* ---- The table of kinds -------------------------------------------------------------- */

/* The kind table: distinct ids and names, each found by its id, none readable only by a
** newer reader. */
void test_kind_table(void) {
    size_t count = 0;
    for (const filter_kind *kind; (kind = filter_kind_at(count)) != NULL; count++) {
        CHECK(filter_kind_by_id(kind->id) == kind);
        CHECK(kind->format_version >= 1 && kind->format_version <= FILTER_FORMAT_VERSION);
        for (size_t other = 0; other < count; other++) {
            CHECK(filter_kind_at(other)->id != kind->id);
            CHECK(strcmp(filter_kind_at(other)->name, kind->name) != 0);
        }
    }
    CHECK_U64(count, FILTER_KIND_COUNT);
    CHECK(filter_kind_by_id(0) == NULL && filter_kind_by_id((int)count + 1) == NULL);
    CHECK(filter_kind_at(count) == NULL && filter_kind_by_id(255) == NULL);
}

/* The table's contract (filter_kinds.h, kind_list.h): FILTER_KIND_COUNT kinds, the kind of id
** i at index i - 1 for i from 1, each with a name that no other has in any ASCII case. */
void test_kind_indexes(void) {
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *kind = filter_kind_at(i);
        if (!CHECK(kind != NULL)) {
            continue;
        }
        CHECK_U64(kind->id, i + 1);
        CHECK(filter_kind_by_id((int)i + 1) == kind);
        CHECK(kind->name != NULL && kind->name[0] != '\0');
        CHECK(filter_kind_named(kind->name) == kind); /* no kind before it has its name */
    }
    CHECK(filter_kind_at(FILTER_KIND_COUNT) == NULL && filter_kind_at(SIZE_MAX) == NULL);
    CHECK(filter_kind_by_id(-1) == NULL && filter_kind_by_id(FILTER_KIND_COUNT + 1) == NULL);
}

/* name into out (64 bytes), its ASCII letters upper-cased: every one, or every other one. */
static const char *recased(const char *name, int every_other, char *out) {
    size_t i = 0;
    for (; name[i] != '\0' && i < 63; i++) {
        int upper = !every_other || i % 2 == 0;
        out[i] = (char)(upper && name[i] >= 'a' && name[i] <= 'z' ? name[i] - 32 : name[i]);
    }
    out[i] = '\0';
    return out;
}

/* filter_kind_named finds each kind by its name in any ASCII case, and none by another name:
** a part of one, one with more, one that folds to one only beyond ASCII. */
void test_kind_named(void) {
    static const char *const unknown[] = {"",
                                          "bloom",
                                          "standard ",
                                          " standard",
                                          "standar",
                                          "standards",
                                          "stand ard",
                                          "countmin2",
                                          "\xC5\xBFtandard" /* U+017F, a long s: not ASCII */,
                                          "cuckoo\xC3\xA9"};
    char spelled[64];
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *kind = filter_kind_at(i);
        CHECK(filter_kind_named(recased(kind->name, 0, spelled)) == kind);
        CHECK(filter_kind_named(recased(kind->name, 1, spelled)) == kind);
        spelled[strlen(spelled) - 1] = '\0';
        CHECK(filter_kind_named(spelled) == NULL);
    }
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        if (!CHECK(filter_kind_named(unknown[i]) == NULL)) {
            fprintf(stderr, "    a kind named '%s'\n", unknown[i]);
        }
    }
}

/* The slots of a filter_kind that filter_kind_can reads, each a bit of a mask of them. */
enum {
    SLOT_ADD,
    SLOT_ADD_IO,
    SLOT_REMOVE_IO,
    SLOT_COMPATIBLE,
    SLOT_MERGE,
    SLOT_GROW_SIZE,
    SLOT_GROW_IO,
    SLOT_MIGHT_CONTAIN_IO,
    SLOTS,
    ALL_SLOTS = (1 << SLOTS) - 1
};

/* A test-only kind: a copy of kind with the slots of mask (1 << SLOT_*) left NULL. */
static filter_kind kind_without(const filter_kind *kind, unsigned mask) {
    filter_kind copy = *kind;
    copy.add = mask & 1u << SLOT_ADD ? NULL : copy.add;
    copy.add_io = mask & 1u << SLOT_ADD_IO ? NULL : copy.add_io;
    copy.remove_io = mask & 1u << SLOT_REMOVE_IO ? NULL : copy.remove_io;
    copy.compatible = mask & 1u << SLOT_COMPATIBLE ? NULL : copy.compatible;
    copy.merge = mask & 1u << SLOT_MERGE ? NULL : copy.merge;
    copy.grow_size = mask & 1u << SLOT_GROW_SIZE ? NULL : copy.grow_size;
    copy.grow_io = mask & 1u << SLOT_GROW_IO ? NULL : copy.grow_io;
    copy.might_contain_io = mask & 1u << SLOT_MIGHT_CONTAIN_IO ? NULL : copy.might_contain_io;
    return copy;
}

/* A test-only kind named 'test' that can do nothing: the counting kind without its slots. */
static filter_kind unable_kind(void) {
    filter_kind kind = kind_without(&counting_kind, ALL_SLOTS);
    kind.name = "test";
    return kind;
}

/* Each ability of filter_kinds.h and the slots it needs (1 << SLOT_*): one of them, or all. */
static const struct {
    filter_ability ability;
    unsigned slots;
    int needs_all;
} abilities[] = {
    {FILTER_ADDS, 1u << SLOT_ADD | 1u << SLOT_ADD_IO, 0},
    {FILTER_ADDS_IN_PLACE, 1u << SLOT_ADD_IO, 1},
    {FILTER_REMOVES, 1u << SLOT_REMOVE_IO, 1},
    {FILTER_MERGES, 1u << SLOT_COMPATIBLE | 1u << SLOT_MERGE, 1},
    {FILTER_GROWS, 1u << SLOT_GROW_SIZE | 1u << SLOT_GROW_IO, 1},
    {FILTER_PROBES_IN_PLACE, 1u << SLOT_MIGHT_CONTAIN_IO, 1},
};
enum { ABILITIES = sizeof abilities / sizeof abilities[0] };

/* The slots that kind fills, a mask of 1 << SLOT_*. */
static unsigned filled_slots(const filter_kind *kind) {
    return (unsigned)(kind->add != NULL) << SLOT_ADD |
           (unsigned)(kind->add_io != NULL) << SLOT_ADD_IO |
           (unsigned)(kind->remove_io != NULL) << SLOT_REMOVE_IO |
           (unsigned)(kind->compatible != NULL) << SLOT_COMPATIBLE |
           (unsigned)(kind->merge != NULL) << SLOT_MERGE |
           (unsigned)(kind->grow_size != NULL) << SLOT_GROW_SIZE |
           (unsigned)(kind->grow_io != NULL) << SLOT_GROW_IO |
           (unsigned)(kind->might_contain_io != NULL) << SLOT_MIGHT_CONTAIN_IO;
}

/* What the slots of kind say of abilities[a]. */
static int slots_say(const filter_kind *kind, size_t a) {
    unsigned filled = filled_slots(kind) & abilities[a].slots;
    return abilities[a].needs_all ? filled == abilities[a].slots : filled != 0;
}

/* filter_kind_can answers for every ability of every kind as its slots say, and so for every
** copy of it with some of them NULL: a kind that can do nothing, half a pair, and the rest. */
void test_kind_can(void) {
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *kind = filter_kind_at(i);
        for (size_t a = 0; a < ABILITIES; a++) {
            int wrong = 0;
            CHECK_U64(filter_kind_can(kind, abilities[a].ability), slots_say(kind, a));
            for (unsigned mask = 1; mask <= ALL_SLOTS; mask++) {
                filter_kind copy = kind_without(kind, mask);
                wrong += filter_kind_can(&copy, abilities[a].ability) != slots_say(&copy, a);
            }
            if (!CHECK(wrong == 0)) {
                fprintf(stderr, "    %s without slots, ability %d: %d wrong\n", kind->name,
                        (int)abilities[a].ability, wrong);
            }
        }
    }
    filter_kind unable = unable_kind();
    for (size_t a = 0; a < ABILITIES; a++) {
        CHECK(!filter_kind_can(&unable, abilities[a].ability));
    }
}

/* filter_kind_refusal: what a kind cannot do and the kinds of the table that can, in their
** order, "a", "a or b", "a, b or c"; a message too long for why, cut and ended. */
/* Every kind's count_offset holds the count its operations keep: 0 in an empty filter, 1, 2
** and 3 after three keys added (each new to it), as 8 bytes; empty filters from
** tests/test_kinds.h. A kind that adds nothing after it is built has none (0). */
void test_kind_count_offset(void) {
    for (size_t i = 0; filter_kind_at(i) != NULL; i++) {
        const filter_kind *kind = filter_kind_at(i);
        uint64_t bytes = 0;
        if (!filter_kind_can(kind, FILTER_ADDS)) {
            CHECK(kind->count_offset == 0);
            continue;
        }
        uint8_t *blob = test_kind_of(kind)->make_empty(100, 0.01, &bytes);
        int wrong = blob == NULL || kind->count_offset < 8 ||
                    kind->count_offset + 8 > FILTER_HEADER_BYTES ||
                    load64(blob, kind->count_offset) != 0;
        for (int64_t key = 1; blob != NULL && key <= 3; key++) {
            filter_view view;
            char why[FILTER_WHY_MAX];
            key_value value = {KEY_TAG_INTEGER, key * 1000003, 0.0, NULL, 0};
            wrong += filter_open(blob, bytes, &view, why) != FILTER_OK;
            wrong += filter_add(kind, blob, filter_hash_key(&view, &value)) != FILTER_OK;
            wrong += load64(blob, kind->count_offset) != (uint64_t)key;
        }
        free(blob);
        if (!CHECK(wrong == 0)) {
            fprintf(stderr, "    kind %s\n", kind->name);
        }
    }
}

void test_kind_refusal(void) {
    /* A kind with no slots adds nothing: it is built once from all its keys (rule 30 (static
     * filters)). */
    static const struct {
        filter_ability ability;
        const char *message;
    } refusals[] = {
        {FILTER_ADDS, "a 'test' filter cannot add keys: it is built once from all its keys; build "
                      "it again, or build a 'standard', 'blocked', 'counting', 'cuckoo', "
                      "'scalable', 'parquet' or 'spark' filter to add keys"},
        {FILTER_ADDS_IN_PLACE,
         "a 'test' filter cannot add keys where it is stored: it is built once from all its keys; "
         "build it again, or build a 'standard', 'blocked', 'counting', 'cuckoo', 'scalable', "
         "'parquet' or 'spark' filter to add keys where it is stored"},
        {FILTER_REMOVES, "a 'test' filter cannot remove keys: it is built once from all its keys; "
                         "build it again, or build a 'counting' or 'cuckoo' filter to remove keys"},
        {FILTER_MERGES,
         "a 'test' filter cannot merge with another: it is built once from all its "
         "keys; build it from both sets of keys, or build a 'standard', 'blocked', "
         "'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to merge with "
         "another"},
        {FILTER_GROWS, "a 'test' filter cannot grow: it is built once from all its keys; build it "
                       "again, or build a 'scalable' filter to grow"},
        {FILTER_PROBES_IN_PLACE,
         "a 'test' filter cannot be probed where it is stored: it is built once from all its "
         "keys; build it again, or build a 'standard', 'blocked', 'counting', 'cuckoo', "
         "'scalable', 'parquet', 'fuse' or 'spark' filter to be probed where it is stored"},
    };
    char why[FILTER_WHY_MAX];
    filter_kind_refusal(&bloom_standard_kind, FILTER_REMOVES, why);
    CHECK_STR(why, "a 'standard' filter cannot remove keys; build a 'counting' or 'cuckoo' "
                   "filter to remove keys");
    filter_kind unable = unable_kind();
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        filter_kind_refusal(&unable, refusals[i].ability, why);
        CHECK_STR(why, refusals[i].message);
    }
    /* A name that leaves room for part of the list, and one longer than why. */
    static const size_t lengths[] = {200, FILTER_WHY_MAX + 10};
    char name[FILTER_WHY_MAX + 11];
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        memset(name, 'x', lengths[i]);
        name[lengths[i]] = '\0';
        unable.name = name;
        memset(why, 0x55, sizeof why);
        filter_kind_refusal(&unable, FILTER_ADDS, why);
        CHECK(memchr(why, '\0', sizeof why) == why + FILTER_WHY_MAX - 1);
        CHECK(strncmp(why, "a 'xxx", 6) == 0);
    }
}

/* The hash_key of a test-only kind: a fixed hash, the view and key it was given kept. */
static const filter_view *hashed_view;
static const key_value *hashed_key;

static key_hash fixed_hash_key(const filter_view *f, const key_value *key) {
    key_hash fixed = {UINT64_C(0x0123456789ABCDEF), UINT64_C(0xFEDCBA9876543210)};
    hashed_view = f;
    hashed_key = key;
    return fixed;
}

/* filter_hash_key hashes a key by the hash its prelude names (key_hash_value), unless the kind
** has a hash_key of its own. */
void test_hash_key(void) {
    static const uint8_t bytes[] = {0xDE, 0xAD, 0xBE, 0xEF};
    const key_value keys[] = {{KEY_TAG_INTEGER, -42, 0, NULL, 0},
                              {KEY_TAG_REAL, 0, 1.5, NULL, 0},
                              {KEY_TAG_TEXT, 0, 0, "hello", 5},
                              {KEY_TAG_BLOB, 0, 0, bytes, sizeof bytes}};
    const key_hash hashes[] = {key_hash_integer(-42), key_hash_real(1.5), key_hash_text("hello", 5),
                               key_hash_blob(bytes, sizeof bytes)};
    for (size_t i = 0; i < FILTER_KIND_COUNT; i++) {
        const filter_kind *kind = filter_kind_at(i);
        filter_view view = {
            kind, kind->format_version, kind->format_version, KEY_HASH_XXH3_128, NULL, 0};
        if (kind->hash_key != NULL) {
            continue; /* the test-only kind below has one */
        }
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            key_hash h = filter_hash_key(&view, &keys[k]);
            CHECK(same_hash(h, key_hash_value(KEY_HASH_XXH3_128, &keys[k])));
            CHECK(same_hash(h, hashes[k]));
        }
    }
    filter_kind own = bloom_standard_kind;
    own.hash_key = fixed_hash_key;
    filter_view view = {&own, 1, 1, KEY_HASH_XXH3_128, NULL, 0};
    key_hash h = filter_hash_key(&view, &keys[2]);
    CHECK(h.h1 == UINT64_C(0x0123456789ABCDEF) && h.h2 == UINT64_C(0xFEDCBA9876543210));
    CHECK(hashed_view == &view && hashed_key == &keys[2]);
}

/* The compatible slot of the test-only kinds of test_compatible_needs_merge: it accepts, and
** counts its calls. */
static int compatible_calls;

static filter_status accepting_compatible(const filter_view *a, const filter_view *b, char *why) {
    (void)a;
    (void)b;
    (void)why;
    compatible_calls++;
    return FILTER_OK;
}

/* filter_compatible refuses two filters of a kind that cannot merge (its compatible or its
** merge NULL) with filter_kind_refusal's text, without asking the kind; one that can merge,
** it asks. */
void test_compatible_needs_merge(void) {
    static const unsigned masks[] = {1u << SLOT_MERGE, 1u << SLOT_COMPATIBLE,
                                     1u << SLOT_MERGE | 1u << SLOT_COMPATIBLE};
    char why[FILTER_WHY_MAX], refusal[FILTER_WHY_MAX];
    filter_kind kind = bloom_standard_kind;
    kind.name = "test";
    kind.compatible = accepting_compatible;
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        filter_kind unable = kind_without(&kind, masks[i]);
        filter_view a = {&unable, 1, 1, KEY_HASH_XXH3_128, NULL, 0}, b = a;
        compatible_calls = 0;
        CHECK(filter_compatible(&a, &b, why) == FILTER_INVALID && compatible_calls == 0);
        filter_kind_refusal(&unable, FILTER_MERGES, refusal);
        CHECK_STR(why, refusal);
        CHECK_STR(why,
                  "a 'test' filter cannot merge with another; build a 'standard', 'blocked', "
                  "'counting', 'cuckoo', 'scalable', 'parquet' or 'spark' filter to merge with "
                  "another");
    }
    filter_view a = {&kind, 1, 1, KEY_HASH_XXH3_128, NULL, 0}, b = a;
    compatible_calls = 0;
    CHECK(filter_compatible(&a, &b, why) == FILTER_OK && compatible_calls == 1);
}

/* The golden filters of tests/golden/README.md, one for each kind of the kind table, built
** through the core API alone (the kind's add on an empty filter sized as bloom_build sizes
** it), compared with GOLDEN_DIR/<kind>_v<format version>.hex and with the model; a kind
** outside the model, by the test of its recipe. */
void test_golden(const char *golden_dir) {
    key_hash keys[32];
    size_t nkeys = golden_keys(keys);
    static cell_model expected;
    CHECK_U64(nkeys, 19);
    for (size_t i = 0; filter_kind_at(i) != NULL; i++) {
        const filter_kind *kind = filter_kind_at(i);
        const kind_recipe *r = recipe_of(kind);
        uint8_t built[256], golden[256];
        char name[GOLDEN_NAME_MAX];
        if (!CHECK(r->kind == kind)) {
            fprintf(stderr, "    the recipe of kind %s is another kind's\n", kind->name);
            continue;
        }
        if (r->own_golden != NULL) {
            r->own_golden(golden_dir);
            continue;
        }
        size_t bytes = make_sized(kind, 20, 0.01, built, sizeof built);
        filter_view view;
        char why[FILTER_WHY_MAX];
        CHECK_U64(bytes, r->golden_bytes);
        CHECK(filter_open(built, bytes, &view, why) == FILTER_OK && view.kind == kind);
        CHECK(model_read(&expected, built, bytes));
        for (size_t k = 0; k < nkeys; k++) {
            filter_add(kind, built, keys[k]);
            model_add(&expected, keys[k]);
        }
        CHECK(model_matches(&expected, built));
        size_t golden_len = read_golden(golden_dir, kind, golden, sizeof golden);
        CHECK_U64(golden_len, r->golden_bytes);
        if (!CHECK(golden_len == bytes && memcmp(golden, built, golden_len) == 0)) {
            print_built(golden_name(kind, name), built, bytes);
        }
    }
}

/* What the shared code asks of a kind, on the golden filter of every kind of the kind table:
** probe, copy, add, compatible and merge, through the kind table, against the model. */
void test_kind_operations(const char *golden_dir) {
    static uint8_t golden[FILTER_KIND_COUNT][512];
    static cell_model expected, other;
    uint8_t copy[512], newer[512];
    filter_view views[FILTER_KIND_COUNT], view;
    char why[FILTER_WHY_MAX], message[FILTER_WHY_MAX];
    key_hash keys[32];
    size_t nkeys, count = 0;
    for (; count < FILTER_KIND_COUNT && filter_kind_at(count) != NULL; count++) {
        const filter_kind *kind = filter_kind_at(count);
        const kind_recipe *r = recipe_of(kind);
        nkeys = r->golden_keys != NULL ? r->golden_keys(keys) : golden_keys(keys);
        size_t bytes = read_golden(golden_dir, kind, golden[count], sizeof golden[count]);
        if (!CHECK(filter_open(golden[count], bytes, &views[count], why) == FILTER_OK &&
                   views[count].kind == kind)) {
            fprintf(stderr, "    %s: %s\n", kind->name, why);
            return;
        }
        uint64_t added = keys_of(golden[count]);
        size_t present = 0;
        for (size_t k = 0; k < nkeys; k++) {
            present += kind->might_contain(&views[count], keys[k]) == 1;
        }
        CHECK_U64(present, nkeys);
        /* copy: the same bytes; a newer writer's extra header bytes dropped. */
        filter_copy(copy, &views[count]);
        CHECK(memcmp(copy, golden[count], bytes) == 0);
        memcpy(newer, golden[count], bytes);
        newer[4] = FILTER_FORMAT_VERSION + 1;
        newer[50] = 0x77;
        CHECK(filter_open(newer, bytes, &view, why) == FILTER_OK);
        filter_copy(copy, &view);
        CHECK(memcmp(copy, golden[count], bytes) == 0);
        if (r->own_golden != NULL) {
            continue; /* the rest is the model's: such a kind has tests of its own */
        }
        /* add: the key's cells (its fingerprint) and one more key, as the model says. */
        key_hash absent = key_hash_text("absent", 6);
        CHECK(model_read(&expected, golden[count], bytes));
        CHECK(kind->might_contain(&views[count], absent) == model_contains(&expected, absent));
        CHECK(filter_add(kind, copy, absent) == FILTER_OK);
        CHECK(model_add(&expected, absent));
        CHECK(model_matches(&expected, copy));
        CHECK(filter_open(copy, bytes, &view, why) == FILTER_OK);
        CHECK(kind->might_contain(&view, absent) == 1);
        CHECK_U64(keys_of(copy), added + 1);
        /* merge: cells added (ORed for bits), keys summed, the n and p of the first. In a kind
        ** that fills up they may not fit (the golden cuckoo filter's 20 and 19 fingerprints, its
        ** 40 slots): FILTER_FULL, as the model finds (what merge wrote is dropped). */
        CHECK(filter_compatible(&views[count], &view, why) == FILTER_OK);
        CHECK(model_read(&other, golden[count], bytes));
        int fits = model_merge(&expected, &other);
        CHECK(fits == !r->fills_up);
        CHECK(kind->merge(copy, &views[count]) == (fits ? FILTER_OK : FILTER_FULL));
        if (fits) {
            CHECK(model_matches(&expected, copy));
            CHECK(filter_open(copy, bytes, &view, why) == FILTER_OK);
            CHECK_U64(keys_of(copy), 2 * added + 1);
            CHECK(memcmp(copy, golden[count], BLOOM_OFF_KEYS) == 0);
        }
    }
    CHECK_U64(count, FILTER_KIND_COUNT);
    /* Filters of two kinds never merge, whichever comes first: a filter and a sketch are
    ** different kinds; a kind that does not merge says so; others ask for one kind. */
    for (size_t a = 0; a < count; a++) {
        for (size_t b = 0; b < count; b++) {
            const filter_kind *ka = views[a].kind, *kb = views[b].kind;
            if (a == b) {
                continue;
            }
            if ((ka == &countmin_kind) != (kb == &countmin_kind)) {
                snprintf(message, sizeof message,
                         "incompatible filters: a '%s' %s and a '%s' %s are different kinds, "
                         "which cannot be combined; a union takes two filters of one kind, or "
                         "two sketches",
                         ka->name, ka == &countmin_kind ? "sketch" : "filter", kb->name,
                         kb == &countmin_kind ? "sketch" : "filter");
            } else if (!filter_kind_can(ka, FILTER_MERGES) || !filter_kind_can(kb, FILTER_MERGES)) {
                filter_kind_refusal(filter_kind_can(ka, FILTER_MERGES) ? kb : ka, FILTER_MERGES,
                                    message);
            } else {
                snprintf(message, sizeof message,
                         "incompatible filters: a '%s' filter and a '%s' one; build both with the "
                         "same n, p and kind",
                         ka->name, kb->name);
            }
            CHECK(filter_compatible(&views[a], &views[b], why) == FILTER_INVALID);
            CHECK_STR(why, message);
        }
    }
    for (size_t a = 0; a < count; a++) {
        view = views[a];
        view.hash = 4; /* no such hash yet: a view made by hand */
        CHECK(filter_compatible(&views[a], &view, why) == FILTER_INVALID);
        snprintf(message, sizeof message, "incompatible filters: hash %u and hash 4",
                 views[a].hash);
        CHECK_STR(why, message);
    }
}

/* The _io operations of every kind, through filter_io_memory with a view of the header alone,
** give the answers and bytes of the operations in memory; a failing read or write is
** FILTER_IO_FAILED. A filter sized for 1000 keys is given 1500: in a kind that fills up (the
** cuckoo one) the last adds find no room, FILTER_FULL both ways, and the caller drops what
** they wrote. */
void test_io_matches_memory(void) {
    enum { BYTES_MAX = 8192 };
    static uint8_t a[BYTES_MAX], b[BYTES_MAX], before_add[BYTES_MAX];
    static cell_model expected;
    for (size_t i = 0; filter_kind_at(i) != NULL; i++) {
        const filter_kind *kind = filter_kind_at(i);
        uint8_t header[FILTER_HEADER_BYTES];
        filter_view va, vb;
        char why[FILTER_WHY_MAX];
        const kind_recipe *r = recipe_of(kind);
        if (r->own_golden != NULL) {
            continue; /* a kind outside the model has tests of its own */
        }
        size_t bytes = make_sized(kind, 1000, 0.01, a, sizeof a);
        if (!CHECK(bytes > 0 && filter_kind_can(kind, FILTER_PROBES_IN_PLACE) &&
                   filter_kind_can(kind, FILTER_ADDS_IN_PLACE))) {
            continue;
        }
        /* Of the kinds of the model, those whose format says so remove keys. */
        CHECK(filter_kind_can(kind, FILTER_REMOVES) == r->removes);
        memcpy(b, a, bytes);
        CHECK(model_read(&expected, a, bytes));
        int wrong = 0, absent = 0, full = 0;
        for (int64_t key = 0; key < 1500; key++) {
            key_hash probe = key_hash_integer(-key), add = key_hash_integer(key / 2);
            filter_io io = filter_io_memory(b);
            int answer = -1, was_absent = -1;
            wrong += filter_open(a, bytes, &va, why) != FILTER_OK;
            wrong += open_header_view(b, bytes, &vb, header) != FILTER_OK;
            wrong += kind->might_contain_io(&vb, &io, probe, &answer) != FILTER_OK;
            wrong += answer != kind->might_contain(&va, probe);
            int before = kind->might_contain(&va, add);
            absent += !before;
            memcpy(before_add, a, bytes);
            int fits = model_add(&expected, add);
            filter_status want = fits ? FILTER_OK : FILTER_FULL;
            wrong += filter_add(kind, a, add) != want;
            wrong += kind->add_io(&vb, &io, add, &was_absent) != want;
            if (!fits) {
                memcpy(a, before_add, bytes); /* the caller drops the writes */
                memcpy(b, before_add, bytes);
                full++;
            }
            wrong += was_absent != !before;
            wrong += memcmp(a, b, bytes) != 0;
        }
        wrong += !model_matches(&expected, a);
        CHECK(r->fills_up ? full > 50 : full == 0);
        if (filter_kind_can(kind, FILTER_REMOVES)) {
            for (int64_t key = 1500; key-- > 0;) {
                key_hash remove = key_hash_integer(key % 3 == 0 ? -key : key / 2);
                filter_io io = filter_io_memory(b);
                wrong += open_header_view(b, bytes, &vb, header) != FILTER_OK;
                int present = model_remove(&expected, remove);
                wrong += kind->remove_io(&vb, &io, remove) != (present ? FILTER_OK : FILTER_ABSENT);
            }
            wrong += !model_matches(&expected, b);
            memcpy(a, b, bytes); /* what follows adds to a filter with room */
        }
        CHECK_U64(wrong, 0);
        CHECK(absent > 300);

        /* Each read or write failing in turn: FILTER_IO_FAILED, until none fails. */
        counted_io state;
        key_hash key = key_hash_text("io", 2);
        int failed = 0, calls = 0;
        filter_status status = FILTER_IO_FAILED;
        for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 200; fail_at++) {
            int was_absent;
            memcpy(b, a, bytes);
            filter_io io = counted(&state, b, fail_at);
            CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
            status = kind->add_io(&va, &io, key, &was_absent);
            failed += status == FILTER_IO_FAILED;
            calls = state.calls;
        }
        CHECK(status == FILTER_OK && failed > 0 && failed == calls);
        if (filter_kind_can(kind, FILTER_REMOVES)) {
            memcpy(a, b, bytes); /* the key added */
            status = FILTER_IO_FAILED;
            failed = 0;
            for (int fail_at = 0; status == FILTER_IO_FAILED && fail_at < 200; fail_at++) {
                memcpy(b, a, bytes);
                filter_io io = counted(&state, b, fail_at);
                CHECK(filter_open(a, bytes, &va, why) == FILTER_OK);
                status = kind->remove_io(&va, &io, key);
                failed += status == FILTER_IO_FAILED;
                calls = state.calls;
            }
            CHECK(status == FILTER_OK && failed > 0 && failed == calls);
        }
        int answer;
        filter_io io = counted(&state, b, 0);
        CHECK(kind->might_contain_io(&va, &io, key, &answer) == FILTER_IO_FAILED);
    }
}
