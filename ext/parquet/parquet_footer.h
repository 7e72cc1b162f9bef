/*
** parquet_footer.h: what leads from a Parquet file to its Bloom filters, read from the Thrift
** compact protocol as parquet-format's parquet.thrift defines it: where the footer is (the
** file's last 8 bytes), each column chunk's path, physical type, count of values and Bloom
** filter offset (FileMetaData, walked without allocation), and the BloomFilterHeader in front
** of a filter's bitset, read and written.
**
** The bytes are hostile: only the fields needed are read, every other is skipped by its Thrift
** type, every length is checked against the bytes given, nesting is bounded, and malformed
** input is a status with a message (PARQUET_WHY_MAX bytes) that says what is wrong and at which
** byte. Pure C: no allocation, no state; the caller owns every buffer.
*/
#ifndef PARQUET_FOOTER_H
#define PARQUET_FOOTER_H

#include <stddef.h>
#include <stdint.h>

enum {
    PARQUET_WHY_MAX = 256,         /* room for a message */
    PARQUET_MAGIC_BYTES = 4,       /* "PAR1" at the start and at the end of a file */
    PARQUET_TAIL_BYTES = 8,        /* the footer's length (4 bytes, little-endian), then "PAR1" */
    PARQUET_MIN_FILE_BYTES = 12,   /* "PAR1", a footer length, "PAR1" (with an empty footer) */
    PARQUET_MAX_PATH = 64,         /* path_in_schema elements a column chunk may have */
    PARQUET_MAX_NESTING = 64,      /* structs, lists and maps inside each other */
    PARQUET_BLOOM_HEADER_MAX = 19, /* parquet_bloom_header_write's longest header */
    PARQUET_TYPE_FIXED_LEN_BYTE_ARRAY = 7 /* the Type enum value whose leaves have a length */
};

typedef enum parquet_status {
    PARQUET_OK = 0,
    PARQUET_INVALID,   /* malformed, or a form this reader refuses: the message says which */
    PARQUET_TRUNCATED, /* the bytes end before the structure does: the message says where */
    PARQUET_STOPPED    /* parquet_footer_scan: the visitor stopped the walk */
} parquet_status;

/* Bytes inside the footer: a string of path_in_schema, created_by or file_path. bytes is NULL when
** the field is absent. */
typedef struct parquet_text {
    const uint8_t *bytes;
    uint32_t length;
} parquet_text;

/* One column chunk of a row group, as parquet_footer_scan hands it to its visitor. */
typedef struct parquet_chunk {
    uint32_t row_group;  /* from 0, in the footer's order */
    uint32_t column;     /* from 0, within the row group; also the schema leaf's index */
    int has_metadata;    /* ColumnChunk.meta_data is there (the fields below come from it) */
    int encrypted;       /* the chunk has crypto_metadata or encrypted_column_metadata */
    uint32_t path_count; /* path_in_schema: its elements */
    parquet_text path[PARQUET_MAX_PATH];
    int32_t physical_type;       /* ColumnMetaData.type: Parquet's Type enum (-1: no metadata) */
    int32_t type_length;         /* a FIXED_LEN_BYTE_ARRAY leaf's length in bytes, else -1 */
    int64_t num_values;          /* -1 without metadata */
    int64_t bloom_filter_offset; /* -1 when absent */
    int64_t bloom_filter_length; /* -1 when absent (Spark and others write the offset only) */
    parquet_text created_by;     /* FileMetaData.created_by, the same for every chunk */
    parquet_text file_path;      /* ColumnChunk.file_path: the file that holds the chunk's data
                                    when not this one (a summary file's), or absent */
} parquet_chunk;

/* What parquet_footer_scan calls for each column chunk: 0 to go on, anything else to stop the
** walk there (the scan then returns PARQUET_STOPPED). */
typedef int (*parquet_chunk_visitor)(void *state, const parquet_chunk *chunk);

/* PARQUET_OK when head, a file's first 4 bytes, is "PAR1"; else PARQUET_INVALID with why. */
parquet_status parquet_head_check(const uint8_t head[PARQUET_MAGIC_BYTES], char *why);

/*
** Where the footer of a file of file_bytes bytes is, from tail, its last 8 bytes (not read
** when the file is shorter than PARQUET_MIN_FILE_BYTES): PARQUET_OK with the footer's offset
** from the start of the file and its length, or PARQUET_INVALID with why (no "PAR1" at the
** end, an encrypted footer, a length of 0 or past the file).
*/
parquet_status parquet_footer_locate(uint64_t file_bytes, const uint8_t tail[PARQUET_TAIL_BYTES],
                                     uint64_t *offset, uint32_t *length, char *why);

/* Walks the FileMetaData in footer[0, bytes) and counts its schema's leaves, the scratch
** parquet_footer_scan needs: PARQUET_OK, or PARQUET_INVALID or PARQUET_TRUNCATED with why. */
parquet_status parquet_footer_leaves(const uint8_t *footer, size_t bytes, uint32_t *leaves,
                                     char *why);

/*
** Walks the FileMetaData in footer[0, bytes) and calls visit once per column chunk, row group
** by row group, in the footer's order. leaf_scratch has room for the `leaves` int32s that
** parquet_footer_leaves counted (a leaf's type length each; NULL when leaves is 0). Returns
*PARQUET_OK after the last chunk,
** PARQUET_STOPPED when visit stopped the walk, or PARQUET_INVALID or PARQUET_TRUNCATED with
** why; chunks visited before an error were read from bytes checked up to them.
*/
parquet_status parquet_footer_scan(const uint8_t *footer, size_t bytes, int32_t *leaf_scratch,
                                   uint32_t leaves, parquet_chunk_visitor visit, void *state,
                                   char *why);

/* A column chunk's new Bloom filter, for parquet_footer_rewrite: the chunk (its row group and its
** column, from 0, as parquet_footer_scan numbers them) and what its ColumnMetaData's
** bloom_filter_offset (field 14) and bloom_filter_length (field 15) become. */
typedef struct parquet_bloom_place {
    uint32_t row_group;
    uint32_t column;
    int64_t offset; /* 0 or more */
    int32_t length; /* 0 or more */
} parquet_bloom_place;

/*
** Re-encodes the FileMetaData in footer[0, bytes) with the column chunks of places[0, count) (in
** ascending order of row group, then column; each at most once) given a Bloom filter: in each
** one's ColumnMetaData, fields 14 and 15 are left out wherever they are and written again, with
** the place's values, before its first field of a higher id (or at its end). Every other byte is
** copied as it is, but the short-form header of a field that follows a field left out or added,
** which is written again for its new delta (in the short form when that delta is 1 to 15); the
** bytes after the FileMetaData (none in a plaintext footer) are copied too.
**
** With out NULL, only counts: *out_bytes is the new footer's length. With out, writes it into
** out[0, capacity), which must hold it (else PARQUET_INVALID; nothing is written past capacity).
** Returns PARQUET_OK, or PARQUET_INVALID or PARQUET_TRUNCATED with why: the footer malformed
** (as parquet_footer_scan says it, for the parts this walk reads), its row_groups (field 4) or a
** ColumnChunk's meta_data (field 3) given twice, an encryption_algorithm (field 8: the plaintext
** footer of an encrypted file, whose signature a new footer would not match); a place out of
** order, with a negative offset or length, for a chunk the footer does not have or one without
** meta_data.
*/
parquet_status parquet_footer_rewrite(const uint8_t *footer, size_t bytes,
                                      const parquet_bloom_place *places, size_t count, uint8_t *out,
                                      size_t capacity, size_t *out_bytes, char *why);

/* A BloomFilterHeader read: its length in bytes, and numBytes, the bitset's (a positive multiple
** of 32) that follows it. */
typedef struct parquet_bloom_header {
    uint32_t header_bytes;
    uint32_t num_bytes;
} parquet_bloom_header;

/*
** Reads the BloomFilterHeader at the start of bytes[0, n): PARQUET_OK with *out; PARQUET_TRUNCATED
** when the header does not end within n bytes; PARQUET_INVALID with why when it is malformed, or
** names another algorithm than BLOCK, hash than XXHASH or compression than UNCOMPRESSED, or a
** numBytes that is not a positive multiple of 32. Empty unions (as @dsnp/parquetjs writes them)
** mean the only member defined.
*/
parquet_status parquet_bloom_header_read(const uint8_t *bytes, size_t n, parquet_bloom_header *out,
                                         char *why);

/* Writes the BloomFilterHeader Parquet writers store for a bitset of num_bytes (numBytes, BLOCK,
** XXHASH, UNCOMPRESSED, fields in order, short forms) into out; returns its length. */
size_t parquet_bloom_header_write(uint8_t out[PARQUET_BLOOM_HEADER_MAX], uint32_t num_bytes);

#endif /* PARQUET_FOOTER_H */
