/*
** cell_model.c: the model of docs/format.md that the core is checked against. See
** cell_model.h.
*/
#include "cell_model.h"

#include "hash_math.h"

enum { MODEL_KICKS = 500 }; /* section 4.4: the kicks of an add before it gives up */

uint64_t model_alt(uint64_t buckets, uint64_t i, uint32_t fp) {
    uint64_t g = hash_reduce_portable(model_mix(fp), buckets);
    return g >= i ? g - i : buckets - (i - g);
}

/* fp = reduce(h2, 2^f - 1) + 1. */
static uint32_t model_fingerprint(unsigned fp_bits, key_hash key) {
    return (uint32_t)(hash_reduce_portable(key.h2, (UINT64_C(1) << fp_bits) - 1) + 1);
}

/* Puts fp in the first empty slot (lowest s) of bucket b; 0 when b has none. */
static int model_put(cell_model *mo, uint64_t b, uint32_t fp) {
    for (unsigned s = 0; s < 4; s++) {
        if (mo->slot[4 * b + s] == 0) {
            mo->slot[4 * b + s] = fp;
            return 1;
        }
    }
    return 0;
}

/* Section 4.4's add of fp whose first bucket is i1, with the kicks' seed: 1 when it found
** room, else 0 and the slots as they were. */
static int model_insert(cell_model *mo, uint64_t i1, uint32_t fp, uint64_t seed) {
    static uint32_t before[MODEL_SLOTS_MAX];
    uint64_t i2 = model_alt(mo->buckets, i1, fp);
    if (model_put(mo, i1, fp) || model_put(mo, i2, fp)) {
        return 1;
    }
    memcpy(before, mo->slot, (size_t)(4 * mo->buckets) * sizeof before[0]);
    uint64_t b = (model_mix(seed) & 1) ? i2 : i1;
    for (uint64_t kick = 0; kick < MODEL_KICKS; kick++) {
        unsigned s = (unsigned)(model_mix(seed + kick + 1) >> 62);
        uint32_t evicted = mo->slot[4 * b + s];
        mo->slot[4 * b + s] = fp;
        fp = evicted;
        b = model_alt(mo->buckets, b, fp);
        if (model_put(mo, b, fp)) {
            return 1;
        }
    }
    memcpy(mo->slot, before, (size_t)(4 * mo->buckets) * sizeof before[0]);
    return 0;
}

void model_place(const cell_model *mo, key_hash key, uint32_t *fp, uint64_t *i1, uint64_t *i2) {
    *fp = model_fingerprint(mo->fp_bits, key);
    *i1 = hash_reduce_portable(key.h1, mo->buckets);
    *i2 = model_alt(mo->buckets, *i1, *fp);
}

/* The model of a cuckoo filter's header and slots: bit t of slot j is bit j f + t of the body,
** bit u of the body bit u mod 8 of byte 64 + u div 8. */
static int model_read_cuckoo(cell_model *out, const uint8_t *blob) {
    out->cuckoo = 1;
    out->fp_bits = blob[8];
    out->buckets = load64(blob, 16);
    out->keys = keys_of(blob);
    if (out->buckets > MODEL_SLOTS_MAX / 4) {
        return 0;
    }
    for (uint64_t j = 0; j < 4 * out->buckets; j++) {
        uint32_t fp = 0;
        for (unsigned t = 0; t < out->fp_bits; t++) {
            uint64_t u = j * out->fp_bits + t;
            fp |= (uint32_t)((blob[FILTER_HEADER_BYTES + u / 8] >> (u % 8)) & 1) << t;
        }
        out->slot[j] = fp;
    }
    return 1;
}

int model_read(cell_model *out, const uint8_t *blob, uint64_t bytes) {
    filter_view view;
    char why[FILTER_WHY_MAX];
    if (filter_open(blob, bytes, &view, why) != FILTER_OK ||
        recipe_of(view.kind)->own_golden != NULL) {
        return 0;
    }
    const kind_recipe *r = recipe_of(view.kind);
    if (r->cell_bits == 0) {
        return model_read_cuckoo(out, blob);
    }
    out->cuckoo = 0;
    bloom_header h = bloom_header_of(&view);
    if (h.m > MODEL_CELLS_MAX) {
        return 0;
    }
    out->positions = header_of(h.m, h.k, r->positions);
    out->cell_bits = r->cell_bits;
    out->max = (1u << r->cell_bits) - 1;
    out->keys = h.keys;
    for (uint64_t j = 0; j < h.m; j++) {
        uint64_t bit = j * r->cell_bits;
        out->cell[j] = (uint8_t)((blob[FILTER_HEADER_BYTES + bit / 8] >> (bit % 8)) & out->max);
    }
    return 1;
}

/* Writes the model's body (cells or slots, the bits after the last slot 0) into body; its
** length in bytes. */
static uint64_t model_body(const cell_model *mo, uint8_t *body) {
    uint64_t body_bytes;
    if (mo->cuckoo) {
        body_bytes = (4 * mo->buckets * mo->fp_bits + 7) / 8;
        memset(body, 0, body_bytes);
        for (uint64_t j = 0; j < 4 * mo->buckets; j++) {
            for (unsigned t = 0; t < mo->fp_bits; t++) {
                uint64_t u = j * mo->fp_bits + t;
                body[u / 8] |= (uint8_t)(((mo->slot[j] >> t) & 1) << (u % 8));
            }
        }
        return body_bytes;
    }
    body_bytes = mo->positions.m * mo->cell_bits / 8;
    memset(body, 0, body_bytes);
    for (uint64_t j = 0; j < mo->positions.m; j++) {
        uint64_t bit = j * mo->cell_bits;
        body[bit / 8] |= (uint8_t)(mo->cell[j] << (bit % 8));
    }
    return body_bytes;
}

int model_matches(const cell_model *mo, const uint8_t *blob) {
    static uint8_t body[MODEL_SLOTS_MAX * 32 / 8];
    uint64_t body_bytes = model_body(mo, body);
    return memcmp(blob + FILTER_HEADER_BYTES, body, body_bytes) == 0 && keys_of(blob) == mo->keys;
}

void model_write(const cell_model *mo, uint8_t *blob) {
    model_body(mo, blob + FILTER_HEADER_BYTES);
    store64(blob, BLOOM_OFF_KEYS, mo->keys);
}

uint32_t distinct_positions(const bloom_header *h, key_hash key, uint64_t *position,
                            unsigned *times) {
    uint64_t all[BLOOM_K_MAX];
    uint32_t count = 0;
    bloom_positions(h, key, all);
    for (uint32_t i = 0; i < h->k; i++) {
        uint32_t j = 0;
        while (j < count && position[j] != all[i]) {
            j++;
        }
        if (j == count) {
            position[count] = all[i];
            times[count++] = 0;
        }
        times[j]++;
    }
    return count;
}

int model_contains(const cell_model *mo, key_hash key) {
    uint64_t position[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    if (mo->cuckoo) { /* section 4.4, probe: a slot of i1 or of i2 holds fp */
        uint32_t fp;
        uint64_t i1, i2;
        model_place(mo, key, &fp, &i1, &i2);
        for (unsigned s = 0; s < 4; s++) {
            if (mo->slot[4 * i1 + s] == fp || mo->slot[4 * i2 + s] == fp) {
                return 1;
            }
        }
        return 0;
    }
    uint32_t count = distinct_positions(&mo->positions, key, position, times);
    for (uint32_t j = 0; j < count; j++) {
        if (mo->cell[position[j]] == 0) {
            return 0;
        }
    }
    return 1;
}

int model_add(cell_model *mo, key_hash key) {
    uint64_t position[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    if (mo->cuckoo) { /* section 4.4, add: with seed = h1; keys + 1, kept at 4B */
        uint32_t fp;
        uint64_t i1, i2;
        model_place(mo, key, &fp, &i1, &i2);
        if (!model_insert(mo, i1, fp, key.h1)) {
            return 0;
        }
        mo->keys = mo->keys < 4 * mo->buckets ? mo->keys + 1 : 4 * mo->buckets;
        return 1;
    }
    uint32_t count = distinct_positions(&mo->positions, key, position, times);
    for (uint32_t j = 0; j < count; j++) {
        unsigned v = mo->cell[position[j]] + times[j];
        mo->cell[position[j]] = (uint8_t)(v > mo->max ? mo->max : v);
    }
    mo->keys = mo->keys == UINT64_MAX ? UINT64_MAX : mo->keys + 1;
    return 1;
}

/* Section 4.3's remove: 0 (nothing changed) when a cell is below the times the key has it.
** Section 4.4's: the first slot of i1 holding fp, else of i2, emptied; 0 when none holds it. */
int model_remove(cell_model *mo, key_hash key) {
    uint64_t position[BLOOM_K_MAX];
    unsigned times[BLOOM_K_MAX];
    if (mo->cuckoo) {
        uint32_t fp;
        uint64_t bucket[2];
        model_place(mo, key, &fp, &bucket[0], &bucket[1]);
        for (int b = 0; b < 2; b++) {
            for (unsigned s = 0; s < 4; s++) {
                if (mo->slot[4 * bucket[b] + s] == fp) {
                    mo->slot[4 * bucket[b] + s] = 0;
                    mo->keys = mo->keys == 0 ? 0 : mo->keys - 1;
                    return 1;
                }
            }
        }
        return 0;
    }
    uint32_t count = distinct_positions(&mo->positions, key, position, times);
    for (uint32_t j = 0; j < count; j++) {
        if (mo->cell[position[j]] < times[j]) {
            return 0;
        }
    }
    for (uint32_t j = 0; j < count; j++) {
        if (mo->cell[position[j]] != mo->max) {
            mo->cell[position[j]] = (uint8_t)(mo->cell[position[j]] - times[j]);
        }
    }
    mo->keys = mo->keys == 0 ? 0 : mo->keys - 1;
    return 1;
}

/* Section 4.4's union: each non-empty slot s of bucket i of the second, in order, added from
** bucket i with seed = mix(i) XOR fp XOR s; keys summed, kept at 4B. */
int model_merge(cell_model *mo, const cell_model *other) {
    if (mo->cuckoo) {
        static cell_model before;
        before = *mo;
        for (uint64_t j = 0; j < 4 * other->buckets; j++) {
            uint32_t fp = other->slot[j];
            uint64_t i = j / 4;
            if (fp != 0 && !model_insert(mo, i, fp, model_mix(i) ^ fp ^ (j % 4))) {
                *mo = before;
                return 0;
            }
        }
        uint64_t keys = filter_add_counts(mo->keys, other->keys);
        mo->keys = keys < 4 * mo->buckets ? keys : 4 * mo->buckets;
        return 1;
    }
    for (uint64_t j = 0; j < mo->positions.m; j++) {
        unsigned v = mo->cell[j] + other->cell[j];
        mo->cell[j] = (uint8_t)(v > mo->max ? mo->max : v);
    }
    mo->keys = filter_add_counts(mo->keys, other->keys);
    return 1;
}
