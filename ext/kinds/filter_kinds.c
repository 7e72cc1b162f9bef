/*
** filter_kinds.c: the table of kinds, made from kind_list.h, and what it
** answers. See filter_kinds.h.
*/
#include "filter_kinds.h"

#include "kind_list.h"

#include <stdio.h>
#include <string.h>

/* Each kind's place in kind_list.h, from 1: its id, as the compiler checks, so that the table
** below (and the SQL side's, sql_kind_table.c) holds each kind at the index of its id less 1. */
enum {
    FILTER_KIND_PLACE_BEFORE_FIRST,
#define FILTER_KIND_PLACE(id, name) name##_place,
    FILTER_KINDS(FILTER_KIND_PLACE)
};
#define FILTER_KIND_CHECK_PLACE(id, name)                                                          \
    _Static_assert((int)(id) == (int)name##_place,                                                 \
                   "kind_list.h lists " #name " out of the order of ids");
FILTER_KINDS(FILTER_KIND_CHECK_PLACE)

/* The table. */
#define FILTER_KIND_ENTRY(id, name) &name##_kind,
static const filter_kind *const filter_kinds[FILTER_KIND_COUNT] = {FILTER_KINDS(FILTER_KIND_ENTRY)};

const filter_kind *filter_kind_at(size_t i) {
    return i < sizeof filter_kinds / sizeof filter_kinds[0] ? filter_kinds[i] : NULL;
}

const filter_kind *filter_kind_by_id(int id) {
    const filter_kind *kind = id >= 1 ? filter_kind_at((size_t)id - 1) : NULL;
    return kind != NULL && kind->id == id ? kind : NULL;
}

/* Whether a and b are the same in ASCII case. */
static int filter_kinds_same_name(const char *a, const char *b) {
    for (;; a++, b++) {
        int ca = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a, cb = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
        if (ca != cb) {
            return 0;
        }
        if (ca == '\0') {
            return 1;
        }
    }
}

const filter_kind *filter_kind_named(const char *name) {
    const filter_kind *kind;
    for (size_t i = 0; (kind = filter_kind_at(i)) != NULL; i++) {
        if (filter_kinds_same_name(name, kind->name)) {
            return kind;
        }
    }
    return NULL;
}

filter_status filter_open_header(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why) {
    int id = filter_read_prelude(blob, bytes, out, why);
    if (id < 0) {
        return FILTER_INVALID;
    }
    const filter_kind *kind = filter_kind_by_id(id);
    if (kind == NULL) {
        return filter_invalid(why, "corrupt filter: unknown kind %d", id);
    }
    return filter_check_kind(out, kind, why);
}

filter_status filter_open(const uint8_t *blob, uint64_t bytes, filter_view *out, char *why) {
    filter_status status = filter_open_header(blob, bytes, out, why);
    if (status != FILTER_OK || out->kind->validate_body == NULL) {
        return status;
    }
    filter_io io = filter_io_memory((uint8_t *)blob); /* read only */
    return out->kind->validate_body(out, &io, why);
}

int filter_kind_can(const filter_kind *kind, filter_ability ability) {
    switch (ability) {
    case FILTER_ADDS:
        return kind->add != NULL || kind->add_io != NULL;
    case FILTER_ADDS_IN_PLACE:
        return kind->add_io != NULL;
    case FILTER_REMOVES:
        return kind->remove_io != NULL;
    case FILTER_MERGES:
        return kind->compatible != NULL && kind->merge != NULL;
    case FILTER_GROWS:
        return kind->grow_size != NULL && kind->grow_io != NULL;
    case FILTER_PROBES_IN_PLACE:
        return kind->might_contain_io != NULL;
    case FILTER_COUNTS:
        return kind->estimate_io != NULL && kind->add_count_io != NULL;
    }
    return 0;
}

/* What ability lets a filter do, as the messages say it. */
static const char *filter_kinds_doing(filter_ability ability) {
    switch (ability) {
    case FILTER_ADDS:
        return "add keys";
    case FILTER_ADDS_IN_PLACE:
        return "add keys where it is stored";
    case FILTER_REMOVES:
        return "remove keys";
    case FILTER_MERGES:
        return "merge with another";
    case FILTER_GROWS:
        return "grow";
    case FILTER_PROBES_IN_PLACE:
        return "be probed where it is stored";
    case FILTER_COUNTS:
        return "count keys";
    }
    return "";
}

/* What a filter of kind is called in messages (its noun). */
static const char *filter_kinds_noun(const filter_kind *kind) {
    return kind->noun != NULL ? kind->noun : "filter";
}

int filter_probe_refused(const filter_view *f, key_hash key, int key_tag, char *why) {
    static const char *const tag_names[] = {"a value", "INTEGER", "REAL", "TEXT", "BLOB"};
    const char *advice = f->kind->probe_advice != NULL ? f->kind->probe_advice(f, key) : NULL;
    if (advice == NULL) {
        return 0;
    }
    const char *key_type =
        key_tag >= KEY_TAG_INTEGER && key_tag <= KEY_TAG_BLOB ? tag_names[key_tag] : tag_names[0];
    char type[FILTER_TYPE_TEXT_MAX];
    snprintf(why, FILTER_REFUSAL_MAX, "is %s, and no %s is a value of the filter's type, %s (%s)",
             key_type, key_type, f->kind->value_type(f, type), advice);
    return 1;
}

void filter_kind_refusal(const filter_kind *kind, filter_ability ability, char *why) {
    const filter_kind *able[sizeof filter_kinds / sizeof filter_kinds[0]];
    size_t count = 0, used;
    /* The kinds that can, of the same noun (a filter is not told to build a sketch) when there
    ** are any. */
    for (int same_noun = 1; same_noun >= 0 && count == 0; same_noun--) {
        for (size_t i = 0; filter_kind_at(i) != NULL; i++) {
            const filter_kind *other = filter_kind_at(i);
            if (filter_kind_can(other, ability) &&
                (!same_noun || strcmp(filter_kinds_noun(other), filter_kinds_noun(kind)) == 0)) {
                able[count++] = other;
            }
        }
    }
    /* A kind that never adds is built once from all its keys (rule 30 (static filters)). */
    const char *rebuild = filter_kind_can(kind, FILTER_ADDS) ? ""
                          : ability == FILTER_MERGES
                              ? ": it is built once from all its keys; build it from both sets "
                                "of keys, or build a "
                              : ": it is built once from all its keys; build it again, or build a ";
    used = (size_t)snprintf(why, FILTER_WHY_MAX, "a '%s' filter cannot %s%s", kind->name,
                            filter_kinds_doing(ability), *rebuild ? rebuild : "; build a ");
    for (size_t i = 0; i < count && used < FILTER_WHY_MAX; i++) {
        const char *separator = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        used +=
            (size_t)snprintf(why + used, FILTER_WHY_MAX - used, "%s'%s'", separator, able[i]->name);
    }
    if (used < FILTER_WHY_MAX) {
        snprintf(why + used, FILTER_WHY_MAX - used, " filter to %s", filter_kinds_doing(ability));
    }
}

filter_status filter_compatible(const filter_view *a, const filter_view *b, char *why) {
    const filter_kind *unmergeable = !filter_kind_can(a->kind, FILTER_MERGES)   ? a->kind
                                     : !filter_kind_can(b->kind, FILTER_MERGES) ? b->kind
                                                                                : NULL;
    if (strcmp(filter_kinds_noun(a->kind), filter_kinds_noun(b->kind)) != 0) {
        return filter_invalid(why,
                              "incompatible filters: a '%s' %s and a '%s' %s are different "
                              "kinds, which cannot be combined; a union takes two filters of one "
                              "kind, or two sketches",
                              a->kind->name, filter_kinds_noun(a->kind), b->kind->name,
                              filter_kinds_noun(b->kind));
    }
    if (a->kind != b->kind && unmergeable == NULL) {
        return filter_invalid(why,
                              "incompatible filters: a '%s' filter and a '%s' one; build both "
                              "with the same n, p and kind",
                              a->kind->name, b->kind->name);
    }
    if (a->kind == b->kind && a->hash != b->hash) {
        return filter_invalid(why, "incompatible filters: hash %u and hash %u", a->hash, b->hash);
    }
    if (unmergeable != NULL) {
        filter_kind_refusal(unmergeable, FILTER_MERGES, why);
        return FILTER_INVALID;
    }
    return a->kind->compatible(a, b, why);
}

filter_status filter_merge(uint8_t *blob, const filter_view *f) {
    return f->kind->merge(blob, f);
}

filter_status filter_add(const filter_kind *kind, uint8_t *blob, key_hash key) {
    if (kind->add != NULL) {
        return kind->add(blob, key);
    }
    filter_view f = {kind, 0, 0, 0, blob, 0}; /* the _io operations read its header alone */
    filter_io io = filter_io_memory(blob);
    int was_absent;
    return kind->add_io(&f, &io, key, &was_absent); /* memory cannot fail */
}

filter_status filter_remove(const filter_kind *kind, uint8_t *blob, key_hash key) {
    filter_view f = {kind, 0, 0, 0, blob, 0}; /* remove_io reads its header alone */
    filter_io io = filter_io_memory(blob);
    return kind->remove_io(&f, &io, key); /* memory cannot fail */
}

void filter_grow(const filter_kind *kind, uint8_t *blob, uint64_t bytes, uint64_t grown) {
    filter_view f = {kind, 0, 0, 0, blob, bytes};
    filter_io io = filter_io_memory(blob);
    memset(blob + bytes, 0, (size_t)(grown - bytes));
    kind->grow_io(&f, &io); /* memory cannot fail */
}

void filter_copy(uint8_t *dst, const filter_view *f) {
    f->kind->write_header(dst, f);
    memcpy(dst + FILTER_HEADER_BYTES, f->blob + FILTER_HEADER_BYTES,
           f->bytes - FILTER_HEADER_BYTES);
}
