/*
** bloom_model.c: the blocked layout's false-positive model and its design
** for a rate. See bloom_model.h.
*/
#include "bloom_model.h"

#include <math.h>
#include <string.h>

/*
** The blocked layout's model. A probe is a false positive when its k positions
** (drawn with replacement in one line of b = 512 bits) are all set. Given j
** keys in that line, that is the chance that the d distinct bits among the
** probe's positions are all among those hit by the k j draws of the keys:
** rate(j) = sum over d of P(d distinct) * P(d given bits all hit by k j draws).
** Both factors come from small dynamic programmes over positive terms. The
** rate of the filter averages rate(j) over a Poisson number of keys per line.
*/
enum { MAX_LINE_KEYS = 640 };

/* The chances that k draws in a line hit exactly d distinct bits, for d = 0..k. */
static void bloom_model_distinct_bits(uint32_t k, double *chance) {
    const double b = BLOOM_LINE_BITS;
    chance[0] = 1.0;
    for (uint32_t draw = 1; draw <= k; draw++) {
        chance[draw] = 0.0;
        for (uint32_t d = draw; d >= 1; d--) {
            chance[d] = chance[d] * d / b + chance[d - 1] * (b - d + 1) / b;
        }
        chance[0] = 0.0;
    }
}

/* rates[j], j = 0..keys-1: the chance that a probe with k positions is a false positive in a
** line holding j keys. */
static void bloom_model_line_rates(uint32_t k, int keys, double *rates) {
    const double b = BLOOM_LINE_BITS;
    double distinct[BLOOM_K_MAX + 1], covered[BLOOM_K_MAX + 1];
    bloom_model_distinct_bits(k, distinct);
    for (int j = 0; j < keys; j++) {
        rates[j] = 0.0;
    }
    for (uint32_t d = 1; d <= k; d++) {
        /* covered[c]: the chance that c of the d given bits are hit so far. */
        covered[0] = 1.0;
        for (uint32_t c = 1; c <= d; c++) {
            covered[c] = 0.0;
        }
        for (int j = 0; j < keys; j++) {
            rates[j] += distinct[d] * covered[d];
            for (uint32_t draw = 0; draw < k; draw++) {
                for (uint32_t c = d; c >= 1; c--) {
                    covered[c] =
                        covered[c] * (1.0 - (d - c) / b) + covered[c - 1] * (d - c + 1) / b;
                }
                covered[0] *= 1.0 - d / b;
            }
        }
    }
}

/* Mean of rates[j] over j ~ Poisson(keys_per_line), with rates known for j < keys. */
static double bloom_model_poisson_mean(const double *rates, int keys, double keys_per_line) {
    /* Weights relative to the mode, by recurrence in both directions. */
    const double lambda = keys_per_line;
    int mode = (int)floor(lambda);
    if (mode >= keys) {
        mode = keys - 1;
    }
    double weight = 1.0, total = 1.0, sum = rates[mode];
    for (int j = mode + 1; j < keys; j++) {
        weight *= lambda / j;
        total += weight;
        sum += weight * rates[j];
    }
    weight = 1.0;
    for (int j = mode; j >= 1; j--) {
        weight *= j / lambda;
        total += weight;
        sum += weight * rates[j - 1];
    }
    return sum / total;
}

/* Keys per line to tabulate for loads up to lambda at rates down to p: the Poisson tail
** beyond is below a millionth of p. */
static int bloom_model_line_keys_needed(double lambda, double p) {
    double z = sqrt(2.0 * log(1e6 / p)) + 2.0;
    double keys = ceil(lambda + z * sqrt(lambda) + 10.0);
    return keys < MAX_LINE_KEYS ? (int)keys : MAX_LINE_KEYS;
}

double bloom_blocked_fp_rate(double keys_per_line, uint32_t k) {
    double rates[MAX_LINE_KEYS];
    if (!(keys_per_line >= 0.0 && keys_per_line <= BLOOM_BLOCKED_LOAD_MAX) || k < 1 ||
        k > BLOOM_K_MAX) {
        return NAN;
    }
    if (keys_per_line == 0.0) {
        return 0.0;
    }
    int keys = bloom_model_line_keys_needed(keys_per_line, 1e-20);
    bloom_model_line_rates(k, keys, rates);
    return bloom_model_poisson_mean(rates, keys, keys_per_line);
}

enum { BLOCKED_K_CANDIDATES = 5 };

/* The largest load at which the best of k = first_k.. (BLOCKED_K_CANDIDATES values, rates
** tabulated in rates) has a model rate of at most p, by bisection below high; and that k. */
static double bloom_model_largest_load(const double (*rates)[MAX_LINE_KEYS], int keys,
                                       uint32_t first_k, uint32_t count, double high, double p,
                                       uint32_t *best_k) {
    double low = 0.0, best_rate = 2.0;
    for (int i = 0; i < 64; i++) {
        double middle = (low + high) / 2, rate = 1.0;
        for (uint32_t c = 0; c < count; c++) {
            rate = fmin(rate, bloom_model_poisson_mean(rates[c], keys, middle));
        }
        *(rate <= p ? &low : &high) = middle;
    }
    for (uint32_t c = 0; c < count; c++) {
        double rate = bloom_model_poisson_mean(rates[c], keys, low);
        if (rate < best_rate) {
            best_rate = rate;
            *best_k = first_k + c;
        }
    }
    return low;
}

filter_status bloom_design_blocked(double p, bloom_blocked_design *out) {
    const double ln2 = 0.693147180559945309417232121458176568;
    double rates[BLOCKED_K_CANDIDATES][MAX_LINE_KEYS]; /* 25 KB of stack */
    memset(out, 0, sizeof *out);
    if (filter_check_rate(p) != FILTER_OK) {
        return FILTER_BAD_ARGUMENT;
    }
    if (p > BLOOM_BLOCKED_P_MAX) {
        return FILTER_RATE_TOO_HIGH;
    }
    if (-log2(p) > BLOOM_K_MAX + 1) {
        return FILTER_TOO_MANY_HASHES;
    }
    /* The rate is unimodal in k: a window of candidates starts near the classic optimum,
    ** log2(1/p), and moves until the best k is inside it. */
    double classic_k = fmin(fmax(round(-log2(p)), 1.0), BLOOM_K_MAX);
    double high = BLOOM_LINE_BITS * ln2 * ln2 / -log(p); /* the standard layout's load */
    int keys = bloom_model_line_keys_needed(high, p);
    uint32_t first_k = classic_k > 3 ? (uint32_t)classic_k - 3 : 1;
    for (int moves = 0; moves < BLOOM_K_MAX; moves++) {
        if (first_k + BLOCKED_K_CANDIDATES - 1 > BLOOM_K_MAX) {
            first_k = BLOOM_K_MAX - BLOCKED_K_CANDIDATES + 1;
        }
        for (uint32_t c = 0; c < BLOCKED_K_CANDIDATES; c++) {
            bloom_model_line_rates(first_k + c, keys, rates[c]);
        }
        out->load = bloom_model_largest_load((const double(*)[MAX_LINE_KEYS])rates, keys, first_k,
                                             BLOCKED_K_CANDIDATES, high, p, &out->k);
        uint32_t last_k = first_k + BLOCKED_K_CANDIDATES - 1;
        if (out->k == first_k && first_k > 1) {
            first_k = first_k > BLOCKED_K_CANDIDATES - 2 ? first_k - (BLOCKED_K_CANDIDATES - 2) : 1;
        } else if (out->k == last_k && last_k < BLOOM_K_MAX) {
            first_k = last_k - 1;
        } else {
            break;
        }
    }
    out->p = p;
    return FILTER_OK;
}
