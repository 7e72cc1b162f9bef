/*
** countmin_sql.c: the SQL side of the count-min sketch kind: its fields of
** bloom_info (rule 11 (info)), and what bloom_build says of it (rule 23
** (count-min sketch)). Its own functions, cms_*, are countmin_functions.c.
*/
#include "countmin_sql.h"

#include "countmin_core.h"

#include <string.h>

/* The fields of bloom_info and cms_info: the header, the bound on the error it gives, and the
** counters in use. O(size). */
static void countmin_sql_info(sqlite3_str *json, const filter_view *f) {
    countmin_header h = countmin_header_of(f);
    uint64_t counters = h.width * h.depth, nonzero = 0;
    for (uint64_t i = 0; i < counters; i++) {
        const uint8_t *counter = f->blob + FILTER_HEADER_BYTES + i * (COUNTMIN_COUNTER_BITS / 8);
        static const uint8_t zero[COUNTMIN_COUNTER_BITS / 8];
        nonzero += memcmp(counter, zero, sizeof zero) != 0;
    }
    sqlite3_str_appendf(json,
                        ",\"width\":%llu,\"depth\":%u,\"counter_bits\":%d,\"update\":\"%s\","
                        "\"epsilon\":%!.15g,\"delta\":%!.15g,\"bytes\":%llu,\"total\":%llu,"
                        "\"error_bound\":%!.15g,\"counters_nonzero\":%llu",
                        (unsigned long long)h.width, (unsigned)h.depth, COUNTMIN_COUNTER_BITS,
                        countmin_update_name(h.update), h.epsilon, h.delta,
                        (unsigned long long)f->bytes, (unsigned long long)h.total,
                        h.epsilon * (double)h.total, (unsigned long long)nonzero);
}

/* bloom_build cannot build a sketch: cms_build does. */
const sql_kind countmin_sql = {
    .kind = &countmin_kind,
    .build_state_bytes = sizeof(build_state),
    .info = countmin_sql_info,
    .build_instead = "cms_build(key [, count], epsilon, delta)",
};
