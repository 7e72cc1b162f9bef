/*
** test_spark.c: Spark's Bloom filter kind (kind 9) against docs/format.md 4.9
** and against outputs of Spark's own classes (tests/golden/spark/
** shared_vectors.txt: its Murmur3_x86_32 and the bits one key sets, in both
** versions and with seeds): hash, positions, sizing, Spark's bytes both ways,
** validation, the _io operations and merging.
*/
#include "unit.h"

#include "filter_kinds.h"
#include "spark_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_spark_golden(const char *golden_dir);

/* The golden keys a Spark filter holds: the INTEGER, TEXT and BLOB ones (no REAL). */
static size_t spark_golden_keys(key_hash *keys);

const kind_recipe spark_recipe = {.kind = &spark_kind,
                                  .golden_bytes = 88,
                                  .own_golden = test_spark_golden,
                                  .golden_keys = spark_golden_keys};

/* Keys as the core reads them. */
static key_value sp_integer(int64_t v) {
    key_value key = {KEY_TAG_INTEGER, v, 0.0, NULL, 0};
    return key;
}

static key_value sp_bytes(int tag, const void *bytes, size_t length) {
    key_value key = {tag, 0, 0.0, bytes, length};
    return key;
}

/* The keys added of a Spark filter (its header's offset 24). */
static uint64_t sp_keys(const uint8_t *blob) {
    return load64(blob, 24);
}

/* A view of a Spark filter this file made. */
static filter_view sp_view(const uint8_t *blob, uint64_t bytes) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (!CHECK(filter_open(blob, bytes, &view, why) == FILTER_OK)) {
        fprintf(stderr, "    %s\n", why);
    }
    return view;
}

/* docs/format.md section 1: kind 9, of format version 3 and key hash 3; it adds in place and
** merges, refuses a REAL, neither removes nor grows. */
void test_spark_kind(void) {
    CHECK(filter_kind_by_id(SPARK_KIND) == &spark_kind && SPARK_KIND == 9);
    CHECK(spark_kind.format_version == 3 && FILTER_FORMAT_VERSION == 3);
    CHECK(spark_kind.key_hash == KEY_HASH_MURMUR3_SPARK && KEY_HASH_MURMUR3_SPARK == 3);
    CHECK_STR(spark_kind.name, "spark");
    CHECK_STR(key_hash_name(KEY_HASH_MURMUR3_SPARK), "murmur3-spark");
    CHECK(key_hash_is_known(3) && !key_hash_is_known(4));
    CHECK(filter_kind_can(&spark_kind, FILTER_ADDS_IN_PLACE) &&
          filter_kind_can(&spark_kind, FILTER_MERGES) &&
          filter_kind_can(&spark_kind, FILTER_PROBES_IN_PLACE));
    CHECK(!filter_kind_can(&spark_kind, FILTER_REMOVES) &&
          !filter_kind_can(&spark_kind, FILTER_GROWS));
    key_value real = {KEY_TAG_REAL, 0, 1.5, NULL, 0};
    key_value one = sp_integer(1);
    CHECK(!spark_key_is_value(spark_hash(&real, 0)) && spark_key_is_value(spark_hash(&one, 0)));
}

/* Reads a signed decimal at *s, moving past it and one space. */
static int64_t sp_number(char **s) {
    char *end;
    long long v = strtoll(*s, &end, 10);
    *s = *end == ' ' ? end + 1 : end;
    return (int64_t)v;
}

/* Reads a word (hex, or - for none) at *s into out, its bytes into *length. */
static void sp_hex_word(char **s, uint8_t *out, size_t cap, size_t *length) {
    char *end = strchr(*s, ' ');
    if (end != NULL) {
        *end = '\0';
    }
    *length = strcmp(*s, "-") == 0 ? 0 : parse_hex(*s, out, cap);
    *s = end != NULL ? end + 1 : *s + strlen(*s);
}

/* One "bits" line: the hashes and the bits one key sets in an empty filter. 1 when they match. */
static int sp_bits_line(char *s) {
    static uint8_t body[8192];
    uint8_t value[64];
    size_t length = 0;
    spark_header h = {0, 0.0, 0, 0, 0, 0, 0};
    h.version = (int)sp_number(&s);
    h.seed = (uint32_t)sp_number(&s);
    h.k = (uint32_t)sp_number(&s);
    int64_t bits = sp_number(&s);
    h.words = (uint32_t)(bits / 64);
    char type = *s;
    s += 2;
    key_value key;
    if (type == 'L') {
        key = sp_integer(sp_number(&s));
    } else {
        sp_hex_word(&s, value, sizeof value, &length);
        key = sp_bytes(type == 'S' ? KEY_TAG_TEXT : KEY_TAG_BLOB, value, length);
    }
    uint32_t h1 = (uint32_t)sp_number(&s), h2 = (uint32_t)sp_number(&s);
    key_hash hash = spark_hash(&key, h.seed);
    if (bits % 64 != 0 || (size_t)bits / 8 > sizeof body || hash.h1 != (h1 | (uint64_t)h2 << 32)) {
        return 0;
    }
    memset(body, 0, sizeof body);
    spark_set(body, &h, hash);
    char got[512] = "", *at = got;
    for (int64_t p = 0; p < bits; p++) {
        if ((body[p >> 3] >> (p & 7)) & 1) {
            at += snprintf(at, (size_t)(got + sizeof got - at), "%s%lld", at == got ? "" : ",",
                           (long long)p);
        }
    }
    return strcmp(got, s) == 0 && spark_test(body, &h, hash);
}

/* tests/golden/spark/shared_vectors.txt: Spark's hash of longs and of bytes of every tail
** length with several seeds, and the bits single keys set, in versions 1 and 2 with seeds 0
** and 42, equal those computed here. */
void test_spark_shared_vectors(const char *golden_dir) {
    char path[4096], line[1024];
    snprintf(path, sizeof path, "%s/spark/shared_vectors.txt", golden_dir);
    FILE *f = fopen(path, "r");
    int longs = 0, bytes = 0, bits = 0, wrong = 0;
    if (!CHECK(f != NULL)) {
        return;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        char *s = line, *newline = strchr(line, '\n');
        uint8_t data[256];
        size_t length;
        if (newline != NULL) {
            *newline = '\0';
        }
        if (strncmp(s, "long ", 5) == 0) {
            s += 5;
            int64_t v = sp_number(&s);
            uint32_t seed = (uint32_t)sp_number(&s), hash = (uint32_t)sp_number(&s);
            wrong += key_hash_spark_long(v, seed) != hash;
            longs++;
        } else if (strncmp(s, "bytes ", 6) == 0) {
            s += 6;
            sp_hex_word(&s, data, sizeof data, &length);
            uint32_t seed = (uint32_t)sp_number(&s), hash = (uint32_t)sp_number(&s);
            wrong += key_hash_spark_bytes(data, length, seed) != hash;
            bytes++;
        } else if (strncmp(s, "bits ", 5) == 0) {
            wrong += !sp_bits_line(s + 5);
            bits++;
        }
    }
    fclose(f);
    CHECK(longs == 60 && bytes == 188 && bits == 54);
    CHECK_U64(wrong, 0);
}

/* Spark's sizing: m = (long)(-n ln p / (ln 2)^2), k = max(1, round(m / n ln 2)), W = ceil(m / 64);
** version 1 reaches 2^31 bits. */
void test_spark_sizing(void) {
    uint32_t words, k;
    double bytes;
    CHECK(spark_size(1000, 0.03, 2, &words, &k, &bytes) == FILTER_OK && words == 115 && k == 5);
    CHECK(bytes == 64 + 115 * 8);
    CHECK(spark_size(20, 0.01, 1, &words, &k, &bytes) == FILTER_OK && words == 3 && k == 7);
    CHECK(spark_size(1, 0.5, 2, &words, &k, &bytes) == FILTER_OK && words == 1 && k == 1);
    CHECK(spark_size(30, 1e-10, 2, &words, &k, &bytes) == FILTER_OK && k == 33);
    CHECK(spark_size(1, 0.9, 2, &words, &k, &bytes) == FILTER_BAD_ARGUMENT); /* m = 0 */
    CHECK(spark_size(0, 0.5, 2, &words, &k, &bytes) == FILTER_BAD_ARGUMENT);
    CHECK(spark_size(10, 1.0, 2, &words, &k, &bytes) == FILTER_BAD_ARGUMENT);
    /* 10^9 keys at 1 %: 9,585,058,377 bits, past version 1's reach, not version 2's. */
    CHECK(spark_size(1000000000, 0.01, 1, &words, &k, &bytes) == FILTER_TOO_BIG);
    CHECK(bytes == 64 + 8 * 149766538.0);
    CHECK(spark_size(1000000000, 0.01, 2, &words, &k, &bytes) == FILTER_OK);
    CHECK(words == 149766538 && k == 7);
    /* Version 1 reaches 2^31 bits: 2e8 keys at 1 % take 1,917,011,675 bits, 2.5e8 take
    ** 2,396,264,594. */
    CHECK(spark_size(200000000, 0.01, 1, &words, &k, &bytes) == FILTER_OK && words == 29953308);
    CHECK(spark_size(250000000, 0.01, 1, &words, &k, &bytes) == FILTER_TOO_BIG);
    CHECK(spark_size(UINT64_MAX, 0.5, 2, &words, &k, &bytes) == FILTER_BAD_ARGUMENT);
}

/* Makes an empty filter of version v, seed, k and words into blob; its length. */
static uint64_t sp_empty(uint8_t *blob, int v, uint32_t seed, uint32_t k, uint32_t words) {
    spark_header h = {10, 0.01, 0, words, k, seed, v};
    memset(blob, 0, spark_blob_bytes(words));
    spark_write_header(blob, &h);
    return spark_blob_bytes(words);
}

/* Spark's bytes: big-endian head and words, both versions, back to the same filter; the heads
** and lengths that are refused, with why. */
void test_spark_bytes(void) {
    static uint8_t blob[64 + 8 * 4], back[64 + 8 * 4], out[16 + 8 * 4];
    char why[FILTER_WHY_MAX];
    for (int v = 1; v <= 2; v++) {
        uint64_t bytes = sp_empty(blob, v, v == 2 ? 0xCAFEBABEu : 0, 3, 4);
        for (int64_t i = 0; i < 10; i++) {
            key_value key = sp_integer(i);
            CHECK(filter_add(&spark_kind, blob, spark_hash(&key, v == 2 ? 0xCAFEBABEu : 0)) ==
                  FILTER_OK);
        }
        filter_view view = sp_view(blob, bytes);
        spark_header h = spark_header_of(&view), read;
        uint64_t length = spark_bytes_length(&h);
        CHECK_U64(length, (v == 1 ? 12 : 16) + 32);
        spark_write_bytes(out, &view);
        CHECK(out[3] == v && out[7] == 3 && out[length - 33] == 4);
        CHECK(v == 1 || (out[8] == 0xCA && out[11] == 0xBE));
        /* word 0, big-endian: its least significant byte last */
        CHECK(out[length - 32 + 7] == blob[64] && out[length - 32] == blob[64 + 7]);
        CHECK(spark_read_bytes(out, length, &read, why) == FILTER_OK);
        CHECK(read.version == v && read.k == 3 && read.words == 4 && read.n == 0 && read.keys == 0);
        spark_filter_from_bytes(back, out, &read);
        filter_view back_view = sp_view(back, bytes);
        CHECK(memcmp(back + 64, blob + 64, 32) == 0 && spark_header_of(&back_view).seed == h.seed);
        CHECK(spark_read_bytes(out, length - 1, &read, why) == FILTER_INVALID);
        CHECK_STR(why, "the head announces 4 words (32 bytes), and 31 bytes follow it");
    }
    static const struct {
        const char *hex, *why;
    } refused[] = {
        {"00000001000000", "7 bytes end before the head of Spark's bytes (12 or 16)"},
        {"000000030000000100000001", "Spark version 3, not 1 or 2"},
        {"000000020000000100000000", "12 bytes end inside the head of version 2's bytes (16)"},
        {"00000001000000000000000100000000000000FF", "0 hash functions, not 1 to 2147483647"},
        {"00000001FFFFFFFF0000000100000000000000FF", "-1 hash functions, not 1 to 2147483647"},
        {"000000010000000100000000", "0 words, not 1 to 2147483647"},
        {"0000000100000041000000010000000000000000", "65 hash functions for 64 bits: more than "
                                                     "the bits"},
        {"0000000100000001800000000000000000000000", "-2147483648 words, not 1 to 2147483647"},
        {"000000010000000100000002000000000000000000", "the head announces 2 words (16 bytes), "
                                                       "and 9 bytes follow it"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        uint8_t bytes[64];
        spark_header h;
        size_t length = parse_hex(refused[i].hex, bytes, sizeof bytes);
        CHECK(spark_read_bytes(bytes, length, &h, why) == FILTER_INVALID);
        CHECK_STR(why, refused[i].why);
    }
}

/* docs/format.md section 5: the header's fields against the BLOB. */
void test_spark_validation(void) {
    uint8_t blob[64 + 16];
    uint64_t bytes = sp_empty(blob, 2, 7, 3, 2);
    sp_view(blob, bytes);
    expect_invalid_at(blob, bytes, 44, 3, 1, "corrupt filter: Spark version 3, not 1 or 2");
    expect_invalid_at(blob, bytes, 36, 0, 4,
                      "corrupt filter: 0 hash functions, not 1 to 2147483647");
    expect_invalid_at(blob, bytes, 36, 0x80000000u, 4,
                      "corrupt filter: -2147483648 hash functions, not 1 to 2147483647");
    expect_invalid_at(blob, bytes, 32, 0, 4, "corrupt filter: 0 words, not 1 to 2147483647");
    expect_invalid_at(blob, bytes, 36, 129, 4,
                      "corrupt filter: 129 hash functions for 128 bits: more than the bits");
    blob[36] = 128; /* as many hash functions as bits: valid */
    sp_view(blob, bytes);
    blob[36] = 3;
    expect_invalid_at(blob, bytes, 32, 3, 4,
                      "corrupt filter: 3 words need 88 bytes, the BLOB has 80");
    expect_invalid(blob, bytes - 1, "corrupt filter: 2 words need 80 bytes, the BLOB has 79");
    expect_invalid_at(blob, bytes, 8, 0, 8, "corrupt filter: capacity n = 0");
    expect_reserved_invalid(blob, bytes, 45, 48, 1);
    blob[44] = 1;
    expect_invalid(blob, bytes, "corrupt filter: seed 7 in version 1, which has none");
    /* An older reader's refusal: the kind's format version. */
    blob[44] = 2;
    blob[5] = 2;
    expect_invalid(blob, bytes,
                   "corrupt filter: kind 9 is of format version 3, read by readers of version 3 "
                   "and later, not 2");
    blob[5] = 3;
    blob[7] = 1;
    expect_invalid(blob, bytes, "corrupt filter: kind 9 hashes its keys by hash 3, not 1");
}

/* The _io operations give the answers and bytes of those in memory, in both versions; a REAL is
** refused by both adds and found by no probe. */
void test_spark_io(void) {
    static uint8_t a[64 + 8 * 16], b[64 + 8 * 16];
    for (int v = 1; v <= 2; v++) {
        uint64_t bytes = sp_empty(a, v, v == 2 ? 42 : 0, 4, 16);
        memcpy(b, a, bytes);
        int wrong = 0, absent = 0;
        for (int64_t i = 0; i < 300; i++) {
            filter_view va, vb;
            uint8_t header[FILTER_HEADER_BYTES];
            char why[FILTER_WHY_MAX];
            filter_io io = filter_io_memory(b);
            key_value add = sp_integer(i / 2), probe = sp_integer(-i - 1);
            wrong += filter_open(a, bytes, &va, why) != FILTER_OK;
            wrong += open_header_view(b, bytes, &vb, header) != FILTER_OK;
            key_hash ka = filter_hash_key(&va, &add), kp = filter_hash_key(&va, &probe);
            int answer = -1, was_absent = -1, before = spark_kind.might_contain(&va, ka);
            wrong += spark_kind.might_contain_io(&vb, &io, kp, &answer) != FILTER_OK;
            wrong += answer != spark_kind.might_contain(&va, kp);
            wrong += filter_add(&spark_kind, a, ka) != FILTER_OK;
            wrong += spark_kind.add_io(&vb, &io, ka, &was_absent) != FILTER_OK;
            wrong += was_absent != !before;
            absent += !before;
            wrong += memcmp(a, b, bytes) != 0;
        }
        CHECK_U64(wrong, 0);
        CHECK(absent > 100 && sp_keys(a) == 300);
        filter_view view = sp_view(a, bytes);
        key_value real = {KEY_TAG_REAL, 0, 2.5, NULL, 0};
        key_hash r = filter_hash_key(&view, &real);
        filter_io io = filter_io_memory(b);
        int answer = -1, was_absent = -1;
        CHECK(filter_add(&spark_kind, a, r) == FILTER_REFUSED);
        CHECK(spark_kind.add_io(&view, &io, r, &was_absent) == FILTER_REFUSED);
        CHECK(spark_kind.might_contain_io(&view, &io, r, &answer) == FILTER_OK && answer == 0);
        CHECK(spark_kind.might_contain(&view, r) == 0 && spark_kind.probe_advice(&view, r) != NULL);
        CHECK(memcmp(a, b, bytes) == 0);
        /* a failed read or write */
        counted_io state;
        filter_io failing = counted(&state, b, 0);
        key_value one = sp_integer(12345);
        CHECK(spark_kind.might_contain_io(&view, &failing, filter_hash_key(&view, &one), &answer) ==
              FILTER_IO_FAILED);
    }
}

/* Union as Spark merges: the same version, words, k and seed; else why. */
void test_spark_merge(void) {
    static uint8_t a[64 + 32], b[64 + 32], c[64 + 32];
    char why[FILTER_WHY_MAX];
    uint64_t bytes = sp_empty(a, 2, 5, 3, 4);
    sp_empty(b, 2, 5, 3, 4);
    key_value x = sp_integer(1), y = sp_bytes(KEY_TAG_TEXT, "y", 1);
    CHECK(filter_add(&spark_kind, a, spark_hash(&x, 5)) == FILTER_OK);
    CHECK(filter_add(&spark_kind, b, spark_hash(&y, 5)) == FILTER_OK);
    filter_view va = sp_view(a, bytes), vb = sp_view(b, bytes);
    CHECK(filter_compatible(&va, &vb, why) == FILTER_OK);
    memcpy(c, a, bytes);
    CHECK(spark_kind.merge(c, &vb) == FILTER_OK && sp_keys(c) == 2);
    filter_view vc = sp_view(c, bytes);
    CHECK(spark_kind.might_contain(&vc, spark_hash(&x, 5)) &&
          spark_kind.might_contain(&vc, spark_hash(&y, 5)));
    static const struct {
        int version;
        uint32_t seed, k, words;
        const char *why;
    } others[] = {
        {1, 0, 3, 4,
         "incompatible filters: Spark versions 2 and 1; Spark merges filters of one "
         "version"},
        {2, 6, 3, 4, "incompatible filters: seeds 5 and 6; Spark merges filters of one seed"},
        {2, 5, 4, 4,
         "incompatible filters: 256 bits with k = 3 and 256 bits with k = 4; build "
         "both with the same n and p"},
        {2, 5, 3, 3,
         "incompatible filters: 256 bits with k = 3 and 192 bits with k = 3; build "
         "both with the same n and p"},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        uint64_t other =
            sp_empty(c, others[i].version, others[i].seed, others[i].k, others[i].words);
        filter_view vo = sp_view(c, other);
        CHECK(filter_compatible(&va, &vo, why) == FILTER_INVALID);
        CHECK_STR(why, others[i].why);
    }
}

static size_t spark_golden_keys(key_hash *keys) {
    static const int64_t integers[] = {0, 1, -1, INT64_MAX, INT64_MIN, 42, 42};
    static const char *texts[] = {"", "hello",
                                  "\xC3\xBCn\xC3\xAF"
                                  "c\xC3\xB6"
                                  "d\xC3\xA9",
                                  "\xF0\x9F\x99\x82"};
    static const uint8_t deadbeef[] = {0xDE, 0xAD, 0xBE, 0xEF};
    size_t count = 0;
    for (size_t i = 0; i < 7; i++) {
        key_value key = sp_integer(integers[i]);
        keys[count++] = spark_hash(&key, 0);
    }
    for (size_t i = 0; i < 4; i++) {
        key_value key = sp_bytes(KEY_TAG_TEXT, texts[i], strlen(texts[i]));
        keys[count++] = spark_hash(&key, 0);
    }
    key_value blobs[] = {sp_bytes(KEY_TAG_BLOB, NULL, 0), sp_bytes(KEY_TAG_BLOB, "", 1),
                         sp_bytes(KEY_TAG_BLOB, deadbeef, 4)};
    for (size_t i = 0; i < 3; i++) {
        keys[count++] = spark_hash(&blobs[i], 0);
    }
    return count;
}

/* tests/golden/README.md: spark_v3.hex, bloom_build(k, 20, 0.01, 'spark') over the golden keys
** that are not REAL: version 2, seed 0, 3 words, k = 7, 14 keys. */
static void test_spark_golden(const char *golden_dir) {
    key_hash keys[32];
    size_t count = spark_golden_keys(keys);
    uint8_t built[128], golden[128];
    spark_header h = {20, 0.01, 0, 0, 0, 0, 2};
    double bytes_needed;
    CHECK(spark_size(20, 0.01, 2, &h.words, &h.k, &bytes_needed) == FILTER_OK && h.words == 3);
    memset(built, 0, sizeof built);
    spark_write_header(built, &h);
    for (size_t i = 0; i < count; i++) {
        CHECK(filter_add(&spark_kind, built, keys[i]) == FILTER_OK);
    }
    size_t golden_len = read_golden_file(golden_dir, "spark_v3.hex", golden, sizeof golden);
    CHECK_U64(golden_len, 88);
    if (!CHECK(golden_len == 88 && memcmp(golden, built, golden_len) == 0)) {
        print_built("spark_v3.hex", built, 88);
        return;
    }
    filter_view view = sp_view(golden, golden_len);
    CHECK(spark_header_of(&view).keys == 14 && spark_header_of(&view).k == 7);
    for (size_t i = 0; i < count; i++) {
        CHECK(spark_kind.might_contain(&view, keys[i]) == 1);
    }
}
