/*
** bench_cuckoo.c: table 10, the cuckoo kind's slack (see bench.c).
*/
#include "bench.h"

/* 10. The cuckoo kind's slack: filters for n keys filled with n random keys, with the buckets
** cuckoo_size gives (CUCKOO_SLACK square roots more than n keys at CUCKOO_LOAD) and without. */
void table_cuckoo_slack(bench *b) {
    static const uint64_t ranges[][2] = {{1, 100}, {101, 1000}, {1001, 3000}};
    const uint64_t n_max = b->quick ? 300 : 3000;
    const int seeds = b->quick ? 2 : 32;
    uint64_t fills[2][4] = {{0}}, failed[2][4] = {{0}}, bytes_at[2] = {0, 0};
    for (uint64_t n = 1; n <= n_max; n++) {
        for (int slack = 0; slack < 2; slack++) {
            cuckoo_header h;
            double bytes_needed;
            if (cuckoo_size(n, 0.01, &h, &bytes_needed) != FILTER_OK) {
                die(b, "cuckoo_size");
            }
            if (!slack) {
                h.buckets = (uint64_t)ceil((double)n / (CUCKOO_SLOTS * CUCKOO_LOAD));
            }
            uint64_t bytes = cuckoo_blob_bytes(&h);
            uint8_t *blob = malloc(bytes);
            if (blob == NULL) {
                die(b, "out of memory");
            }
            bytes_at[slack] += bytes;
            int range = 0;
            while (n > ranges[range][1]) {
                range++;
            }
            for (int seed = 0; seed < seeds; seed++) {
                uint64_t state = (n << 32) | (uint64_t)seed; /* the same keys with and without */
                memset(blob, 0, bytes);
                cuckoo_write_header(blob, &h);
                int full = 0;
                for (uint64_t i = 0; i < n && !full; i++) {
                    full = filter_add(&cuckoo_kind, blob,
                                      key_hash_integer((int64_t)next_random(&state))) != FILTER_OK;
                }
                fills[slack][range]++;
                fills[slack][3]++;
                failed[slack][range] += (uint64_t)full;
                failed[slack][3] += (uint64_t)full;
            }
            free(blob);
        }
    }
    printf("\n### 10. Cuckoo filter: the slack\n\n");
    printf("For every n from 1 to %llu, %d cuckoo filters for n keys at p = 0.01 (cuckoo_size), "
           "each filled with n random keys (splitmix64, seeded by n and the fill; the same keys "
           "in both rows), through the kind's add. Fills that had no room for one of the keys, "
           "out of the fills, with b = n / (4 x %.2f) buckets rounded up and with cuckoo_size's "
           "ceil(b + %.0f sqrt(b)). Bytes: the sum over n of one filter's.\n\n",
           (unsigned long long)n_max, seeds, CUCKOO_LOAD, CUCKOO_SLACK);
    printf("| buckets | n = 1 to 100 | 101 to 1,000 | 1,001 to 3,000 | all | bytes |\n"
           "|---|---|---|---|---|---|\n");
    for (int slack = 0; slack < 2; slack++) {
        printf("| %s |", slack ? "ceil(b + 2 sqrt(b)) (cuckoo_size)" : "ceil(b)");
        for (int r = 0; r < 4; r++) {
            if (fills[slack][r] == 0) {
                printf(" - |");
            } else {
                printf(" %llu / %llu (%.2f %%) |", (unsigned long long)failed[slack][r],
                       (unsigned long long)fills[slack][r],
                       100.0 * (double)failed[slack][r] / (double)fills[slack][r]);
            }
        }
        printf(" %llu |\n", (unsigned long long)bytes_at[slack]);
    }
    fflush(stdout);
}
