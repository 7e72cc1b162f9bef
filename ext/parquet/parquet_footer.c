/*
** parquet_footer.c: a Parquet file's footer and Bloom filter headers, from the Thrift compact
** protocol. See parquet_footer.h.
**
** The compact protocol, as its specification (Thrift's doc/specs/thrift-compact-protocol.md)
** states it: integers are ULEB128 varints, zigzag-mapped when signed (i16, i32, i64); a struct
** is fields, each a header (type in the low 4 bits, a field id delta of 1 to 15 in the high 4,
** or a delta of 0 and the id as a zigzag varint), then a stop byte 0; a boolean field has its
** value in its type (1 true, 2 false) and no bytes; a list or set header holds the element
** type in its low 4 bits and the size in its high 4, or 15 there and the size as a varint; a
** map is a varint size, then (when not 0) a byte of key and value types; a binary (or string)
** is a varint length, then its bytes; a double 8 bytes, a uuid 16; a union is a struct with at
** most one field set. Every value takes at least one byte but a boolean field's, whose header
** does, so every walk here ends within as many steps as there are bytes.
*/
#include "parquet_footer.h"

#include "little_endian.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The compact protocol's types, as field types and as element types (where a boolean is
** either value: one byte). */
enum {
    THRIFT_STOP = 0,
    THRIFT_TRUE = 1,
    THRIFT_FALSE = 2,
    THRIFT_I8 = 3,
    THRIFT_I16 = 4,
    THRIFT_I32 = 5,
    THRIFT_I64 = 6,
    THRIFT_DOUBLE = 7,
    THRIFT_BINARY = 8,
    THRIFT_LIST = 9,
    THRIFT_SET = 10,
    THRIFT_MAP = 11,
    THRIFT_STRUCT = 12,
    THRIFT_UUID = 13
};

/* The largest size of a list, map or binary: Thrift's sizes are signed 32-bit. */
#define THRIFT_MAX_SIZE 2147483647u

/* Bytes being read, and where the messages go. */
typedef struct thrift_reader {
    const uint8_t *bytes;
    size_t size;
    size_t at;        /* the next byte to read */
    size_t field_at;  /* the header of the field being read, for messages */
    const char *what; /* the messages' subject: "footer", "Bloom filter header" */
    char *why;        /* PARQUET_WHY_MAX bytes */
} thrift_reader;

/* What a struct's reader does with each field: reads its value (of type, with its containers
** at depth + 1) or skips it. */
typedef parquet_status (*thrift_field_reader)(thrift_reader *r, void *state, int32_t id,
                                              uint8_t type, int depth);

static parquet_status thrift_skip(thrift_reader *r, uint8_t type, int is_element, int depth);

/* The name of a compact type in messages. */
static const char *thrift_type_name(uint8_t type) {
    static const char *const names[] = {"stop",   "bool",   "bool", "i8",  "i16", "i32",    "i64",
                                        "double", "binary", "list", "set", "map", "struct", "uuid"};
    return type < sizeof names / sizeof names[0] ? names[type] : "unknown type";
}

/* Writes "PREFIX: DETAIL" to why; the detail is format's. */
static void thrift_message(const thrift_reader *r, const char *prefix, const char *format,
                           va_list ap) {
    int used = snprintf(r->why, PARQUET_WHY_MAX, "%s", prefix);
    if (used >= 0 && used < PARQUET_WHY_MAX) {
        vsnprintf(r->why + used, (size_t)(PARQUET_WHY_MAX - used), format, ap);
    }
}

/* "malformed WHAT at byte AT: DETAIL"; returns PARQUET_INVALID. */
static parquet_status thrift_invalid(const thrift_reader *r, size_t at, const char *format, ...) {
    char prefix[64];
    snprintf(prefix, sizeof prefix, "malformed %s at byte %zu: ", r->what, at);
    va_list ap;
    va_start(ap, format);
    thrift_message(r, prefix, format, ap);
    va_end(ap);
    return PARQUET_INVALID;
}

/* "WHAT truncated: DETAIL at byte AT runs past its N bytes"; returns PARQUET_TRUNCATED. */
static parquet_status thrift_truncated(const thrift_reader *r, const char *detail, size_t at) {
    snprintf(r->why, PARQUET_WHY_MAX, "%s truncated: %s at byte %zu runs past its %zu bytes",
             r->what, detail, at, r->size);
    return PARQUET_TRUNCATED;
}

/* Steps over count bytes of detail. */
static parquet_status thrift_skip_bytes(thrift_reader *r, size_t count, const char *detail) {
    if (count > r->size - r->at) {
        return thrift_truncated(r, detail, r->at);
    }
    r->at += count;
    return PARQUET_OK;
}

/* Reads a varint of at most 64 bits (10 bytes, the last 0 or 1). */
static parquet_status thrift_varint(thrift_reader *r, uint64_t *v) {
    size_t start = r->at;
    uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
        if (r->at >= r->size) {
            return thrift_truncated(r, "a varint", start);
        }
        uint8_t byte = r->bytes[r->at++];
        if (shift == 63 && byte > 1) {
            return thrift_invalid(r, start, "a varint longer than 64 bits");
        }
        value |= (uint64_t)(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0) {
            *v = value;
            return PARQUET_OK;
        }
    }
}

/* Reads a zigzag varint that must lie in [min, max], an integer of Thrift's type_name. */
static parquet_status thrift_int(thrift_reader *r, int64_t min, int64_t max, const char *type_name,
                                 int64_t *v) {
    size_t start = r->at;
    uint64_t zigzag = 0;
    parquet_status status = thrift_varint(r, &zigzag);
    if (status != PARQUET_OK) {
        return status;
    }
    int64_t value = (int64_t)(zigzag >> 1) ^ -(int64_t)(zigzag & 1);
    if (value < min || value > max) {
        return thrift_invalid(r, start, "%lld does not fit an %s", (long long)value, type_name);
    }
    *v = value;
    return PARQUET_OK;
}

/* Reads an i32. */
static parquet_status thrift_i32(thrift_reader *r, int32_t *v) {
    int64_t value = 0;
    parquet_status status = thrift_int(r, INT32_MIN, INT32_MAX, "i32", &value);
    if (status == PARQUET_OK) {
        *v = (int32_t)value;
    }
    return status;
}

/* Reads a varint size of what ("a list", "a map", "a binary"): at most 2^31 - 1. */
static parquet_status thrift_size(thrift_reader *r, const char *what, uint64_t *size) {
    size_t start = r->at;
    parquet_status status = thrift_varint(r, size);
    if (status == PARQUET_OK && *size > THRIFT_MAX_SIZE) {
        return thrift_invalid(r, start, "%s of %llu, above Thrift's 2^31 - 1", what,
                              (unsigned long long)*size);
    }
    return status;
}

/* Reads a binary (a string too): a pointer into the bytes and its length. */
static parquet_status thrift_binary(thrift_reader *r, parquet_text *out) {
    size_t start = r->at;
    uint64_t length = 0;
    parquet_status status = thrift_size(r, "a binary length", &length);
    if (status != PARQUET_OK) {
        return status;
    }
    if (length > r->size - r->at) {
        char detail[64];
        snprintf(detail, sizeof detail, "a binary of %llu bytes", (unsigned long long)length);
        return thrift_truncated(r, detail, start);
    }
    out->bytes = r->bytes + r->at;
    out->length = (uint32_t)length;
    r->at += length;
    return PARQUET_OK;
}

/* Reads a list or set header: element type and count. Each element takes a byte at least, so
** a count past the bytes left is refused here. */
static parquet_status thrift_list(thrift_reader *r, uint8_t *element, uint32_t *count) {
    size_t start = r->at;
    if (r->at >= r->size) {
        return thrift_truncated(r, "a list header", start);
    }
    uint8_t byte = r->bytes[r->at++];
    uint64_t size = byte >> 4;
    *element = byte & 0x0F;
    if (size == 15) {
        parquet_status status = thrift_size(r, "a list size", &size);
        if (status != PARQUET_OK) {
            return status;
        }
    }
    if (size > r->size - r->at) {
        char detail[64];
        snprintf(detail, sizeof detail, "a list of %llu elements", (unsigned long long)size);
        return thrift_truncated(r, detail, start);
    }
    *count = (uint32_t)size;
    return PARQUET_OK;
}

/* Reads the header of a field of a struct whose previous field's id is *id: its type (a stop
** ends the struct) and *id. */
static parquet_status thrift_field(thrift_reader *r, uint8_t *type, int32_t *id) {
    r->field_at = r->at;
    if (r->at >= r->size) {
        return thrift_truncated(r, "a field header", r->field_at);
    }
    uint8_t byte = r->bytes[r->at++];
    *type = byte & 0x0F;
    if (byte == THRIFT_STOP) {
        return PARQUET_OK;
    }
    if (*type == THRIFT_STOP) {
        return thrift_invalid(r, r->field_at, "a field header 0x%02X of type 0", byte);
    }
    if (byte >> 4 != 0) {
        *id += byte >> 4;
        if (*id > INT16_MAX) {
            return thrift_invalid(r, r->field_at, "field id %ld does not fit an i16", (long)*id);
        }
        return PARQUET_OK;
    }
    int64_t value = 0;
    parquet_status status = thrift_int(r, INT16_MIN, INT16_MAX, "i16", &value);
    *id = (int32_t)value;
    return status;
}

/* Reads a struct at depth, handing each field to read (NULL: skips them all). */
static parquet_status thrift_struct(thrift_reader *r, int depth, thrift_field_reader read,
                                    void *state) {
    if (depth > PARQUET_MAX_NESTING) {
        return thrift_invalid(r, r->at, "structs, lists and maps nested deeper than %d",
                              PARQUET_MAX_NESTING);
    }
    int32_t id = 0;
    for (;;) {
        uint8_t type = THRIFT_STOP;
        parquet_status status = thrift_field(r, &type, &id);
        if (status != PARQUET_OK || type == THRIFT_STOP) {
            return status;
        }
        status =
            read != NULL ? read(r, state, id, type, depth + 1) : thrift_skip(r, type, 0, depth + 1);
        if (status != PARQUET_OK) {
            return status;
        }
    }
}

/* Steps over a list or set at depth. */
static parquet_status thrift_skip_list(thrift_reader *r, int depth) {
    if (depth > PARQUET_MAX_NESTING) {
        return thrift_invalid(r, r->at, "structs, lists and maps nested deeper than %d",
                              PARQUET_MAX_NESTING);
    }
    uint8_t element = THRIFT_STOP;
    uint32_t count = 0;
    parquet_status status = thrift_list(r, &element, &count);
    for (uint32_t i = 0; status == PARQUET_OK && i < count; i++) {
        status = thrift_skip(r, element, 1, depth + 1);
    }
    return status;
}

/* Steps over a map at depth. */
static parquet_status thrift_skip_map(thrift_reader *r, int depth) {
    if (depth > PARQUET_MAX_NESTING) {
        return thrift_invalid(r, r->at, "structs, lists and maps nested deeper than %d",
                              PARQUET_MAX_NESTING);
    }
    size_t start = r->at;
    uint64_t count = 0;
    parquet_status status = thrift_size(r, "a map size", &count);
    if (status != PARQUET_OK || count == 0) {
        return status;
    }
    if (r->at >= r->size) {
        return thrift_truncated(r, "a map's types", r->at);
    }
    uint8_t types = r->bytes[r->at++];
    if (count > (r->size - r->at) / 2) {
        char detail[64];
        snprintf(detail, sizeof detail, "a map of %llu entries", (unsigned long long)count);
        return thrift_truncated(r, detail, start);
    }
    for (uint64_t i = 0; status == PARQUET_OK && i < count; i++) {
        status = thrift_skip(r, types >> 4, 1, depth + 1);
        if (status == PARQUET_OK) {
            status = thrift_skip(r, types & 0x0F, 1, depth + 1);
        }
    }
    return status;
}

/* Steps over a value of type, a list's or map's element or a field's value (where a boolean
** has no bytes); its containers are at depth. */
static parquet_status thrift_skip(thrift_reader *r, uint8_t type, int is_element, int depth) {
    int64_t ignored = 0;
    parquet_text text = {NULL, 0};
    switch (type) {
    case THRIFT_TRUE:
    case THRIFT_FALSE:
        return is_element ? thrift_skip_bytes(r, 1, "a bool") : PARQUET_OK;
    case THRIFT_I8:
        return thrift_skip_bytes(r, 1, "an i8");
    case THRIFT_I16:
        return thrift_int(r, INT16_MIN, INT16_MAX, "i16", &ignored);
    case THRIFT_I32:
        return thrift_int(r, INT32_MIN, INT32_MAX, "i32", &ignored);
    case THRIFT_I64:
        return thrift_int(r, INT64_MIN, INT64_MAX, "i64", &ignored);
    case THRIFT_DOUBLE:
        return thrift_skip_bytes(r, 8, "a double");
    case THRIFT_BINARY:
        return thrift_binary(r, &text);
    case THRIFT_LIST:
    case THRIFT_SET:
        return thrift_skip_list(r, depth);
    case THRIFT_MAP:
        return thrift_skip_map(r, depth);
    case THRIFT_STRUCT:
        return thrift_struct(r, depth, NULL, NULL);
    case THRIFT_UUID:
        return thrift_skip_bytes(r, 16, "a uuid");
    default:
        return thrift_invalid(r, r->at, "an element of unknown type %u", type);
    }
}

/* Checks that the field being read, name, has type expected. */
static parquet_status thrift_expect(const thrift_reader *r, uint8_t type, uint8_t expected,
                                    const char *name) {
    if (type == expected) {
        return PARQUET_OK;
    }
    return thrift_invalid(r, r->field_at, "%s is of type %s, not %s", name, thrift_type_name(type),
                          thrift_type_name(expected));
}

/* Reads the header of the field being read, name, a list of element type: its count. */
static parquet_status thrift_expect_list(thrift_reader *r, uint8_t type, uint8_t element,
                                         const char *name, uint32_t *count) {
    parquet_status status = thrift_expect(r, type, THRIFT_LIST, name);
    uint8_t actual = THRIFT_STOP;
    if (status == PARQUET_OK) {
        status = thrift_list(r, &actual, count);
    }
    if (status == PARQUET_OK && actual != element && *count > 0) {
        return thrift_invalid(r, r->field_at, "%s is a list of %s, not of %s", name,
                              thrift_type_name(actual), thrift_type_name(element));
    }
    return status;
}

/* ---- The footer's place ------------------------------------------------------------------ */

static const uint8_t parquet_magic[PARQUET_MAGIC_BYTES] = {'P', 'A', 'R', '1'};
static const uint8_t parquet_encrypted_magic[PARQUET_MAGIC_BYTES] = {'P', 'A', 'R', 'E'};

/* Writes the message of magic bytes that are not "PAR1" at where ("start", "end"). */
static parquet_status parquet_bad_magic(const uint8_t magic[PARQUET_MAGIC_BYTES], const char *where,
                                        char *why) {
    if (memcmp(magic, parquet_encrypted_magic, PARQUET_MAGIC_BYTES) == 0) {
        snprintf(why, PARQUET_WHY_MAX,
                 "an encrypted Parquet file (PARE at its %s): its footer is encrypted, which "
                 "this reader does not decrypt",
                 where);
    } else {
        snprintf(why, PARQUET_WHY_MAX, "not a Parquet file: no PAR1 at its %s", where);
    }
    return PARQUET_INVALID;
}

parquet_status parquet_head_check(const uint8_t head[PARQUET_MAGIC_BYTES], char *why) {
    if (memcmp(head, parquet_magic, PARQUET_MAGIC_BYTES) == 0) {
        return PARQUET_OK;
    }
    return parquet_bad_magic(head, "start", why);
}

parquet_status parquet_footer_locate(uint64_t file_bytes, const uint8_t tail[PARQUET_TAIL_BYTES],
                                     uint64_t *offset, uint32_t *length, char *why) {
    if (file_bytes < PARQUET_MIN_FILE_BYTES) {
        snprintf(why, PARQUET_WHY_MAX,
                 "not a Parquet file: %llu bytes, fewer than the %d of PAR1, a footer length "
                 "and PAR1",
                 (unsigned long long)file_bytes, PARQUET_MIN_FILE_BYTES);
        return PARQUET_INVALID;
    }
    if (memcmp(tail + 4, parquet_magic, PARQUET_MAGIC_BYTES) != 0) {
        return parquet_bad_magic(tail + 4, "end", why);
    }
    uint32_t footer = le_load32(tail);
    if (footer == 0) {
        snprintf(why, PARQUET_WHY_MAX, "footer length 0: a Parquet footer is not empty");
        return PARQUET_INVALID;
    }
    if (footer > file_bytes - PARQUET_MIN_FILE_BYTES) {
        snprintf(why, PARQUET_WHY_MAX,
                 "footer length %lu past the file's %llu bytes (with PAR1 and its length, "
                 "%llu at most)",
                 (unsigned long)footer, (unsigned long long)file_bytes,
                 (unsigned long long)(file_bytes - PARQUET_MIN_FILE_BYTES));
        return PARQUET_INVALID;
    }
    *offset = file_bytes - PARQUET_TAIL_BYTES - footer;
    *length = footer;
    return PARQUET_OK;
}

/* ---- FileMetaData ------------------------------------------------------------------------ */

/* Where the fields of FileMetaData that lead to the filters are. */
typedef struct footer_fields {
    int has_schema, has_row_groups;
    size_t schema_at; /* the schema list's first element */
    uint32_t schema_count;
    size_t row_groups_at; /* the row_groups list's first element */
    uint32_t row_group_count;
    int row_groups_depth;
    parquet_text created_by;
} footer_fields;

/* Reads the list of structs of the field being read, name, at depth: where its first element
** is and its count, each element stepped over. */
static parquet_status footer_list_of_structs(thrift_reader *r, uint8_t type, const char *name,
                                             int depth, size_t *at, uint32_t *count) {
    parquet_status status = thrift_expect_list(r, type, THRIFT_STRUCT, name, count);
    *at = r->at;
    for (uint32_t i = 0; status == PARQUET_OK && i < *count; i++) {
        status = thrift_struct(r, depth + 1, NULL, NULL);
    }
    return status;
}

/* FileMetaData's fields: schema (2), row_groups (4), created_by (6); the others skipped. */
static parquet_status footer_read_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                        int depth) {
    footer_fields *fields = state;
    parquet_status status;
    switch (id) {
    case 2:
        fields->has_schema = 1;
        return footer_list_of_structs(r, type, "FileMetaData.schema (field 2)", depth,
                                      &fields->schema_at, &fields->schema_count);
    case 4:
        fields->has_row_groups = 1;
        fields->row_groups_depth = depth;
        return footer_list_of_structs(r, type, "FileMetaData.row_groups (field 4)", depth,
                                      &fields->row_groups_at, &fields->row_group_count);
    case 6:
        status = thrift_expect(r, type, THRIFT_BINARY, "FileMetaData.created_by (field 6)");
        return status == PARQUET_OK ? thrift_binary(r, &fields->created_by) : status;
    default:
        return thrift_skip(r, type, 0, depth);
    }
}

/* Reads the FileMetaData struct in r's bytes (checking all of it) into fields. */
static parquet_status footer_read(thrift_reader *r, footer_fields *fields) {
    memset(fields, 0, sizeof *fields);
    parquet_status status = thrift_struct(r, 1, footer_read_field, fields);
    if (status != PARQUET_OK) {
        return status;
    }
    if (!fields->has_schema) {
        return thrift_invalid(r, 0, "FileMetaData has no schema (field 2)");
    }
    if (!fields->has_row_groups) {
        return thrift_invalid(r, 0, "FileMetaData has no row_groups (field 4)");
    }
    if (fields->schema_count == 0) {
        return thrift_invalid(r, fields->schema_at, "an empty schema, without its root");
    }
    return PARQUET_OK;
}

/* What the footer keeps of a SchemaElement. */
typedef struct schema_element {
    int has_type, has_type_length, has_num_children;
    int32_t type, type_length, num_children;
} schema_element;

/* SchemaElement's fields: type (1), type_length (2), num_children (5); the others skipped. */
static parquet_status schema_read_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                        int depth) {
    schema_element *element = state;
    parquet_status status;
    switch (id) {
    case 1:
        element->has_type = 1;
        status = thrift_expect(r, type, THRIFT_I32, "SchemaElement.type (field 1)");
        return status == PARQUET_OK ? thrift_i32(r, &element->type) : status;
    case 2:
        element->has_type_length = 1;
        status = thrift_expect(r, type, THRIFT_I32, "SchemaElement.type_length (field 2)");
        return status == PARQUET_OK ? thrift_i32(r, &element->type_length) : status;
    case 5:
        element->has_num_children = 1;
        status = thrift_expect(r, type, THRIFT_I32, "SchemaElement.num_children (field 5)");
        return status == PARQUET_OK ? thrift_i32(r, &element->num_children) : status;
    default:
        return thrift_skip(r, type, 0, depth);
    }
}

/*
** Walks the schema's elements after its root and counts the leaves (no num_children, or 0);
** with scratch, writes each leaf's type length there (-1 but for FIXED_LEN_BYTE_ARRAY), and
** refuses more than capacity leaves once every element is read (so that a malformed element
** is the error, whatever the scratch).
*/
static parquet_status footer_schema_leaves(thrift_reader *r, const footer_fields *fields,
                                           int32_t *scratch, uint32_t capacity, uint32_t *leaves) {
    r->at = fields->schema_at;
    *leaves = 0;
    for (uint32_t i = 0; i < fields->schema_count; i++) {
        size_t start = r->at;
        schema_element element = {0};
        parquet_status status = thrift_struct(r, 3, schema_read_field, &element);
        if (status != PARQUET_OK) {
            return status;
        }
        if (element.has_num_children && element.num_children < 0) {
            return thrift_invalid(r, start, "schema element %lu has %ld children", (unsigned long)i,
                                  (long)element.num_children);
        }
        if (i == 0 || (element.has_num_children && element.num_children > 0)) {
            continue;
        }
        int fixed = element.has_type && element.type == PARQUET_TYPE_FIXED_LEN_BYTE_ARRAY;
        if (fixed && (!element.has_type_length || element.type_length < 0)) {
            return thrift_invalid(r, start,
                                  "schema element %lu, a FIXED_LEN_BYTE_ARRAY, has no type_length "
                                  "of 0 or more",
                                  (unsigned long)i);
        }
        if (scratch != NULL && *leaves < capacity) {
            scratch[*leaves] = fixed ? element.type_length : -1;
        }
        ++*leaves;
    }
    if (scratch != NULL && *leaves > capacity) {
        snprintf(r->why, PARQUET_WHY_MAX,
                 "the schema has %lu leaves, more than the %lu of the scratch",
                 (unsigned long)*leaves, (unsigned long)capacity);
        return PARQUET_INVALID;
    }
    return PARQUET_OK;
}

parquet_status parquet_footer_leaves(const uint8_t *footer, size_t bytes, uint32_t *leaves,
                                     char *why) {
    thrift_reader r = {.bytes = footer, .size = bytes, .what = "footer", .why = why};
    footer_fields fields;
    parquet_status status = footer_read(&r, &fields);
    return status == PARQUET_OK ? footer_schema_leaves(&r, &fields, NULL, 0, leaves) : status;
}

/* ---- Column chunks ----------------------------------------------------------------------- */

/* A walk of the row groups: the chunk being read, the leaves' type lengths, the visitor. */
typedef struct chunk_walk {
    parquet_chunk chunk;
    const int32_t *leaf_lengths;
    uint32_t leaves;
    parquet_chunk_visitor visit;
    void *state;
    int has_type, has_path, has_num_values, has_columns;
} chunk_walk;

/* Reads path_in_schema, a list of at most PARQUET_MAX_PATH strings, into the chunk. */
static parquet_status chunk_read_path(thrift_reader *r, uint8_t type, chunk_walk *walk) {
    uint32_t count = 0;
    parquet_status status = thrift_expect_list(r, type, THRIFT_BINARY,
                                               "ColumnMetaData.path_in_schema (field 3)", &count);
    if (status != PARQUET_OK) {
        return status;
    }
    if (count == 0 || count > PARQUET_MAX_PATH) {
        return thrift_invalid(r, r->field_at, "a path_in_schema of %lu elements, not 1 to %d",
                              (unsigned long)count, PARQUET_MAX_PATH);
    }
    walk->chunk.path_count = count;
    for (uint32_t i = 0; status == PARQUET_OK && i < count; i++) {
        status = thrift_binary(r, &walk->chunk.path[i]);
    }
    return status;
}

/* Reads an i64 field, name, that may not be negative. */
static parquet_status chunk_read_count(thrift_reader *r, uint8_t type, uint8_t expected,
                                       const char *name, int64_t *v) {
    parquet_status status = thrift_expect(r, type, expected, name);
    if (status != PARQUET_OK) {
        return status;
    }
    size_t start = r->at;
    status = expected == THRIFT_I32 ? thrift_int(r, INT32_MIN, INT32_MAX, "i32", v)
                                    : thrift_int(r, INT64_MIN, INT64_MAX, "i64", v);
    if (status == PARQUET_OK && *v < 0) {
        return thrift_invalid(r, start, "%s is negative: %lld", name, (long long)*v);
    }
    return status;
}

/* ColumnMetaData's fields: type (1), path_in_schema (3), num_values (5), bloom_filter_offset
** (14), bloom_filter_length (15); the others skipped. */
static parquet_status metadata_read_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                          int depth) {
    chunk_walk *walk = state;
    parquet_status status;
    switch (id) {
    case 1:
        walk->has_type = 1;
        status = thrift_expect(r, type, THRIFT_I32, "ColumnMetaData.type (field 1)");
        return status == PARQUET_OK ? thrift_i32(r, &walk->chunk.physical_type) : status;
    case 3:
        walk->has_path = 1;
        return chunk_read_path(r, type, walk);
    case 5:
        walk->has_num_values = 1;
        return chunk_read_count(r, type, THRIFT_I64, "ColumnMetaData.num_values (field 5)",
                                &walk->chunk.num_values);
    case 14:
        return chunk_read_count(r, type, THRIFT_I64,
                                "ColumnMetaData.bloom_filter_offset (field 14)",
                                &walk->chunk.bloom_filter_offset);
    case 15:
        return chunk_read_count(r, type, THRIFT_I32,
                                "ColumnMetaData.bloom_filter_length (field 15)",
                                &walk->chunk.bloom_filter_length);
    default:
        return thrift_skip(r, type, 0, depth);
    }
}

/* Reads a ColumnMetaData at depth into the chunk; checks its required fields. */
static parquet_status chunk_read_metadata(thrift_reader *r, uint8_t type, chunk_walk *walk,
                                          int depth) {
    parquet_status status =
        thrift_expect(r, type, THRIFT_STRUCT, "ColumnChunk.meta_data (field 3)");
    if (status != PARQUET_OK) {
        return status;
    }
    size_t start = r->at;
    walk->chunk.has_metadata = 1;
    walk->has_type = walk->has_path = walk->has_num_values = 0;
    walk->chunk.bloom_filter_offset = walk->chunk.bloom_filter_length = -1;
    status = thrift_struct(r, depth, metadata_read_field, walk);
    if (status != PARQUET_OK) {
        return status;
    }
    const char *missing = !walk->has_type         ? "type (field 1)"
                          : !walk->has_path       ? "path_in_schema (field 3)"
                          : !walk->has_num_values ? "num_values (field 5)"
                                                  : NULL;
    if (missing != NULL) {
        return thrift_invalid(r, start, "row group %lu, column chunk %lu: ColumnMetaData has no %s",
                              (unsigned long)walk->chunk.row_group,
                              (unsigned long)walk->chunk.column, missing);
    }
    return PARQUET_OK;
}

/* ColumnChunk's fields: file_path (1), meta_data (3), crypto_metadata (8),
** encrypted_column_metadata (9); the others skipped. */
static parquet_status chunk_read_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                       int depth) {
    chunk_walk *walk = state;
    parquet_status status;
    switch (id) {
    case 1:
        status = thrift_expect(r, type, THRIFT_BINARY, "ColumnChunk.file_path (field 1)");
        return status == PARQUET_OK ? thrift_binary(r, &walk->chunk.file_path) : status;
    case 3:
        return chunk_read_metadata(r, type, walk, depth);
    case 8:
        walk->chunk.encrypted = 1;
        status = thrift_expect(r, type, THRIFT_STRUCT, "ColumnChunk.crypto_metadata (field 8)");
        return status == PARQUET_OK ? thrift_skip(r, type, 0, depth) : status;
    case 9:
        walk->chunk.encrypted = 1;
        status = thrift_expect(r, type, THRIFT_BINARY,
                               "ColumnChunk.encrypted_column_metadata (field 9)");
        return status == PARQUET_OK ? thrift_skip(r, type, 0, depth) : status;
    default:
        return thrift_skip(r, type, 0, depth);
    }
}

/* Checks the chunk's physical type against its schema leaf's, and takes the leaf's length. */
static parquet_status chunk_match_leaf(const thrift_reader *r, size_t start, chunk_walk *walk) {
    parquet_chunk *chunk = &walk->chunk;
    int32_t length = walk->leaf_lengths[chunk->column];
    int fixed = chunk->physical_type == PARQUET_TYPE_FIXED_LEN_BYTE_ARRAY;
    if (chunk->has_metadata && fixed != (length >= 0)) {
        return thrift_invalid(
            r, start,
            "row group %lu, column chunk %lu: %s FIXED_LEN_BYTE_ARRAY, its schema "
            "leaf %s",
            (unsigned long)chunk->row_group, (unsigned long)chunk->column, fixed ? "a" : "not a",
            fixed ? "not" : "one");
    }
    chunk->type_length = length;
    return PARQUET_OK;
}

/* Reads column chunk `column` of the row group (a ColumnChunk at depth) and visits it. */
static parquet_status chunk_visit(thrift_reader *r, chunk_walk *walk, uint32_t column, int depth) {
    parquet_chunk *chunk = &walk->chunk;
    size_t start = r->at;
    chunk->column = column;
    chunk->has_metadata = chunk->encrypted = 0;
    chunk->path_count = 0;
    chunk->file_path = (parquet_text){NULL, 0};
    chunk->physical_type = -1;
    chunk->num_values = chunk->bloom_filter_offset = chunk->bloom_filter_length = -1;
    parquet_status status = thrift_struct(r, depth, chunk_read_field, walk);
    if (status == PARQUET_OK) {
        status = chunk_match_leaf(r, start, walk);
    }
    if (status == PARQUET_OK && walk->visit(walk->state, chunk) != 0) {
        return PARQUET_STOPPED;
    }
    return status;
}

/* RowGroup's fields: columns (1), each visited; the others skipped. */
static parquet_status row_group_read_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                           int depth) {
    chunk_walk *walk = state;
    if (id != 1) {
        return thrift_skip(r, type, 0, depth);
    }
    size_t start = r->field_at;
    if (walk->has_columns) {
        return thrift_invalid(r, start, "row group %lu has its columns (field 1) twice",
                              (unsigned long)walk->chunk.row_group);
    }
    walk->has_columns = 1;
    uint32_t count = 0;
    parquet_status status =
        thrift_expect_list(r, type, THRIFT_STRUCT, "RowGroup.columns (field 1)", &count);
    if (status == PARQUET_OK && count != walk->leaves) {
        return thrift_invalid(r, start,
                              "row group %lu has %lu column chunks, the schema %lu leaves",
                              (unsigned long)walk->chunk.row_group, (unsigned long)count,
                              (unsigned long)walk->leaves);
    }
    for (uint32_t column = 0; status == PARQUET_OK && column < count; column++) {
        status = chunk_visit(r, walk, column, depth + 1);
    }
    return status;
}

parquet_status parquet_footer_scan(const uint8_t *footer, size_t bytes, int32_t *leaf_scratch,
                                   uint32_t leaves, parquet_chunk_visitor visit, void *state,
                                   char *why) {
    thrift_reader r = {.bytes = footer, .size = bytes, .what = "footer", .why = why};
    footer_fields fields;
    int32_t no_leaves[1];
    if (leaf_scratch == NULL) {
        leaf_scratch = no_leaves;
        leaves = 0;
    }
    chunk_walk walk = {.leaf_lengths = leaf_scratch, .visit = visit, .state = state};
    parquet_status status = footer_read(&r, &fields);
    if (status == PARQUET_OK) {
        status = footer_schema_leaves(&r, &fields, leaf_scratch, leaves, &walk.leaves);
    }
    walk.chunk.created_by = fields.created_by;
    r.at = fields.row_groups_at;
    for (uint32_t g = 0; status == PARQUET_OK && g < fields.row_group_count; g++) {
        size_t start = r.at;
        walk.chunk.row_group = g;
        walk.has_columns = 0;
        status = thrift_struct(&r, fields.row_groups_depth + 1, row_group_read_field, &walk);
        if (status == PARQUET_OK && !walk.has_columns) {
            return thrift_invalid(&r, start, "row group %lu has no columns (field 1)",
                                  (unsigned long)g);
        }
    }
    return status;
}

/* ---- The footer rewritten ---------------------------------------------------------------- */

/* A rewrite: the footer being read, the bytes written (counted always, stored while they fit in
** out), the places and the row group being walked. */
typedef struct footer_rewrite {
    thrift_reader r;
    uint8_t *out;    /* NULL: count only */
    size_t capacity; /* of out */
    size_t size;     /* the bytes written so far, SIZE_MAX past it */
    size_t copied;   /* the footer's bytes before this offset are written */
    const parquet_bloom_place *places;
    size_t count, next; /* places[next] is the next chunk to find */
    uint32_t row_group;
} footer_rewrite;

/* Writes n bytes (or counts them only). */
static void rewrite_put(footer_rewrite *w, const uint8_t *bytes, size_t n) {
    if (w->out != NULL && n <= w->capacity && w->size <= w->capacity - n) {
        memcpy(w->out + w->size, bytes, n);
    }
    w->size = n > SIZE_MAX - w->size ? SIZE_MAX : w->size + n;
}

/* Writes the footer's bytes from where the last copy ended to end. */
static void rewrite_copy_to(footer_rewrite *w, size_t end) {
    rewrite_put(w, w->r.bytes + w->copied, end - w->copied);
    w->copied = end;
}

/* Writes v as a varint. */
static void rewrite_varint(footer_rewrite *w, uint64_t v) {
    uint8_t bytes[10];
    size_t n = 0;
    for (; v >= 0x80; v >>= 7) {
        bytes[n++] = (uint8_t)(v | 0x80);
    }
    bytes[n++] = (uint8_t)v;
    rewrite_put(w, bytes, n);
}

/* Writes v as a zigzag varint. */
static void rewrite_zigzag(footer_rewrite *w, int64_t v) {
    rewrite_varint(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* Writes the header of field id of type after the field last: the short form for a delta of 1 to
** 15, else the long form (the type, then the id as a zigzag varint). */
static void rewrite_field_header(footer_rewrite *w, int32_t id, uint8_t type, int32_t last) {
    int32_t delta = id - last;
    if (delta >= 1 && delta <= 15) {
        uint8_t byte = (uint8_t)(delta << 4 | type);
        rewrite_put(w, &byte, 1);
    } else {
        rewrite_put(w, &type, 1);
        rewrite_zigzag(w, id);
    }
}

/* Writes bloom_filter_offset (field 14) and bloom_filter_length (15) of place after the field
** *last, which becomes 15. */
static void rewrite_bloom_fields(footer_rewrite *w, const parquet_bloom_place *place,
                                 int32_t *last) {
    rewrite_field_header(w, 14, THRIFT_I64, *last);
    rewrite_zigzag(w, place->offset);
    rewrite_field_header(w, 15, THRIFT_I32, 14);
    rewrite_zigzag(w, place->length);
    *last = 15;
}

/* Rewrites the ColumnMetaData at depth whose first field header is the next byte, for the place
** w->places[w->next]: fields 14 and 15 left out, written again before the first field of a
** higher id (or the stop byte); a short-form header whose delta changed written again. */
static parquet_status rewrite_metadata(footer_rewrite *w, int depth) {
    thrift_reader *r = &w->r;
    const parquet_bloom_place *place = &w->places[w->next];
    rewrite_copy_to(w, r->at);
    int32_t id = 0, written = 0; /* the last field read, and the last written */
    int added = 0;
    for (;;) {
        size_t header_at = r->at;
        int32_t before = id;
        uint8_t type = THRIFT_STOP;
        parquet_status status = thrift_field(r, &type, &id);
        if (status != PARQUET_OK) {
            return status;
        }
        if (type == THRIFT_STOP) {
            break;
        }
        size_t value_at = r->at;
        status = thrift_skip(r, type, 0, depth + 1);
        if (status != PARQUET_OK) {
            return status;
        }
        if (id == 14 || id == 15) {
            continue; /* left out: written with the place's values */
        }
        if (!added && id > 15) {
            rewrite_bloom_fields(w, place, &written);
            added = 1;
        }
        int long_form = r->bytes[header_at] >> 4 == 0;
        if (long_form || written == before) {
            rewrite_put(w, r->bytes + header_at, value_at - header_at);
        } else {
            rewrite_field_header(w, id, type, written);
        }
        rewrite_put(w, r->bytes + value_at, r->at - value_at);
        written = id;
    }
    if (!added) {
        rewrite_bloom_fields(w, place, &written);
    }
    w->copied = r->at - 1; /* the stop byte, copied next */
    return PARQUET_OK;
}

/* A struct being walked by a rewrite (thrift_struct's state): the rewrite, and what the walk of
** a RowGroup or a ColumnChunk keeps. */
typedef struct rewrite_walk {
    footer_rewrite *w;
    uint32_t column; /* of a ColumnChunk: its index in the row group */
    int chosen;      /* of a ColumnChunk: the next place names it */
    int found;       /* its field of interest was read (meta_data, columns, row_groups) */
    uint32_t count;  /* of a RowGroup: its columns; of FileMetaData: its row groups */
} rewrite_walk;

/* ColumnChunk's fields: meta_data (3), rewritten when the place names the chunk; the others
** skipped. */
static parquet_status rewrite_chunk_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                          int depth) {
    rewrite_walk *walk = state;
    footer_rewrite *w = walk->w;
    if (id != 3) {
        return thrift_skip(r, type, 0, depth);
    }
    if (walk->found) {
        return thrift_invalid(r, r->field_at,
                              "row group %lu, column chunk %lu has its meta_data (field 3) twice",
                              (unsigned long)w->row_group, (unsigned long)walk->column);
    }
    walk->found = 1;
    parquet_status status =
        thrift_expect(r, type, THRIFT_STRUCT, "ColumnChunk.meta_data (field 3)");
    if (status != PARQUET_OK) {
        return status;
    }
    return walk->chosen ? rewrite_metadata(w, depth) : thrift_skip(r, type, 0, depth);
}

/* Walks column chunk `column` of the row group being walked, a ColumnChunk at depth, rewriting
** its meta_data when the next place names it. */
static parquet_status rewrite_chunk(footer_rewrite *w, uint32_t column, int depth) {
    thrift_reader *r = &w->r;
    size_t start = r->at;
    rewrite_walk walk = {w, column,
                         w->next < w->count && w->places[w->next].row_group == w->row_group &&
                             w->places[w->next].column == column,
                         0, 0};
    parquet_status status = thrift_struct(r, depth, rewrite_chunk_field, &walk);
    if (status != PARQUET_OK) {
        return status;
    }
    if (walk.chosen && !walk.found) {
        return thrift_invalid(r, start,
                              "row group %lu, column chunk %lu has no meta_data (field 3) to "
                              "give a Bloom filter",
                              (unsigned long)w->row_group, (unsigned long)column);
    }
    w->next += (size_t)walk.chosen;
    return PARQUET_OK;
}

/* RowGroup's fields: columns (1), each walked; the others skipped. */
static parquet_status rewrite_row_group_field(thrift_reader *r, void *state, int32_t id,
                                              uint8_t type, int depth) {
    rewrite_walk *walk = state;
    if (id != 1) {
        return thrift_skip(r, type, 0, depth);
    }
    if (walk->found) {
        return thrift_invalid(r, r->field_at, "row group %lu has its columns (field 1) twice",
                              (unsigned long)walk->w->row_group);
    }
    walk->found = 1;
    parquet_status status =
        thrift_expect_list(r, type, THRIFT_STRUCT, "RowGroup.columns (field 1)", &walk->count);
    for (uint32_t column = 0; status == PARQUET_OK && column < walk->count; column++) {
        status = rewrite_chunk(walk->w, column, depth + 1);
    }
    return status;
}

/* Walks the row group being walked, a RowGroup at depth: each of its columns (field 1). */
static parquet_status rewrite_row_group(footer_rewrite *w, int depth) {
    rewrite_walk walk = {w, 0, 0, 0, 0};
    parquet_status status = thrift_struct(&w->r, depth, rewrite_row_group_field, &walk);
    if (status != PARQUET_OK) {
        return status;
    }
    if (w->next < w->count && w->places[w->next].row_group == w->row_group) {
        snprintf(w->r.why, PARQUET_WHY_MAX, "row group %lu has no column chunk %lu: it has %lu",
                 (unsigned long)w->row_group, (unsigned long)w->places[w->next].column,
                 (unsigned long)walk.count);
        return PARQUET_INVALID;
    }
    return PARQUET_OK;
}

/* FileMetaData's fields: row_groups (4), each walked; encryption_algorithm (8) refused; the
** others skipped. */
static parquet_status rewrite_file_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                         int depth) {
    rewrite_walk *walk = state;
    if (id == 8) {
        snprintf(r->why, PARQUET_WHY_MAX,
                 "the plaintext footer of an encrypted file (FileMetaData.encryption_algorithm, "
                 "field 8): a footer written again would not match its signature");
        return PARQUET_INVALID;
    }
    if (id != 4) {
        return thrift_skip(r, type, 0, depth);
    }
    if (walk->found) {
        return thrift_invalid(r, r->field_at, "FileMetaData has its row_groups (field 4) twice");
    }
    walk->found = 1;
    parquet_status status = thrift_expect_list(r, type, THRIFT_STRUCT,
                                               "FileMetaData.row_groups (field 4)", &walk->count);
    for (uint32_t g = 0; status == PARQUET_OK && g < walk->count; g++) {
        walk->w->row_group = g;
        status = rewrite_row_group(walk->w, depth + 1);
    }
    return status;
}

/* Checks the places: in ascending order of row group and column, each once, offsets and lengths
** not negative. */
static parquet_status rewrite_check_places(const parquet_bloom_place *places, size_t count,
                                           char *why) {
    for (size_t i = 0; i < count; i++) {
        const parquet_bloom_place *p = &places[i];
        if (p->offset < 0 || p->length < 0) {
            snprintf(why, PARQUET_WHY_MAX, "place %lu: a Bloom filter offset %lld and length %ld",
                     (unsigned long)i, (long long)p->offset, (long)p->length);
            return PARQUET_INVALID;
        }
        if (i > 0 && (p->row_group < p[-1].row_group ||
                      (p->row_group == p[-1].row_group && p->column <= p[-1].column))) {
            snprintf(why, PARQUET_WHY_MAX,
                     "place %lu: row group %lu, column chunk %lu after row group %lu, column chunk "
                     "%lu (places go in order, each chunk once)",
                     (unsigned long)i, (unsigned long)p->row_group, (unsigned long)p->column,
                     (unsigned long)p[-1].row_group, (unsigned long)p[-1].column);
            return PARQUET_INVALID;
        }
    }
    return PARQUET_OK;
}

parquet_status parquet_footer_rewrite(const uint8_t *footer, size_t bytes,
                                      const parquet_bloom_place *places, size_t count, uint8_t *out,
                                      size_t capacity, size_t *out_bytes, char *why) {
    footer_rewrite w = {.r = {.bytes = footer, .size = bytes, .what = "footer", .why = why},
                        .out = out,
                        .capacity = capacity,
                        .places = places,
                        .count = count};
    rewrite_walk file = {&w, 0, 0, 0, 0};
    parquet_status status = rewrite_check_places(places, count, why);
    if (status == PARQUET_OK) {
        status = thrift_struct(&w.r, 1, rewrite_file_field, &file);
    }
    if (status != PARQUET_OK) {
        return status;
    }
    if (w.next < count) {
        snprintf(why, PARQUET_WHY_MAX, "no row group %lu: the footer has %lu",
                 (unsigned long)places[w.next].row_group, (unsigned long)file.count);
        return PARQUET_INVALID;
    }
    rewrite_copy_to(&w, bytes); /* and the bytes after the FileMetaData */
    if (w.size == SIZE_MAX) {
        snprintf(why, PARQUET_WHY_MAX, "the footer written again would pass SIZE_MAX bytes");
        return PARQUET_INVALID;
    }
    if (out != NULL && w.size > capacity) {
        snprintf(why, PARQUET_WHY_MAX,
                 "the footer written again needs %llu bytes, more than the %llu given",
                 (unsigned long long)w.size, (unsigned long long)capacity);
        return PARQUET_INVALID;
    }
    *out_bytes = w.size;
    return PARQUET_OK;
}

/* ---- BloomFilterHeader ------------------------------------------------------------------- */

/* A BloomFilterHeader's union being read: its name, its one member's, and the members seen. */
typedef struct bloom_union {
    const char *name;   /* "BloomFilterAlgorithm" */
    const char *member; /* "BLOCK" */
    int members;
} bloom_union;

/* A union's fields: member 1, a struct whose fields (none are defined) are skipped; another
** member is refused by name. */
static parquet_status bloom_union_read_field(thrift_reader *r, void *state, int32_t id,
                                             uint8_t type, int depth) {
    bloom_union *u = state;
    if (++u->members > 1) {
        return thrift_invalid(r, r->field_at, "%s, a union, has more than one member set", u->name);
    }
    if (id != 1) {
        snprintf(r->why, PARQUET_WHY_MAX,
                 "unsupported Bloom filter: its %s is member %ld, not %s (1), the only one this "
                 "reader reads",
                 u->name, (long)id, u->member);
        return PARQUET_INVALID;
    }
    parquet_status status = thrift_expect(r, type, THRIFT_STRUCT, u->member);
    return status == PARQUET_OK ? thrift_skip(r, type, 0, depth) : status;
}

/* The fields of a BloomFilterHeader that were read. */
typedef struct bloom_fields {
    int has[5]; /* by field id, 1 to 4 */
    int32_t num_bytes;
    size_t num_bytes_at;
} bloom_fields;

/* BloomFilterHeader's fields: numBytes (1), algorithm (2), hash (3), compression (4); the others
** skipped. */
static parquet_status bloom_read_field(thrift_reader *r, void *state, int32_t id, uint8_t type,
                                       int depth) {
    static const char *const unions[5][2] = {{NULL, NULL},
                                             {NULL, NULL},
                                             {"BloomFilterAlgorithm", "BLOCK"},
                                             {"BloomFilterHash", "XXHASH"},
                                             {"BloomFilterCompression", "UNCOMPRESSED"}};
    bloom_fields *fields = state;
    parquet_status status;
    if (id < 1 || id > 4) {
        return thrift_skip(r, type, 0, depth);
    }
    fields->has[id] = 1;
    if (id == 1) {
        fields->num_bytes_at = r->field_at;
        status = thrift_expect(r, type, THRIFT_I32, "BloomFilterHeader.numBytes (field 1)");
        return status == PARQUET_OK ? thrift_i32(r, &fields->num_bytes) : status;
    }
    bloom_union u = {.name = unions[id][0], .member = unions[id][1]};
    status = thrift_expect(r, type, THRIFT_STRUCT, u.name);
    return status == PARQUET_OK ? thrift_struct(r, depth, bloom_union_read_field, &u) : status;
}

parquet_status parquet_bloom_header_read(const uint8_t *bytes, size_t n, parquet_bloom_header *out,
                                         char *why) {
    static const char *const names[5] = {NULL, "numBytes (field 1)", "algorithm (field 2)",
                                         "hash (field 3)", "compression (field 4)"};
    thrift_reader r = {.bytes = bytes, .size = n, .what = "Bloom filter header", .why = why};
    bloom_fields fields = {{0}, 0, 0};
    parquet_status status = thrift_struct(&r, 1, bloom_read_field, &fields);
    if (status != PARQUET_OK) {
        return status;
    }
    for (int id = 1; id <= 4; id++) {
        if (!fields.has[id]) {
            return thrift_invalid(&r, 0, "no %s", names[id]);
        }
    }
    if (fields.num_bytes <= 0 || fields.num_bytes % 32 != 0) {
        return thrift_invalid(&r, fields.num_bytes_at,
                              "numBytes %ld is not a positive multiple of 32",
                              (long)fields.num_bytes);
    }
    out->header_bytes = (uint32_t)r.at;
    out->num_bytes = (uint32_t)fields.num_bytes;
    return PARQUET_OK;
}

size_t parquet_bloom_header_write(uint8_t out[PARQUET_BLOOM_HEADER_MAX], uint32_t num_bytes) {
    size_t n = 0;
    out[n++] = 0x10 | THRIFT_I32; /* field 1, numBytes */
    uint64_t zigzag = (uint64_t)num_bytes << 1;
    for (; zigzag >= 0x80; zigzag >>= 7) {
        out[n++] = (uint8_t)(zigzag | 0x80);
    }
    out[n++] = (uint8_t)zigzag;
    for (int field = 2; field <= 4; field++) {
        out[n++] = 0x10 | THRIFT_STRUCT; /* the next field: algorithm, hash, compression */
        out[n++] = 0x10 | THRIFT_STRUCT; /* its member 1: BLOCK, XXHASH, UNCOMPRESSED */
        out[n++] = THRIFT_STOP;          /* the member's empty struct ends */
        out[n++] = THRIFT_STOP;          /* the union ends */
    }
    out[n++] = THRIFT_STOP;
    return n;
}
