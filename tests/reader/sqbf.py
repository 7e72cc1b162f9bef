"""An independent reader and writer of sqlite-bloom filter BLOBs ("SQBF").

Written from docs/format.md alone (format version 1), without reading the extension's
source: it exists to show that the specification is enough. Section numbers below are
those of docs/format.md. Standard library plus the `xxhash` module (python3-xxhash).
Kind 3 (format version 2) follows section 4.3's words; its author had seen the extension's
counting code, so the two places where the words were not enough are marked "not in
format.md" below. Kind 4 (the cuckoo filter, format version 2) was written from section 4.4 and
section 5's kind-4 table alone, before its author read the extension's cuckoo code; what the
words left open is marked "not in format.md" there too. Kinds 5 (the scalable Bloom filter)
and 6 (the count-min sketch) follow sections 4.5 and 4.6 and section 5's tables for them, from
their words; where the words were not enough, the sections were changed (tests/reader/README.md).
Kind 7 (the Parquet split-block Bloom filter) and its key hash 2 follow section 4.7, section 1's
tables and section 5's checks for it; its author had read the extension's Parquet code for the
encoding of its fuzz oracle's keys, but wrote this part from the words, and marks what they leave
open "not in format.md" as above.
Kind 8 (the binary fuse filter) follows section 4.8 and section 5's table for it, written from
their words before its author read the extension's fuse code; what they leave open is marked
"not in format.md" too.
Kind 9 (Spark's Bloom filter, format version 3) and its key hash 3 follow section 4.9 and section
5's table for it, and Spark's bytes as 4.9 gives them; its author wrote the extension's code too,
so this part checks the words against the fixtures Spark's own classes made (tests/golden/spark)
more than it checks the code independently.
"""
import math
import struct
from dataclasses import dataclass

import xxhash

MAGIC = b"SQBF"                       # section 1
HEADER = 64                           # section 1: 64-byte header, then the body
READER_VERSION = 3                    # section 2: the newest format version this reads
# Section 1, kinds table, with the names bloom_build and bloom_info spell them ('counting' for
# kind 3 is not in format.md: section 1 names only 'standard' and 'blocked').
KINDS = {1: "standard", 2: "blocked", 3: "counting", 4: "cuckoo",   # 4.4: layout "cuckoo"
         5: "scalable", 6: "countmin", 7: "parquet", 8: "fuse", 9: "spark"}   # 4.5 to 4.9
FORMAT_VERSION = {1: 1, 2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 9: 3}   # section 1
HASHES = {1: "xxh3-128", 2: "xxh64-parquet", 3: "murmur3-spark"}   # section 1, key hashes
KIND_HASH = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 2, 8: 1, 9: 3}   # section 1: each kind's
SEGMENT = {1: 64, 2: 512, 3: 64}      # sections 4.1-4.3: m is a positive multiple of these
RESERVED = {                          # sections 4.1-4.3: the reserved header bytes
    1: list(range(12, 16)) + list(range(48, 64)),
    2: list(range(12, 16)) + list(range(48, 64)),
    3: list(range(13, 16)) + list(range(48, 64)),   # byte 12 is the counter width
    4: list(range(10, 16)) + list(range(48, 64)),   # 4.4: f at 8, slots per bucket at 9
    5: list(range(11, 16)) + list(range(48, 64)),   # 4.5: stage layout, g and s at 8, 9, 10
    6: list(range(21, 24)) + list(range(48, 64)),   # 4.6: d at 16-19, update at 20
    7: list(range(41, 64)),                         # 4.7: the physical type at 40
    8: [11] + list(range(48, 64)),                  # 4.8: f, arity, s at 8, 9, 10
    9: list(range(45, 64)),                         # 4.9: Spark's version at 44
}
COUNTER_BITS = 4                      # section 4.3: the counter width, the only one defined
COUNTER_MAX = 15                      # section 4.3: a counter at 15 is saturated
M64 = (1 << 64) - 1
SLOTS = 4                             # section 4.4: slots per bucket, the only value defined
MAX_KICKS = 500                       # section 4.4, add: evictions before the filter is full
STAGES_MAX = 64                       # section 4.5: 1 to 64 stages
DEPTH_MAX = 64                        # section 4.6: 1 to 64 rows
TOTAL_MAX = 2**63 - 1                 # section 4.6: the total of a sketch
BLOCKS_MAX = 67108863                 # section 4.7: z, 1 to 67,108,863
SIZED_BLOCKS_MAX = 2**22              # section 4.7, sizing: at most 2^22 blocks
PARQUET_TYPES = {1: "INT32", 2: "INT64", 3: "INT96", 4: "FLOAT", 5: "DOUBLE", 6: "BYTE_ARRAY",
                 7: "FIXED_LEN_BYTE_ARRAY"}   # 4.7: Parquet's Type enum; 0: none yet
FUSE_ARITY = 3                        # section 4.8: slots a key's fingerprint is spread over
FUSE_S_MAX = 18                       # section 4.8: s from 0 to 18
FUSE_SLOTS_MAX = 2**32 - 1            # section 4.8: A = (S + 2) L <= 2^32 - 1
FUSE_SEEDS = 64                       # section 4.8, build: seeds t = 0 .. 63
FUSE_SEED_STEP = 0x9E3779B97F4A7C15   # section 4.8, build: seed = t * this (mod 2^64)
SALTS = (0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D,   # 4.7: word j's bit
         0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31)


class FilterError(ValueError):
    """A BLOB that fails a check of section 5; str() is the spec's message."""


class KeyAbsent(ValueError):
    """Sections 4.3 and 4.4, remove: the key is certainly not in the filter (nothing
    changes)."""


class KeyRefused(ValueError):
    """Section 4.7: a value that is not a key of the filter's physical type is refused by an
    add (nothing changes)."""


class FilterFull(ValueError):
    """Section 4.4, add and union: 500 kicks found no room (the filter is left as it was).
    Section 4.5: a scalable filter that cannot grow, or a union whose stages would hold more
    than they are sized for. Section 4.6: a total above 2^63 - 1."""


@dataclass
class Filter:
    blob: bytes
    format_version: int
    min_reader_version: int
    kind: int
    key_hash: int
    k: int
    m: int
    n: int
    p: float
    keys_added: int
    fp_bits: int = 0          # kind 4 (section 4.4): f; its k and m are 0
    buckets: int = 0          # kind 4: B

    @property
    def body(self):
        return self.blob[HEADER:]


def _fmt_real(x):
    # Section 5: p as C's %.15g, but NaN for every NaN and Inf, -Inf for the infinities.
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Inf" if x > 0 else "-Inf"
    return "%.15g" % x


def parse(blob):
    """Validate a filter (bytes) in the order of section 5 (its header; a scalable filter's
    stages' headers too) and decode it."""
    blob = bytes(blob)
    return _parse(blob, len(blob), True)


def _check_prelude(blob, length):
    """Section 5's checks of the prelude of a BLOB of `length` bytes whose first bytes are
    `blob`: its length, magic and versions. Returns its format version, minimum reader version,
    kind and key hash."""
    if length < HEADER:
        raise FilterError("not a Bloom filter: length %d is shorter than the 64-byte header"
                          % length)
    if blob[0:4] != MAGIC:
        raise FilterError("not a Bloom filter: magic is x'%s', not x'53514246' (SQBF)"
                          % blob[0:4].hex().upper())
    # Section 1: the prelude.
    fv, mrv, kind, khash = blob[4], blob[5], blob[6], blob[7]
    # Section 2, "Reading": 1 <= minimum reader version <= format version ...
    if not 1 <= mrv <= fv:
        raise FilterError("corrupt filter: format version %d with minimum reader version %d"
                          % (fv, mrv))
    # ... and minimum reader version <= our version, before looking at the kind.
    if mrv > READER_VERSION:
        raise FilterError("filter format version %d needs a reader of version %d or later; "
                          "this one reads version %d" % (fv, mrv, READER_VERSION))
    return fv, mrv, kind, khash


def _parse(blob, length, stages):
    """Section 5's checks of a BLOB of `length` bytes whose first bytes are `blob` (its header
    at least); a scalable filter's stages are checked when `stages` (not when it is itself a
    stage: section 5 checks a stage's header as a header)."""
    fv, mrv, kind, khash = _check_prelude(blob, length)
    if kind not in KINDS:
        raise FilterError("corrupt filter: unknown kind %d" % kind)
    if mrv < FORMAT_VERSION[kind]:            # section 5: the version that defines the kind
        raise FilterError("corrupt filter: kind %d is of format version %d, read by readers of "
                          "version %d and later, not %d"
                          % (kind, FORMAT_VERSION[kind], FORMAT_VERSION[kind], mrv))
    if khash not in HASHES:
        raise FilterError("corrupt filter: unknown hash %d" % khash)
    if khash != KIND_HASH[kind]:              # section 5: the key hash of the kind (section 1)
        raise FilterError("corrupt filter: kind %d hashes its keys by hash %d, not %d"
                          % (kind, KIND_HASH[kind], khash))
    if kind == 4:
        return _parse_cuckoo(blob, length, fv, mrv, khash)
    if kind == 5:
        return _parse_scalable(blob, length, fv, mrv, khash, stages)
    if kind == 6:
        return _parse_sketch(blob, length, fv, mrv, khash)
    if kind == 7:
        return _parse_parquet(blob, length, fv, mrv, khash)
    if kind == 8:
        return _parse_fuse(blob, length, fv, mrv, khash)
    if kind == 9:
        return _parse_spark(blob, length, fv, mrv, khash)
    # Sections 4.1-4.3: the header, the same fields at the same offsets in every kind (kind 3
    # puts its counter width in byte 12, reserved in kinds 1 and 2).
    k, = struct.unpack_from("<I", blob, 8)
    m, n = struct.unpack_from("<QQ", blob, 16)
    p, = struct.unpack_from("<d", blob, 32)
    keys_added, = struct.unpack_from("<Q", blob, 40)
    if not 1 <= k <= 64:
        raise FilterError("corrupt filter: k = %d is outside 1..64" % k)
    seg = SEGMENT[kind]
    if kind == 3:                             # section 5, the table for kind 3
        if blob[12] != COUNTER_BITS:
            raise FilterError("corrupt filter: counters of %d bits, not %d"
                              % (blob[12], COUNTER_BITS))
        if m == 0 or m % seg:
            raise FilterError("corrupt filter: m = %d counters is not a positive multiple of %d"
                              % (m, seg))
        if length != HEADER + m // 2:
            raise FilterError("corrupt filter: m = %d counters need %d bytes, the BLOB has %d"
                              % (m, HEADER + m // 2, length))
    else:
        if m == 0 or m % seg:
            raise FilterError("corrupt filter: m = %d bits is not a positive multiple of %d"
                              % (m, seg))
        if length != HEADER + m // 8:
            raise FilterError("corrupt filter: m = %d bits needs %d bytes, the BLOB has %d"
                              % (m, HEADER + m // 8, length))
    if n < 1:
        raise FilterError("corrupt filter: capacity n = %d" % n)
    if not 0 < p < 1:                         # also refuses NaN
        raise FilterError("corrupt filter: p = %s is not between 0 and 1" % _fmt_real(p))
    if fv <= READER_VERSION:                  # section 2, "Reserved bytes"
        for i in RESERVED[kind]:
            if blob[i]:
                raise FilterError("corrupt filter: reserved byte %d is 0x%02X, not 0"
                                  % (i, blob[i]))
    return Filter(blob, fv, mrv, kind, khash, k, m, n, p, keys_added)


def _cuckoo_bytes(buckets, fp_bits):
    """Section 4.4: the BLOB's length, 64 + ceil(4 B f / 8)."""
    return HEADER + (SLOTS * buckets * fp_bits + 7) // 8


def _parse_cuckoo(blob, length, fv, mrv, khash):
    """Section 4.4's header, checked as section 5's table for kind 4 says, in its order."""
    fp_bits, slots = blob[8], blob[9]
    buckets, n = struct.unpack_from("<QQ", blob, 16)
    p, = struct.unpack_from("<d", blob, 32)
    keys, = struct.unpack_from("<Q", blob, 40)
    if not 1 <= fp_bits <= 32:
        raise FilterError("corrupt filter: fingerprints of %d bits, not 1 to 32" % fp_bits)
    if slots != SLOTS:
        raise FilterError("corrupt filter: buckets of %d slots, not %d" % (slots, SLOTS))
    size = _cuckoo_bytes(buckets, fp_bits)
    # "B >= 1, and the length below fits in 64 bits": one message for both, showing B (the
    # table shows only B = 0: that a B too large prints the same is not in format.md).
    if buckets < 1 or size > M64:
        raise FilterError("corrupt filter: %d buckets" % buckets)
    if length != size:
        raise FilterError("corrupt filter: %d buckets of %d-bit fingerprints need %d bytes, "
                          "the BLOB has %d" % (buckets, fp_bits, size, length))
    if n < 1:
        raise FilterError("corrupt filter: capacity n = %d" % n)
    if not 0 < p < 1:
        raise FilterError("corrupt filter: p = %s is not between 0 and 1" % _fmt_real(p))
    if keys > SLOTS * buckets:
        raise FilterError("corrupt filter: %d keys in %d slots" % (keys, SLOTS * buckets))
    if fv <= READER_VERSION:
        for i in RESERVED[4]:
            if blob[i]:
                raise FilterError("corrupt filter: reserved byte %d is 0x%02X, not 0"
                                  % (i, blob[i]))
    return Filter(blob, fv, mrv, 4, khash, 0, 0, n, p, keys, fp_bits, buckets)


# ---- Section 3: keys and the key hash ------------------------------------------------

def canonical(value):
    """(tag, canonical bytes) of a SQL value given as int, float, str or bytes."""
    if isinstance(value, float) and value.is_integer() and -2.0**63 <= value < 2.0**63:
        value = int(value)                    # integral REAL (and -0.0) is the INTEGER
    if isinstance(value, int):
        if not -2**63 <= value < 2**63:
            raise ValueError("integer out of the 64-bit range: %d" % value)
        return 1, value.to_bytes(8, "little", signed=True)
    if isinstance(value, float):
        if math.isnan(value):
            return 2, bytes.fromhex("000000000000F87F")
        return 2, struct.pack("<d", value)
    if isinstance(value, str):
        return 3, value.encode("utf-8")
    if isinstance(value, (bytes, bytearray, memoryview)):
        return 4, bytes(value)
    raise TypeError("not a key: %r (NULL is never a key)" % (value,))


def key_hash(value):
    """(h1, h2): low and high 64-bit halves of XXH3-128(canonical bytes, seed = tag)."""
    tag, data = canonical(value)
    h = xxhash.xxh3_128_intdigest(data, seed=tag)
    return h & M64, h >> 64


# ---- Sections 4.1-4.3: positions and cells ----------------------------------------------

def _mix(z):
    """The splitmix64 finalizer (section 4, kind 1)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def positions(kind, m, k, h1, h2):
    if kind in (1, 3):                        # 4.3: kind 3 has kind 1's positions
        step = h2 | 1
        return [(m * _mix((h1 + i * step) & M64)) >> 64 for i in range(k)]
    if kind == 2:
        line = ((m // 512) * h1) >> 64
        y, out = h2 | 1, []
        for _ in range(k):
            out.append(512 * line + (y >> 55))
            y = (y * 0x9E3779B97F4A7C15) & M64
        return out
    raise ValueError("unknown kind %d" % kind)


def _bit(body, j):
    return (body[j >> 3] >> (j & 7)) & 1     # bit j: bit j mod 8 of body byte j div 8


def _counter(body, j):
    # Section 4.3: counter j is the low 4 bits of body byte j div 2 when j is even, the high 4
    # bits when j is odd.
    return (body[j >> 1] >> (4 * (j & 1))) & 0xF


# For each byte of a counting filter's body, how many of its two counters are above 0, at 15.
_NONZERO = bytes(((v & 0xF) != 0) + ((v >> 4) != 0) for v in range(256))
_SATURATED = bytes(((v & 0xF) == COUNTER_MAX) + ((v >> 4) == COUNTER_MAX) for v in range(256))


def cell(f, j):
    """Position j of a filter: its bit (kinds 1, 2) or its counter (kind 3)."""
    return _counter(f.body, j) if f.kind == 3 else _bit(f.body, j)


def cells(f):
    """Every position's bit or counter, as a list of m ints."""
    body = f.body
    if f.kind == 3:
        return [(byte >> shift) & 0xF for byte in body for shift in (0, 4)]
    return [int(c) for c in format(int.from_bytes(body, "little"), "0%db" % f.m)[::-1]]


def probe_hash(f, h1, h2):
    """might_contain for a key hash: 1 when every position's bit is set or counter above 0."""
    if f.kind == 5:                           # 4.5: some stage answers 1
        return int(any(probe_hash(st, h1, h2) for st in f.stages))
    if f.kind == 6:                           # 4.6: an estimate above 0
        return int(estimate_hash(f, h1, h2) > 0)
    if f.kind == 4:
        return _cuckoo_probe(f, h1, h2)
    if f.kind == 8:
        return fuse_probe_hash(f, h1)
    body, pos = f.body, positions(f.kind, f.m, f.k, h1, h2)
    if f.kind == 3:
        return int(all(_counter(body, j) for j in pos))
    return int(all(_bit(body, j) for j in pos))


def might_contain(f, value):
    """1 ("possibly present") when all k bits of the key are set (counters above 0), else 0."""
    if isinstance(f, (bytes, bytearray, memoryview)):
        f = parse(f)
    if value is None:
        return None  # NULL is never a key (section 3); through SQL it answers NULL
    if f.kind == 7:                           # 4.7: hashed as a value of the filter's type
        return parquet_probe(f, value)
    if f.kind == 9:                           # 4.9: hashed as Spark hashes it
        return spark_probe(f, value)
    return probe_hash(f, *key_hash(value))


# ---- Section 4.4: the cuckoo filter ------------------------------------------------------

def _reduce(x, r):
    """reduce(x, r) = floor(r x / 2^64) (section 4.4, as in 4.1)."""
    return (r * x) >> 64


def cuckoo_alt(i, fp, buckets):
    """alt(i, fp) = (reduce(mix(fp), B) - i) mod B: the other bucket of fp in bucket i."""
    return (_reduce(_mix(fp), buckets) - i) % buckets


def cuckoo_place(fp_bits, buckets, h1, h2):
    """(fp, i1, i2) of a key hash: its fingerprint and its two buckets (section 4.4)."""
    fp = _reduce(h2, (1 << fp_bits) - 1) + 1
    i1 = _reduce(h1, buckets)
    return fp, i1, cuckoo_alt(i1, fp, buckets)


def _slot(body, fp_bits, j):
    """Slot j's field: bits j f .. j f + f - 1 of the body, least significant first."""
    bit = j * fp_bits
    chunk = int.from_bytes(body[bit >> 3:(bit >> 3) + 5], "little")
    return (chunk >> (bit & 7)) & ((1 << fp_bits) - 1)


def slots(f):
    """Every slot's fingerprint (0: empty), slot s of bucket i at index 4 i + s."""
    fb, count = f.fp_bits, SLOTS * f.buckets
    bits = format(int.from_bytes(f.body, "little"), "0%db" % (8 * len(f.body)))[::-1]
    return [int(bits[j * fb:(j + 1) * fb][::-1], 2) for j in range(count)]


def _cuckoo_probe(f, h1, h2):
    fp, i1, i2 = cuckoo_place(f.fp_bits, f.buckets, h1, h2)
    body, fb = f.body, f.fp_bits
    return int(any(_slot(body, fb, SLOTS * i + s) == fp for i in (i1, i2) for s in range(SLOTS)))


def _first_empty(table, b, fp):
    """Put fp in the first empty slot (lowest s) of bucket b; False if there is none."""
    for j in range(SLOTS * b, SLOTS * b + SLOTS):
        if table[j] == 0:
            table[j] = fp
            return True
    return False


def _cuckoo_insert(table, buckets, fp, i1, seed):
    """Section 4.4, add, of fp whose first bucket is i1, with the kicks' seed: True when it
    found room. On False the table is changed: the caller keeps a copy."""
    i2 = cuckoo_alt(i1, fp, buckets)
    if _first_empty(table, i1, fp) or _first_empty(table, i2, fp):
        return True
    b = i2 if _mix(seed) & 1 else i1
    for kick in range(MAX_KICKS):
        s = _mix((seed + kick + 1) & M64) >> 62
        j = SLOTS * b + s
        table[j], fp = fp, table[j]
        b = cuckoo_alt(b, fp, buckets)
        if _first_empty(table, b, fp):
            return True
    return False


def write_cuckoo(buckets, fp_bits, n, p, keys, table):
    """A kind-4 filter from its header fields and its 4B slots, as this writer writes it
    (section 2: format version 2 as both versions, reserved bytes 0; section 4.4: the bits
    after the last slot 0)."""
    fv = FORMAT_VERSION[4]
    header = (MAGIC + bytes([fv, fv, 4, 1, fp_bits, SLOTS]) + bytes(6)
              + struct.pack("<QQdQ", buckets, n, p, keys) + bytes(16))
    size = _cuckoo_bytes(buckets, fp_bits) - HEADER
    bits = "".join(format(v, "0%db" % fp_bits)[::-1] for v in table)
    body = int(bits[::-1] or "0", 2).to_bytes(size, "little")
    blob = header + body
    parse(blob)
    return blob


def build_cuckoo(buckets, fp_bits, n, p, keys):
    """A cuckoo filter of B buckets and f-bit fingerprints holding `keys` added in order
    (None skipped); FilterFull if one finds no room."""
    table = [0] * (SLOTS * buckets)
    count = 0
    for key in keys:
        if key is None:
            continue
        h1, h2 = key_hash(key)
        fp, i1, _ = cuckoo_place(fp_bits, buckets, h1, h2)
        if not _cuckoo_insert(table, buckets, fp, i1, h1):
            raise FilterFull(key)
        count += 1
    return write_cuckoo(buckets, fp_bits, n, p, count, table)


def cuckoo_size(n, p):
    """Section 4.4, sizing (informative): (B, f) for n keys at rate p."""
    fp_bits = 1
    while 2 * 4 * 0.95 / ((1 << fp_bits) - 1) > p:
        fp_bits += 1
    b = n / (4 * 0.95)
    return math.ceil(b + 2 * math.sqrt(b)), fp_bits


def _cuckoo_add(f, value):
    table = slots(f)
    h1, h2 = key_hash(value)
    fp, i1, _ = cuckoo_place(f.fp_bits, f.buckets, h1, h2)
    if not _cuckoo_insert(table, f.buckets, fp, i1, h1):
        raise FilterFull(value)             # the filter is left as it was
    return write_cuckoo(f.buckets, f.fp_bits, f.n, f.p, min(f.keys_added + 1, SLOTS * f.buckets),
                        table)


def _cuckoo_remove(f, value):
    table = slots(f)
    fp, i1, i2 = cuckoo_place(f.fp_bits, f.buckets, *key_hash(value))
    for b in (i1, i2):
        for j in range(SLOTS * b, SLOTS * b + SLOTS):
            if table[j] == fp:
                table[j] = 0
                # "keys - 1": that it is kept at 0 (a header whose keys is below the slots
                # in use) is not in format.md for kind 4; 4.3 says so for kind 3.
                return write_cuckoo(f.buckets, f.fp_bits, f.n, f.p, max(f.keys_added - 1, 0),
                                    table)
    raise KeyAbsent(value)


def _cuckoo_union(a, b):
    if (a.key_hash, a.buckets, a.fp_bits) != (b.key_hash, b.buckets, b.fp_bits):
        raise ValueError("incompatible filters")
    table = slots(a)                          # a copy of the first
    for j, fp in enumerate(slots(b)):         # bucket by bucket, slot by slot
        if fp:
            i, s = divmod(j, SLOTS)
            if not _cuckoo_insert(table, a.buckets, fp, i, _mix(i) ^ fp ^ s):
                raise FilterFull(j)
    # "keys summed, kept at 4B"; the n and p of the first: "a copy of the first" (not said in
    # so many words for kind 4, as 4.1 and 4.3 say it).
    return write_cuckoo(a.buckets, a.fp_bits, a.n, a.p,
                        min(a.keys_added + b.keys_added, SLOTS * a.buckets), table)


def _cuckoo_info(f):
    """Section 4.4, derived figures."""
    table = slots(f)
    used = sum(1 for v in table if v)
    total = SLOTS * f.buckets
    if used == 0:
        fp = 0.0
    elif f.fp_bits == 1:
        fp = 1.0
    else:
        # 1 - (1 - 1/(2^f - 1))^(8U/4B), evaluated as section 4.1 advises for its figures
        # (1 - x)^y as exp(y log1p(-x)), 1 - e^z as -expm1(z): literally, 1 - 1/(2^f - 1)
        # rounds, and the rate loses up to 8 digits at f = 32. (Section 4.4 does not say how.)
        fp = -math.expm1(8 * used / total * math.log1p(-1 / ((1 << f.fp_bits) - 1)))
    return {
        "format_version": f.format_version, "min_reader_version": f.min_reader_version,
        "layout": KINDS[4], "hash": HASHES[f.key_hash], "fingerprint_bits": f.fp_bits,
        "buckets": f.buckets, "slots_per_bucket": f.blob[9], "bytes": len(f.blob), "n": f.n,
        "p": f.p, "keys_added": f.keys_added, "slots_used": used, "load_factor": used / total,
        "estimated_fp_rate": fp, "over_capacity": f.keys_added > f.n,
    }


# ---- Section 4: derived figures (what bloom_info reports) ------------------------------

def info(f):
    """bloom_info's fields: the header (section 4's table) and the derived figures."""
    if isinstance(f, (bytes, bytearray, memoryview)):
        f = parse(f)
    if f.kind == 5:
        return _scalable_info(f)
    if f.kind == 6:
        return _sketch_info(f)
    if f.kind == 7:
        return _parquet_info(f)
    if f.kind == 8:
        return _fuse_info(f)
    if f.kind == 9:
        return _spark_info(f)
    if f.kind == 4:
        return _cuckoo_info(f)
    m, k, body = f.m, f.k, f.body
    if f.kind == 3:
        # Section 4.3, derived figures: kind 1's, with X the counters above 0.
        counts = [sum(body.translate(_NONZERO))]
        b = m
    else:
        b = m if f.kind == 1 else 512         # bits per segment
        seg_bytes = b // 8
        counts = [int.from_bytes(body[i * seg_bytes:(i + 1) * seg_bytes], "little").bit_count()
                  for i in range(m // b)]
    L = m // b                                # segments
    X = sum(counts)
    fp = sum((x / b) ** k for x in counts) / L
    # Section 4's formulas, with ln(1 - x) computed as log1p(-x) and e^x - 1 as expm1(x), as
    # it says: evaluated literally, with log and exp, Var(X) loses enough digits to change the
    # printed error (m = 148992, k = 2, X = 164: 0.2499 literally, 0.2500 so).
    ln1m, ex1m = (lambda x: math.log1p(-x)), math.expm1
    u = -ex1m(k * ln1m(1 / b)) / L            # 1 - (1 - 1/b)^k, over L
    if X == m:
        est = err = None
    else:
        est = ln1m(X / m) / ln1m(u)
        a = 1 - X / m
        u2 = -ex1m(k * ln1m(2 / b)) / L
        d2 = ln1m(u2) - 2 * ln1m(u)
        var = m * a * (1 - a) + m * (b - 1) * a * a * ex1m(est * d2)
        if L > 1:
            # Section 4: left out with one segment, where its weight m (m - b) is 0 and
            # ln(1 - 2u) is undefined once u >= 1/2.
            d3 = ln1m(2 * u) - 2 * ln1m(u)
            var += m * (m - b) * a * a * ex1m(est * d3)
        # Section 4: a Var(X) that rounding makes negative (k = 1, one key) counts as 0.
        err = math.sqrt(max(var, 0.0)) / (m * a * -ln1m(u))
    over = f.keys_added > f.n and (X == m or est - f.n > 4 * err)
    out = {
        "format_version": f.format_version, "min_reader_version": f.min_reader_version,
        "layout": KINDS[f.kind], "hash": HASHES[f.key_hash], "k": k, "m": m,
        "bytes": len(f.blob), "n": f.n, "p": f.p, "keys_added": f.keys_added,
        "bits_set": X, "fill_ratio": X / m, "estimated_keys": est,
        "estimated_keys_error": err, "estimated_fp_rate": fp, "over_capacity": over,
    }
    if f.kind == 3:
        # Section 4.3: counters_nonzero in place of bits_set, plus counter_bits and
        # counters_saturated. (The header's "keys" keeps kind 1's name, keys_added: not in
        # format.md.)
        del out["bits_set"]
        out["counters_nonzero"] = X
        out["counter_bits"] = f.blob[12]
        out["counters_saturated"] = sum(body.translate(_SATURATED))
    return out


def printed(name, value):
    """A derived REAL as bloom_info prints it (last paragraph of section 4), as a float."""
    if value is None:
        return None
    if name in ("estimated_keys", "estimated_keys_error"):
        return float("%.1f" % value)
    return float("%.15g" % value)


# ---- Writing (sections 1, 2 and 4) --------------------------------------------------------

def write(kind, m, k, n, p, keys_added, values):
    """A filter of the given kind from its header fields and its m bits or counters, as a
    writer of this version writes it (section 2): the kind's format version as both versions,
    reserved bytes 0."""
    fv = FORMAT_VERSION[kind]
    width = COUNTER_BITS if kind == 3 else 0  # section 4.3: byte 12, the counter width
    header = (MAGIC + bytes([fv, fv, kind, 1]) + struct.pack("<IB3x", k, width)
              + struct.pack("<QQdQ", m, n, p, keys_added) + bytes(16))
    if kind == 3:                             # counter j: low half of byte j div 2 if j even
        body = bytes(lo | hi << 4 for lo, hi in zip(values[0::2], values[1::2]))
    else:                                     # bit j: bit j mod 8 of byte j div 8
        body = int("".join("1" if v else "0" for v in reversed(values)) or "0",
                   2).to_bytes(m // 8, "little")
    blob = header + body
    parse(blob)                               # what we write must pass our own checks
    return blob


def _distinct(f_kind, m, k, value):
    """{counter: t_c}: each distinct position of the key and how many of its k it is (4.3)."""
    times = {}
    for j in positions(f_kind, m, k, *key_hash(value)):
        times[j] = times.get(j, 0) + 1
    return times


def _add(kind, m, k, values, value):
    top = COUNTER_MAX if kind == 3 else 1     # a bit is a counter that stops at 1
    for j, t in _distinct(kind, m, k, value).items():
        values[j] = min(top, values[j] + t)   # section 4.3, add: min(15, value + t_c)


def build(kind, m, k, n, p, keys, keys_added=None):
    """Write a filter of the given kind and size holding `keys` (None skipped), in the
    format version that defines the kind."""
    values = [0] * m
    count = 0
    for key in keys:
        if key is None:
            continue
        count += 1
        _add(kind, m, k, values, key)
    if keys_added is None:
        keys_added = min(count, M64)
    return write(kind, m, k, n, p, keys_added, values)


def add(f, value):
    """bloom_add: the key's positions set (counters raised), one more key (kept at 2^64 - 1)."""
    if isinstance(f, (bytes, bytearray, memoryview)):
        f = parse(f)
    if f.kind == 5:
        return _scalable_add(f, value)
    if f.kind == 6:
        return sketch_add(f, value, 1)        # 4.6: bloom_add adds 1
    if f.kind == 7:
        return parquet_add(f, value)
    if f.kind == 8:
        raise ValueError("a fuse filter is built once: it has no add (section 4.8)")
    if f.kind == 9:
        return spark_add(f, value)
    if f.kind == 4:
        return _cuckoo_add(f, value)
    values = cells(f)
    _add(f.kind, f.m, f.k, values, value)
    return write(f.kind, f.m, f.k, f.n, f.p, min(f.keys_added + 1, M64), values)


def remove(f, value):
    """Section 4.3, remove, of a counting filter: KeyAbsent if a counter of the key is below
    the times the key has it; else each counter below 15 lowered by those times, keys - 1
    (kept at 0)."""
    if isinstance(f, (bytes, bytearray, memoryview)):
        f = parse(f)
    if f.kind in (5, 6, 7, 8):
        raise ValueError("a scalable, count-min, Parquet or fuse filter does not remove keys")
    if f.kind == 4:
        return _cuckoo_remove(f, value)
    if f.kind != 3:
        raise ValueError("only a counting or cuckoo filter removes keys")
    values = cells(f)
    times = _distinct(f.kind, f.m, f.k, value)
    if any(values[j] < t for j, t in times.items()):
        raise KeyAbsent(value)
    for j, t in times.items():
        if values[j] < COUNTER_MAX:
            values[j] -= t
    return write(f.kind, f.m, f.k, f.n, f.p, max(f.keys_added - 1, 0), values)


def union(a, b):
    """bloom_union of two filters of one kind, key hash, m and k: bits ORed (4.1, 4.2) or
    counters added and kept at 15 (4.3); keys summed (kept at 2^64 - 1); n and p of a."""
    a = parse(a) if isinstance(a, (bytes, bytearray, memoryview)) else a
    b = parse(b) if isinstance(b, (bytes, bytearray, memoryview)) else b
    if a.kind != b.kind:
        raise ValueError("incompatible filters")
    if a.kind == 5:
        return _scalable_union(a, b)
    if a.kind == 6:
        return _sketch_union(a, b)
    if a.kind == 7:
        return _parquet_union(a, b)
    if a.kind == 8:
        raise ValueError("a fuse filter is built once: it has no union (section 4.8)")
    if a.kind == 9:
        return _spark_union(a, b)
    if a.kind == 4 and b.kind == 4:
        return _cuckoo_union(a, b)
    if (a.kind, a.key_hash, a.m, a.k) != (b.kind, b.key_hash, b.m, b.k):
        raise ValueError("incompatible filters")
    top = COUNTER_MAX if a.kind == 3 else 1
    values = [min(top, x + y) for x, y in zip(cells(a), cells(b))]
    return write(a.kind, a.m, a.k, a.n, a.p, min(a.keys_added + b.keys_added, M64), values)


# ---- Section 4.5: the scalable Bloom filter (kind 5) --------------------------------------

@dataclass
class Scalable:
    blob: bytes
    format_version: int
    min_reader_version: int
    kind: int                 # 5
    key_hash: int
    stage_layout: int         # the kind of every stage, 1 or 2
    growth: int               # g
    n: int                    # the first stage's capacity
    p: float                  # the whole filter's target rate
    r: float                  # the tightening ratio
    keys_added: int
    stages: list = None       # each stage as a Filter (None for a stage's header alone)


def stage_target(n, p, g, r, i):
    """Section 4.5, stage targets: (n_i, p_i); n_i is None when it does not fit in 64 bits.
    p_i is p * (1 - r), then i multiplications by r, each one binary64 operation."""
    rate = p * (1 - r)
    for _ in range(i):
        rate = rate * r
    ni = n * g ** i
    return (ni if ni <= M64 else None), rate


def _same_real(x, y):
    return struct.pack("<d", x) == struct.pack("<d", y)   # "compared bit for bit"


def _parse_scalable(blob, length, fv, mrv, khash, with_stages):
    """Section 5, kind 5: the header's checks, then (with_stages) those of each stage's header
    and of the whole."""
    layout, g, s = blob[8], blob[9], blob[10]
    n, = struct.unpack_from("<Q", blob, 16)
    p, r = struct.unpack_from("<dd", blob, 24)
    keys, = struct.unpack_from("<Q", blob, 40)
    if layout not in (1, 2):
        raise FilterError("corrupt filter: stage layout %d is not 1 or 2" % layout)
    if g < 2:
        raise FilterError("corrupt filter: growth %d is less than 2" % g)
    if not 1 <= s <= STAGES_MAX:
        raise FilterError("corrupt filter: %d stages, not 1 to %d" % (s, STAGES_MAX))
    if not 0 < r < 1:
        raise FilterError("corrupt filter: tightening ratio %s is not between 0 and 1"
                          % _fmt_real(r))
    if n < 1:
        raise FilterError("corrupt filter: capacity n = %d" % n)
    if not 0 < p < 1:
        raise FilterError("corrupt filter: p = %s is not between 0 and 1" % _fmt_real(p))
    if length < HEADER + 72 * s:
        raise FilterError("corrupt filter: %d bytes cannot hold %d stages" % (length, s))
    if fv <= READER_VERSION:
        for i in RESERVED[5]:
            if blob[i]:
                raise FilterError("corrupt filter: reserved byte %d is 0x%02X, not 0"
                                  % (i, blob[i]))
    f = Scalable(blob, fv, mrv, 5, khash, layout, g, n, p, r, keys)
    if not with_stages:
        return f
    f.stages, o, held = [], HEADER, 0
    for i in range(s):
        if length - o < HEADER:
            raise FilterError("corrupt filter: stage %d starts at byte %d, too near the end of "
                              "%d bytes" % (i, o, length))
        m, = struct.unpack_from("<Q", blob, o + 16)
        size = HEADER + 8 * -(-m // 64)       # l_i = 64 + 8 ceil(m_i / 64)
        if size > length - o:
            raise FilterError("corrupt filter: stage %d of m = %d bits does not fit in the %d "
                              "bytes after byte %d" % (i, m, length - o, o))
        try:                                  # its prelude, as a BLOB of l_i
            _, _, stage_kind, stage_hash = _check_prelude(blob[o:o + HEADER], size)
        except FilterError as e:
            raise FilterError("corrupt filter: stage %d: %s" % (i, e)) from None
        if stage_kind != layout or stage_hash != khash:
            raise FilterError("corrupt filter: stage %d is of kind %d and hash %d, not %d and %d"
                              % (i, stage_kind, stage_hash, layout, khash))
        try:
            head = _parse(blob[o:o + HEADER], size, False)   # its header, as a BLOB of l_i
        except FilterError as e:
            raise FilterError("corrupt filter: stage %d: %s" % (i, e)) from None
        ni, pi = stage_target(n, p, g, r, i)
        if ni is None or head.n != ni or not _same_real(head.p, pi):
            raise FilterError("corrupt filter: stage %d is sized for n = %d at p = %s, not as "
                              "stage %d of this filter" % (i, head.n, _fmt_real(head.p), i))
        if head.keys_added > head.n:
            raise FilterError("corrupt filter: stage %d holds %d keys, more than its capacity of "
                              "%d" % (i, head.keys_added, head.n))
        f.stages.append(_parse(blob[o:o + size], size, False))
        held += head.keys_added
        if held > M64:
            raise FilterError("corrupt filter: %d keys added, but its stages hold more than %d"
                              % (keys, M64))
        o += size
    if o != length:
        raise FilterError("corrupt filter: the stages end at byte %d, the BLOB has %d"
                          % (o, length))
    if keys != held:
        raise FilterError("corrupt filter: %d keys added, but its stages hold %d" % (keys, held))
    return f


def standard_size(n, p):
    """Section 4.1, sizing (informative), of kind 1: (m, k), in binary64 as the formulas read:
    m = ceil(-n ln p / (ln 2)^2) rounded up to whole words, k = max(1, round(m/n ln 2)) with m
    before rounding (round: half away from zero)."""
    ln2 = math.log(2)
    bits = math.ceil(-float(n) * math.log(p) / (ln2 * ln2))
    x = float(bits) / float(n) * ln2
    k = max(1, math.floor(x) + (1 if x - math.floor(x) >= 0.5 else 0))
    return -(-bits // 64) * 64, k


def empty_stage(layout, n, p):
    """An empty stage for n_i and p_i (section 4.5, add): a kind-1 filter sized by section 4.1.
    FilterFull when it cannot be sized (more than 64 positions, more than 2^61 bytes: a BLOB
    "may not have" more, section 4.1's sizing says where). The blocked layout's sizing (section
    4.2's model) is not written here."""
    if layout != 1:
        raise NotImplementedError("sizing a blocked stage")
    m, k = standard_size(n, p)
    if k > 64 or HEADER + m // 8 > 2**61:
        raise FilterFull("stage for n = %d at p = %r" % (n, p))
    blob = (MAGIC + bytes([1, 1, 1, 1]) + struct.pack("<I4xQQdQ", k, m, n, p, 0) + bytes(16)
            + bytes(m // 8))                  # section 4.1's header, the bits 0
    parse(blob)
    return blob


def write_scalable(layout, g, n, p, r, stages, keys_added=None):
    """A kind-5 filter from its header fields and its stages (BLOBs of the stage layout), as a
    writer writes it: format version 2 as both versions, reserved bytes 0, keys added the sum
    of the stages' unless given."""
    if keys_added is None:
        keys_added = sum(struct.unpack_from("<Q", st, 40)[0] for st in stages)
    header = (MAGIC + bytes([2, 2, 5, 1, layout, g, len(stages)]) + bytes(5)
              + struct.pack("<QddQ", n, p, r, keys_added) + bytes(16))
    blob = header + b"".join(bytes(st) for st in stages)
    parse(blob)
    return blob


def empty_scalable(n, p, layout=1, g=2, r=0.8):
    """An empty scalable filter: one stage, sized for n_0 and p_0."""
    n0, p0 = stage_target(n, p, g, r, 0)
    return write_scalable(layout, g, n, p, r, [empty_stage(layout, n0, p0)])


def _set_in_stage(stage, value):
    """A stage (bytes) with the key's positions set and its keys added + 1, its other header
    bytes as they were (section 4.5, add: nothing else of the stage changes)."""
    f = parse(stage) if not isinstance(stage, Filter) else stage
    out = bytearray(f.blob)
    for j in positions(f.kind, f.m, f.k, *key_hash(value)):
        out[HEADER + (j >> 3)] |= 1 << (j & 7)
    struct.pack_into("<Q", out, 40, f.keys_added + 1)
    return bytes(out)


def _scalable_add(f, value):
    """Section 4.5, add: nothing when a stage answers 1; else into the last stage, growing first
    when it holds its capacity (FilterFull when it cannot grow). The header rewritten."""
    h1, h2 = key_hash(value)
    stages = [st.blob for st in f.stages]
    keys = f.keys_added
    if not any(probe_hash(st, h1, h2) for st in f.stages):
        last = f.stages[-1]
        if last.keys_added >= last.n:
            s = len(stages)
            ni, pi = stage_target(f.n, f.p, f.growth, f.r, s)
            if s >= STAGES_MAX or ni is None:
                raise FilterFull(value)
            last = parse(empty_stage(f.stage_layout, ni, pi))
            stages.append(last.blob)
        stages[-1] = _set_in_stage(last, value)
        keys += 1
    return write_scalable(f.stage_layout, f.growth, f.n, f.p, f.r, stages, keys)


def build_scalable(n, p, keys, layout=1, g=2, r=0.8):
    """A scalable filter holding `keys` added in order (None skipped)."""
    f = parse(empty_scalable(n, p, layout, g, r))
    for key in keys:
        if key is not None:
            f = parse(_scalable_add(f, key))
    return f.blob


def _scalable_union(a, b):
    """Section 4.5, union: ValueError when they do not merge (their parameters, the shapes of
    their common stages, or stages that would hold more than they are sized for)."""
    if ((a.key_hash, a.stage_layout, a.growth, a.n) != (b.key_hash, b.stage_layout, b.growth, b.n)
            or not _same_real(a.p, b.p) or not _same_real(a.r, b.r)):
        raise ValueError("incompatible filters")
    for sa, sb in zip(a.stages, b.stages):
        if (sa.m, sa.k) != (sb.m, sb.k) or sa.keys_added + sb.keys_added > sa.n:
            raise ValueError("incompatible filters")
    longer, other = (b, a) if len(b.blob) > len(a.blob) else (a, b)
    stages = [bytearray(st.blob) for st in longer.stages]
    for out, st in zip(stages, other.stages):
        for j in range(HEADER, len(out)):
            out[j] |= st.blob[j]
        struct.pack_into("<Q", out, 40, struct.unpack_from("<Q", out, 40)[0] + st.keys_added)
    return write_scalable(longer.stage_layout, longer.growth, longer.n, longer.p, longer.r,
                          stages, a.keys_added + b.keys_added)


def _scalable_info(f):
    """Section 4.5, derived figures."""
    stages, rates = [], []
    for st in f.stages:
        i = info(st)
        stages.append({name: i[name] for name in ("n", "p", "k", "m", "bytes", "keys_added",
                                                  "bits_set", "fill_ratio",
                                                  "estimated_fp_rate")})
        rates.append(i["estimated_fp_rate"])
    none = 1.0
    for q in rates:
        none = none * (1 - q)
    return {
        "format_version": f.format_version, "min_reader_version": f.min_reader_version,
        "layout": KINDS[5], "hash": HASHES[f.key_hash], "stage_layout": KINDS[f.stage_layout],
        "growth": f.growth, "tightening": f.r, "bytes": len(f.blob), "n": f.n, "p": f.p,
        "keys_added": f.keys_added, "capacity": min(sum(st.n for st in f.stages), M64),
        "stage_count": len(f.stages), "stages": stages, "estimated_fp_rate": 1 - none,
    }


# ---- Section 4.6: the count-min sketch (kind 6) -------------------------------------------

@dataclass
class Sketch:
    blob: bytes
    format_version: int
    min_reader_version: int
    kind: int                 # 6
    key_hash: int
    width: int                # w
    depth: int                # d
    update: int               # 0 plain, 1 conservative
    epsilon: float
    delta: float
    total: int

    def counters(self):
        """The d w counters, counter (i, c) at index i w + c."""
        return list(struct.unpack_from("<%dQ" % (self.width * self.depth), self.blob, HEADER))


def _parse_sketch(blob, length, fv, mrv, khash):
    """Section 5, kind 6."""
    width, = struct.unpack_from("<Q", blob, 8)
    depth, = struct.unpack_from("<I", blob, 16)
    update = blob[20]
    epsilon, delta = struct.unpack_from("<dd", blob, 24)
    total, = struct.unpack_from("<Q", blob, 40)
    if not 1 <= depth <= DEPTH_MAX:
        raise FilterError("corrupt filter: depth %d is outside 1..%d" % (depth, DEPTH_MAX))
    if width < 1 or length != HEADER + 8 * width * depth:
        raise FilterError("corrupt filter: width %d and depth %d do not fill %d bytes"
                          % (width, depth, length))
    if update not in (0, 1):
        raise FilterError("corrupt filter: update %d is not 0 or 1" % update)
    if not 0 < epsilon < 1:
        raise FilterError("corrupt filter: epsilon = %s is not between 0 and 1"
                          % _fmt_real(epsilon))
    if not 0 < delta < 1:
        raise FilterError("corrupt filter: delta = %s is not between 0 and 1" % _fmt_real(delta))
    if total > TOTAL_MAX:
        raise FilterError("corrupt filter: total %d is more than %d" % (total, TOTAL_MAX))
    if fv <= READER_VERSION:
        for i in RESERVED[6]:
            if blob[i]:
                raise FilterError("corrupt filter: reserved byte %d is 0x%02X, not 0"
                                  % (i, blob[i]))
    return Sketch(blob, fv, mrv, 6, khash, width, depth, update, epsilon, delta, total)


def sketch_size(epsilon, delta):
    """Section 4.6, sizing (informative): (w, d); d None past 64 rows."""
    d = max(1, math.ceil(-math.log(delta)))
    return math.ceil(math.e / epsilon), (d if d <= DEPTH_MAX else None)


def columns(f, h1, h2):
    """A key's column in each row: its positions of kind 1 with m = w and k = d."""
    return positions(1, f.width, f.depth, h1, h2)


def estimate_hash(f, h1, h2):
    """Section 4.6, estimate: the least of the key's counters and of the total."""
    counters = f.counters()
    return min([f.total] + [counters[i * f.width + c] for i, c in enumerate(columns(f, h1, h2))])


def estimate(f, value):
    """Section 4.6, estimate: the least of the key's counters."""
    if not isinstance(f, Sketch):
        f = parse(f)
    return estimate_hash(f, *key_hash(value))


def write_sketch(width, depth, update, epsilon, delta, total, counters):
    """A kind-6 sketch as a writer writes it (format version 2, reserved bytes 0)."""
    blob = (MAGIC + bytes([2, 2, 6, 1]) + struct.pack("<QIB3xddQ", width, depth, update, epsilon,
                                                      delta, total)
            + bytes(16) + struct.pack("<%dQ" % len(counters), *counters))
    parse(blob)
    return blob


def empty_sketch(epsilon, delta, update=0):
    width, depth = sketch_size(epsilon, delta)
    return write_sketch(width, depth, update, epsilon, delta, 0, [0] * (width * depth))


def sketch_add(f, value, count=1):
    """Section 4.6, add: FilterFull when the total would pass 2^63 - 1."""
    if not isinstance(f, Sketch):
        f = parse(f)
    if f.total + count > TOTAL_MAX:
        raise FilterFull(value)
    if count == 0:                            # "c = 0 changes nothing"
        return write_sketch(f.width, f.depth, f.update, f.epsilon, f.delta, f.total,
                            f.counters())
    counters = f.counters()
    h1, h2 = key_hash(value)
    cols = columns(f, h1, h2)
    e = estimate_hash(f, h1, h2)
    for i, c in enumerate(cols):
        j = i * f.width + c
        counters[j] = (max(counters[j], e + count) if f.update
                       else min(counters[j] + count, TOTAL_MAX))   # plain: kept at 2^63 - 1
    return write_sketch(f.width, f.depth, f.update, f.epsilon, f.delta, f.total + count,
                        counters)


def build_sketch(epsilon, delta, update, rows):
    """A sketch of (key, count) rows added in order (a None key or count skipped)."""
    blob = empty_sketch(epsilon, delta, update)
    for key, count in rows:
        if key is not None and count is not None:
            blob = sketch_add(blob, key, count)
    return blob


def _sketch_union(a, b):
    if (a.key_hash, a.width, a.depth, a.update) != (b.key_hash, b.width, b.depth, b.update):
        raise ValueError("incompatible filters")
    if a.total + b.total > TOTAL_MAX:
        raise FilterFull("union")
    return write_sketch(a.width, a.depth, a.update, a.epsilon, a.delta, a.total + b.total,
                        [min(x + y, TOTAL_MAX) for x, y in zip(a.counters(), b.counters())])


def _sketch_info(f):
    """Section 4.6, derived figures."""
    return {
        "format_version": f.format_version, "min_reader_version": f.min_reader_version,
        "layout": KINDS[6], "hash": HASHES[f.key_hash], "width": f.width, "depth": f.depth,
        "counter_bits": 64, "update": ("plain", "conservative")[f.update],
        "epsilon": f.epsilon, "delta": f.delta, "bytes": len(f.blob), "total": f.total,
        "error_bound": f.epsilon * float(f.total),
        "counters_nonzero": sum(1 for v in f.counters() if v),
    }


# ---- Section 4.7: the Parquet split-block Bloom filter (kind 7) ---------------------------

@dataclass
class Parquet:
    blob: bytes
    format_version: int
    min_reader_version: int
    kind: int                 # 7
    key_hash: int             # 2
    n: int                    # 0: not known
    p: float                  # 0: not known
    keys_added: int
    blocks: int               # z
    type_length: int          # a FIXED_LEN_BYTE_ARRAY's length; 0: any, or another type
    physical_type: int        # Parquet's Type enum; 0: none yet

    @property
    def body(self):
        return self.blob[HEADER:]


def _check_known_n_p_and_reserved(blob, fv, kind, n, p):
    """Sections 4.7 and 4.9: "n and p both 0, or n >= 1 and 0 < p < 1", with the messages of the
    other kinds' n and p in that order (whether a p of -0.0 is "0" is not in format.md: it
    equals 0, and is read so here); then the reserved bytes of a format version at most ours."""
    if not (n == 0 and p == 0):
        if n < 1:
            raise FilterError("corrupt filter: capacity n = %d" % n)
        if not 0 < p < 1:
            raise FilterError("corrupt filter: p = %s is not between 0 and 1" % _fmt_real(p))
    if fv <= READER_VERSION:
        for i in RESERVED[kind]:
            if blob[i]:
                raise FilterError("corrupt filter: reserved byte %d is 0x%02X, not 0"
                                  % (i, blob[i]))


def _parse_parquet(blob, length, fv, mrv, khash):
    """Section 5, kind 7."""
    n, p, keys = struct.unpack_from("<QdQ", blob, 8)
    z, type_length = struct.unpack_from("<II", blob, 32)
    ptype = blob[40]
    if not 1 <= z <= BLOCKS_MAX:
        raise FilterError("corrupt filter: %d blocks, not 1 to %d" % (z, BLOCKS_MAX))
    if length != HEADER + 32 * z:
        raise FilterError("corrupt filter: %d blocks need %d bytes, the BLOB has %d"
                          % (z, HEADER + 32 * z, length))
    if ptype > 7:
        raise FilterError("corrupt filter: physical type %d, not one of 1 to 7 (INT32 to "
                          "FIXED_LEN_BYTE_ARRAY) or 0" % ptype)
    if ptype != 7 and type_length:
        raise FilterError("corrupt filter: %s values of %d bytes: only FIXED_LEN_BYTE_ARRAY has "
                          "a length" % (PARQUET_TYPES.get(ptype, "untyped"), type_length))
    _check_known_n_p_and_reserved(blob, fv, 7, n, p)
    return Parquet(blob, fv, mrv, 7, khash, n, p, keys, z, type_length, ptype)


def _is_nan(value):
    return isinstance(value, float) and math.isnan(value)


def parquet_plain(ptype, type_length, value):
    """Section 4.7's table of keys: (the physical type, its plain encodings) of a SQL value (int,
    float, str or bytes) as a key of a filter of physical type `ptype` (0: none yet, which takes
    the value's: an INTEGER INT64, a REAL DOUBLE, a TEXT or BLOB BYTE_ARRAY). The encodings are
    both zeros' for a floating-point zero (+0 first), none when no value of the type equals it."""
    if ptype == 0:
        ptype = 2 if isinstance(value, int) else 5 if isinstance(value, float) else 6
    if isinstance(value, bool) or value is None or _is_nan(value):
        return ptype, []                      # NaN is no SQL value (SQLite stores NULL)
    if ptype in (1, 2):                       # INT32, INT64: an integer, in range
        if isinstance(value, float):
            if not (math.isfinite(value) and value.is_integer()):
                return ptype, []
            value = int(value)
        if not isinstance(value, int):
            return ptype, []
        lo, hi, size = (-2**31, 2**32, 4) if ptype == 1 else (-2**63, 2**64, 8)
        if not lo <= value < hi:
            return ptype, []
        return ptype, [(value % 2**(8 * size)).to_bytes(size, "little")]   # its low bits
    if ptype in (4, 5):                       # FLOAT, DOUBLE: a number it holds exactly
        if not isinstance(value, (int, float)):
            return ptype, []
        fmt = "<f" if ptype == 4 else "<d"
        try:
            x = struct.unpack(fmt, struct.pack(fmt, float(value)))[0]
        except OverflowError:                 # beyond the largest binary32
            return ptype, []
        if x != value:                        # Python compares int and float exactly
            return ptype, []
        if x == 0:                            # 4.7: a zero is both zeros' encodings
            return ptype, [struct.pack(fmt, 0.0), struct.pack(fmt, -0.0)]
        return ptype, [struct.pack(fmt, x)]
    if isinstance(value, str):                # INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
        data = value.encode("utf-8")
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
    else:
        return ptype, []
    need = 12 if ptype == 3 else type_length if ptype == 7 else 0
    if need and len(data) != need:
        return ptype, []
    return ptype, [data]


def parquet_hash(data):
    """Key hash 2: XXH64, seed 0, of a plain encoding."""
    return xxhash.xxh64_intdigest(data, seed=0)


def parquet_block(h, z):
    """b = floor((h >> 32) z / 2^32)."""
    return ((h >> 32) * z) >> 32


def parquet_bits(h):
    """The bit of h in each word j = 0 .. 7 of its block: (low32(h) * salt_j mod 2^32) >> 27."""
    x = h & 0xFFFFFFFF
    return [((x * salt) & 0xFFFFFFFF) >> 27 for salt in SALTS]


def _parquet_found(body, z, h):
    words = struct.unpack_from("<8I", body, 32 * parquet_block(h, z))
    return all(w >> bit & 1 for w, bit in zip(words, parquet_bits(h)))


def parquet_probe(f, value):
    """Section 4.7, probe: 0 for a filter with no type or a value that is not one of its type;
    else 1 when the eight bits of its hash (of either zero's) are set. None for NULL."""
    if not isinstance(f, Parquet):
        f = parse(f)
    if value is None or _is_nan(value):
        return None
    if f.physical_type == 0:
        return 0
    _, encodings = parquet_plain(f.physical_type, f.type_length, value)
    return int(any(_parquet_found(f.body, f.blocks, parquet_hash(e)) for e in encodings))


def parquet_refuses(f, value):
    """functions.md's rule 27 (Parquet filters), not format.md: a probe by a key of another SQL
    type than the filter's values fails (a TEXT or BLOB for INT32, INT64, FLOAT and DOUBLE, a
    number for INT96, BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY); never for a filter with no type or a
    NULL key."""
    if not isinstance(f, Parquet):
        f = parse(f)
    if value is None or _is_nan(value) or f.physical_type == 0:
        return False
    is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
    return is_number != (f.physical_type in (1, 2, 4, 5))


def write_parquet(n, p, keys, z, type_length, ptype, body):
    """A kind-7 filter as a writer writes it: format version 2 as both versions, key hash 2,
    reserved bytes 0."""
    blob = (MAGIC + bytes([2, 2, 7, 2]) + struct.pack("<QdQIIB", n, p, keys, z, type_length, ptype)
            + bytes(23) + bytes(body))
    parse(blob)
    return blob


def parquet_add(f, value):
    """Section 4.7, add: KeyRefused for a value that is not a key of the filter's type; else its
    eight bits set (both zeros' for a zero), its type written to a filter that had none, and
    keys added + 1 (kept at 2^64 - 1, as the other kinds keep it: not in format.md for kind 7)."""
    if not isinstance(f, Parquet):
        f = parse(f)
    ptype, encodings = parquet_plain(f.physical_type, f.type_length, value)
    if not encodings:
        raise KeyRefused(value)
    body = bytearray(f.body)
    for e in encodings:
        h = parquet_hash(e)
        at = 32 * parquet_block(h, f.blocks)
        for j, bit in enumerate(parquet_bits(h)):
            body[at + 4 * j + bit // 8] |= 1 << (bit % 8)
    return write_parquet(f.n, f.p, min(f.keys_added + 1, M64), f.blocks, f.type_length, ptype,
                         body)


def _parquet_union(a, b):
    """Section 4.7, union: the same z, and types equal (with equal type lengths) or one of them
    0. The n and p of the first, and keys added kept at 2^64 - 1, as for the other kinds (not in
    format.md for kind 7)."""
    if a.blocks != b.blocks or (a.physical_type and b.physical_type and
                                (a.physical_type, a.type_length) != (b.physical_type,
                                                                     b.type_length)):
        raise ValueError("incompatible filters")
    typed = a if a.physical_type else b
    return write_parquet(a.n, a.p, min(a.keys_added + b.keys_added, M64), a.blocks,
                         typed.type_length, typed.physical_type,
                         bytes(x | y for x, y in zip(a.body, b.body)))


def parquet_rate(load):
    """Section 4.7, sizing: the model rate at `load` keys a block, the sum over j of
    e^-load load^j / j! (1 - (31/32)^j)^8 (every j whose term is not negligible)."""
    if load <= 0:
        return 0.0
    spread = 20 * math.sqrt(load) + 60
    return sum(math.exp(j * math.log(load) - load - math.lgamma(j + 1)) * (1 - (31 / 32) ** j) ** 8
               for j in range(max(0, int(load - spread)), int(load + spread) + 1))


def parquet_size(n, p):
    """Section 4.7, sizing (informative): the fewest blocks whose model rate at n / z keys a
    block is at most p, rounded up to a power of two: the least power of two whose rate is (the
    rate falls as z grows). None past 2^22 blocks."""
    z = 1
    while parquet_rate(n / z) > p:
        z *= 2
        if z > SIZED_BLOCKS_MAX:
            return None
    return z


def empty_parquet(n, p, z=None, ptype=0, type_length=0):
    """An empty filter sized for n keys at p (or of z blocks; n and p 0: not known), of no
    physical type (or `ptype`)."""
    z = z or parquet_size(n, p)
    if z is None:
        raise FilterFull("a 'parquet' filter for n = %d at p = %r" % (n, p))
    return write_parquet(n, p, 0, z, type_length, ptype, bytes(32 * z))


def build_parquet(n, p, keys, z=None, ptype=0, type_length=0):
    """bloom_build(key, n, p, 'parquet') over `keys` in order (None and NaN, SQL NULL, skipped):
    the filter takes its first key's type; KeyRefused by a key of no value of it."""
    f = parse(empty_parquet(n, p, z, ptype, type_length))
    for key in keys:
        if key is not None and not _is_nan(key):
            f = parse(parquet_add(f, key))
    return f.blob


def _parquet_info(f):
    """Section 4.7, derived figures."""
    z = f.blocks
    counts = [[bin(w).count("1") for w in struct.unpack_from("<8I", f.body, 32 * b)]
              for b in range(z)]
    bits_set = sum(sum(c) for c in counts)
    chance = 0.0
    for block in counts:                      # the product of the eight words' shares
        product = 1.0
        for c in block:
            product *= c / 32
        chance += product
    out = {"format_version": f.format_version, "min_reader_version": f.min_reader_version,
           "layout": KINDS[7], "hash": HASHES[f.key_hash],
           "physical_type": PARQUET_TYPES.get(f.physical_type)}
    if f.physical_type == 7:
        out["type_length"] = f.type_length
    out.update({"k": 8, "blocks": z, "bitset_bytes": 32 * z, "bytes": len(f.blob),
                "n": f.n or None, "p": f.p if f.n else None, "keys_added": f.keys_added,
                "bits_set": bits_set, "fill_ratio": bits_set / (256 * z),
                "estimated_fp_rate": chance / z})
    return out


# ---- Section 4.8: the binary fuse filter (kind 8) -----------------------------------------

@dataclass
class Fuse:
    blob: bytes
    format_version: int
    min_reader_version: int
    kind: int                 # 8
    key_hash: int             # 1
    fp_bits: int              # f
    arity: int                # 3
    seg_bits: int             # s: a segment has L = 2^s slots
    segments: int             # S: the segments a key's first slot may lie in
    seed: int
    n: int
    p: float
    keys_added: int           # the distinct keys it holds

    @property
    def seg_len(self):
        return 1 << self.seg_bits             # L

    @property
    def slot_count(self):
        return (self.segments + 2) << self.seg_bits   # A = (S + 2) L

    @property
    def body(self):
        return self.blob[HEADER:]


def _fuse_bytes(slot_count, fp_bits):
    """Section 4.8: the BLOB's length, 64 + ceil(A f / 8)."""
    return HEADER + (slot_count * fp_bits + 7) // 8


def _parse_fuse(blob, length, fv, mrv, khash):
    """Section 4.8's header, checked as section 5's table for kind 8 says, in its order."""
    fp_bits, arity, s = blob[8], blob[9], blob[10]
    segments, = struct.unpack_from("<I", blob, 12)
    seed, n = struct.unpack_from("<QQ", blob, 16)
    p, = struct.unpack_from("<d", blob, 32)
    keys, = struct.unpack_from("<Q", blob, 40)
    if not 1 <= fp_bits <= 32:
        raise FilterError("corrupt filter: fingerprints of %d bits, not 1 to 32" % fp_bits)
    if arity != FUSE_ARITY:
        raise FilterError("corrupt filter: %d slots a key, not %d" % (arity, FUSE_ARITY))
    if s > FUSE_S_MAX:
        raise FilterError("corrupt filter: segments of 2^%d slots, above 2^%d" % (s, FUSE_S_MAX))
    slot_count = (segments + 2) << s
    if segments < 1 or slot_count > FUSE_SLOTS_MAX:
        raise FilterError("corrupt filter: %d segments of 2^%d slots" % (segments, s))
    size = _fuse_bytes(slot_count, fp_bits)
    if length != size:
        raise FilterError("corrupt filter: %d slots of %d-bit fingerprints need %d bytes, the "
                          "BLOB has %d" % (slot_count, fp_bits, size, length))
    if n < 1:
        raise FilterError("corrupt filter: capacity n = %d" % n)
    if not 0 < p < 1:
        raise FilterError("corrupt filter: p = %s is not between 0 and 1" % _fmt_real(p))
    if keys > slot_count:
        raise FilterError("corrupt filter: %d keys in %d slots" % (keys, slot_count))
    if fv <= READER_VERSION:
        for i in RESERVED[8]:
            if blob[i]:
                raise FilterError("corrupt filter: reserved byte %d is 0x%02X, not 0"
                                  % (i, blob[i]))
    return Fuse(blob, fv, mrv, 8, khash, fp_bits, arity, s, segments, seed, n, p, keys)


def fuse_place(fp_bits, seg_bits, segments, seed, h1):
    """Section 4.8: (h, fp, j0, j1, j2) of a key whose hash's low half is h1: its mixed hash,
    fingerprint and three slots."""
    L = 1 << seg_bits
    h = _mix((h1 + seed) & M64)
    fp = (h ^ (h >> 32)) & ((1 << fp_bits) - 1)
    j0 = _reduce(h, segments * L)
    j1 = (j0 + L) ^ ((h >> 18) & (L - 1))
    j2 = (j0 + 2 * L) ^ (h & (L - 1))
    return h, fp, j0, j1, j2


def _fuse_slots_of(h, seg_bits, segments):
    """The three slots of a mixed hash h (section 4.8: they are a function of h alone)."""
    L = 1 << seg_bits
    j0 = _reduce(h, segments * L)
    return j0, (j0 + L) ^ ((h >> 18) & (L - 1)), (j0 + 2 * L) ^ (h & (L - 1))


def fuse_slots(f):
    """Every slot's f-bit value, slot j at index j (the cuckoo filter's packing, 4.4)."""
    fb = f.fp_bits
    bits = format(int.from_bytes(f.body, "little"), "0%db" % (8 * len(f.body)))[::-1]
    return [int(bits[j * fb:(j + 1) * fb][::-1], 2) for j in range(f.slot_count)]


def fuse_probe_hash(f, h1):
    """Section 4.8, probe: 0 when keys = 0; else 1 when slot j0 XOR slot j1 XOR slot j2 = fp."""
    if f.keys_added == 0:
        return 0
    _, fp, j0, j1, j2 = fuse_place(f.fp_bits, f.seg_bits, f.segments, f.seed, h1)
    body, fb = f.body, f.fp_bits
    return int(_slot(body, fb, j0) ^ _slot(body, fb, j1) ^ _slot(body, fb, j2) == fp)


def fuse_size(x, p):
    """Section 4.8, sizing (informative): (f, s, S) for x keys (2 when fewer) at rate p, in
    binary64 as the formulas read (left to right). f is None when no f of 1 to 32 has
    2^-f <= p (what a writer then does is not in format.md)."""
    fp_bits = next((f for f in range(1, 33) if 2.0 ** -f <= p), None)
    x = max(x, 2)
    s = min(FUSE_S_MAX, math.floor(math.log(x) / math.log(3.33) + 2.25))
    c = math.ceil(x * max(1.125, 0.875 + 0.25 * math.log(1e6) / math.log(x)))
    L = 1 << s
    return fp_bits, s, max(1, -(-c // L) - 2)


def fuse_distinct(keys):
    """Section 4.8, build: the keys' h1 (None, SQL NULL, skipped), sorted, repeats dropped."""
    return sorted({key_hash(k)[0] for k in keys if k is not None})


def fuse_peel(h1s, seg_bits, segments, seed):
    """Section 4.8, build, with one seed: the order in which the keys were taken, as (mixed
    hash, slot it was taken from), or None when some key could not be taken."""
    A = (segments + 2) << seg_bits
    count, xor = [0] * A, [0] * A
    for h1 in h1s:
        h = _mix((h1 + seed) & M64)
        for j in _fuse_slots_of(h, seg_bits, segments):
            count[j] += 1
            xor[j] ^= h
    order = []
    for start in range(A):                    # the slots in increasing order, each counted
        if count[start] != 1:                 # once starting a stack, depth first
            continue
        stack = [start]
        while stack:
            j = stack.pop()
            if count[j] != 1:                 # no longer counted once: passed over
                continue
            h = xor[j]
            order.append((h, j))
            for i in _fuse_slots_of(h, seg_bits, segments):
                count[i] -= 1                 # uncounted from its three slots ...
                if i != j:
                    xor[i] ^= h               # ... and XORed out of its two others,
                    if count[i] == 1:         # pushed in the order j0, j1, j2
                        stack.append(i)
    return order if len(order) == len(h1s) else None


def fuse_assign(order, fp_bits, seg_bits, segments):
    """Section 4.8, build: the A slot values, the keys assigned in the reverse of their order."""
    A = (segments + 2) << seg_bits
    table = [0] * A
    mask = (1 << fp_bits) - 1
    for h, j in reversed(order):
        value = (h ^ (h >> 32)) & mask
        for i in _fuse_slots_of(h, seg_bits, segments):
            if i != j:
                value ^= table[i]
        table[j] = value
    return table


def write_fuse(fp_bits, seg_bits, segments, seed, n, p, keys, table):
    """A kind-8 filter from its header fields and its A slots, as this writer writes it
    (format version 2 as both versions, key hash 1, reserved bytes 0, the bits after the last
    slot 0)."""
    header = (MAGIC + bytes([2, 2, 8, 1, fp_bits, FUSE_ARITY, seg_bits, 0])
              + struct.pack("<IQQdQ", segments, seed, n, p, keys) + bytes(16))
    size = _fuse_bytes(len(table), fp_bits) - HEADER
    bits = "".join(format(v, "0%db" % fp_bits)[::-1] for v in table)
    body = int(bits[::-1] or "0", 2).to_bytes(size, "little")
    blob = header + body
    parse(blob)
    return blob


def build_fuse(n, p, keys, sizing=None):
    """bloom_build(key, n, p, 'fuse') over `keys` (None skipped; n None: the distinct keys),
    as section 4.8's build and sizing say: the sizing of `sizing` keys when given (else of the
    distinct keys: which x section 4.8's sizing takes is what this test and the extension
    agree on). FilterFull when no seed of the 64 peels every key."""
    h1s = fuse_distinct(keys)
    fp_bits, seg_bits, segments = fuse_size(len(h1s) if sizing is None else sizing, p)
    if fp_bits is None:
        raise FilterFull("a 'fuse' filter at p = %r" % p)
    if n is None:
        n = len(h1s)
    for t in range(FUSE_SEEDS):
        seed = (t * FUSE_SEED_STEP) & M64
        order = fuse_peel(h1s, seg_bits, segments, seed)
        if order is not None:
            table = fuse_assign(order, fp_bits, seg_bits, segments)
            return write_fuse(fp_bits, seg_bits, segments, seed, n, p, len(h1s), table)
    raise FilterFull("no seed of %d peels these %d keys" % (FUSE_SEEDS, len(h1s)))


def _fuse_info(f):
    """Section 4.8, derived figures."""
    keys = f.keys_added
    return {
        "format_version": f.format_version, "min_reader_version": f.min_reader_version,
        "layout": KINDS[8], "hash": HASHES[f.key_hash], "fingerprint_bits": f.fp_bits,
        "arity": f.arity, "segment_length": f.seg_len, "segments": f.segments,
        "slots": f.slot_count, "seed": f.seed, "bytes": len(f.blob), "n": f.n, "p": f.p,
        "keys_added": keys, "bits_per_key": 8 * len(f.blob) / keys if keys else None,
        "estimated_fp_rate": 2.0 ** -f.fp_bits if keys else 0.0, "over_capacity": keys > f.n,
    }


# ---- Section 4.9: Spark's Bloom filter (kind 9) -------------------------------------------

@dataclass
class Spark:
    blob: bytes
    format_version: int
    min_reader_version: int
    kind: int                 # 9
    key_hash: int             # 3
    n: int                    # 0: not known
    p: float                  # 0: not known
    keys_added: int
    words: int                # W
    k: int
    seed: int                 # Spark's int, signed
    spark_version: int        # 1 or 2

    @property
    def body(self):
        return self.blob[HEADER:]


def _signed32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def _parse_spark(blob, length, fv, mrv, khash):
    """Section 5, kind 9."""
    n, p, keys, words, k, seed = struct.unpack_from("<QdQIII", blob, 8)
    version = blob[44]
    if version not in (1, 2):
        raise FilterError("corrupt filter: Spark version %d, not 1 or 2" % version)
    if not 1 <= k <= 2**31 - 1:
        raise FilterError("corrupt filter: %d hash functions, not 1 to 2147483647"
                          % _signed32(k))
    if not 1 <= words <= 2**31 - 1:
        raise FilterError("corrupt filter: %d words, not 1 to 2147483647" % _signed32(words))
    if k > 64 * words:
        raise FilterError("corrupt filter: %d hash functions for %d bits: more than the bits"
                          % (k, 64 * words))
    if version == 1 and seed:
        raise FilterError("corrupt filter: seed %d in version 1, which has none"
                          % _signed32(seed))
    if length != HEADER + 8 * words:
        raise FilterError("corrupt filter: %d words need %d bytes, the BLOB has %d"
                          % (words, HEADER + 8 * words, length))
    _check_known_n_p_and_reserved(blob, fv, 9, n, p)
    return Spark(blob, fv, mrv, 9, khash, n, p, keys, words, k, _signed32(seed), version)


def _rotl32(x, r):
    return ((x << r) | (x >> (32 - r))) & 0xFFFFFFFF


def _murmur_block(h, w):
    """4.9: a block step of the state h with the word w."""
    w = (_rotl32((w * 0xCC9E2D51) & 0xFFFFFFFF, 15) * 0x1B873593) & 0xFFFFFFFF
    return (_rotl32(h ^ w, 13) * 5 + 0xE6546B64) & 0xFFFFFFFF


def _murmur_final(h, length):
    h ^= length & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


def spark_hash(data, seed):
    """4.9: H of a long (int) or of bytes, with seed; a signed 32-bit int."""
    h = seed & 0xFFFFFFFF
    if isinstance(data, int):
        v = data & M64
        h = _murmur_block(_murmur_block(h, v & 0xFFFFFFFF), v >> 32)
        return _signed32(_murmur_final(h, 8))
    whole = len(data) - len(data) % 4
    for i in range(0, whole, 4):
        h = _murmur_block(h, struct.unpack_from("<I", data, i)[0])
    for b in data[whole:]:                    # Spark's tail: each byte sign-extended
        h = _murmur_block(h, (b - 256 if b >= 128 else b) & 0xFFFFFFFF)
    return _signed32(_murmur_final(h, len(data)))


def spark_key(value):
    """4.9, keys: a long (int) or bytes (a TEXT's UTF-8 bytes, a BLOB's bytes); KeyRefused for a
    REAL (a float), which Spark's put takes no double."""
    if isinstance(value, bool) or isinstance(value, float):
        raise KeyRefused(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def spark_positions(version, k, bits, h1, h2):
    """4.9: the k positions of hashes h1 and h2 (signed ints) among `bits` bits."""
    out = []
    if version == 1:
        for i in range(1, k + 1):
            c = _signed32(h1 + i * h2)
            out.append((~c if c < 0 else c) % bits)
    else:
        c = h1 * (2**31 - 1)
        for _ in range(k):
            c = c + h2
            c = ((c + 2**63) & M64) - 2**63   # 64-bit two's complement, kept
            out.append((~c if c < 0 else c) % bits)
    return out


def _spark_key_positions(f, value):
    key = spark_key(value)
    h1 = spark_hash(key, f.seed)
    return spark_positions(f.spark_version, f.k, 64 * f.words, h1, spark_hash(key, h1))


def spark_probe(f, value):
    """4.9, probe: 1 when the k bits are set; KeyRefused for a REAL."""
    body = f.body
    return int(all(_bit(body, j) for j in _spark_key_positions(f, value)))


def _spark_write(f, body, keys):
    header = bytearray(f.blob[:HEADER])
    struct.pack_into("<Q", header, 24, keys)
    header[4] = header[5] = 3                 # written as this writer writes kind 9
    for i in RESERVED[9]:
        header[i] = 0
    return parse(bytes(header) + bytes(body))


def spark_add(f, value):
    """4.9, add: the k bits set, keys added + 1 (kept at 2^64 - 1)."""
    body = bytearray(f.body)
    for j in _spark_key_positions(f, value):
        body[j // 8] |= 1 << (j % 8)
    return _spark_write(f, body, min(f.keys_added + 1, M64))


def _spark_union(a, b):
    """4.9, union: the same Spark version, W, k and seed; words ORed, keys summed."""
    if (a.spark_version, a.words, a.k, a.seed) != (b.spark_version, b.words, b.k, b.seed):
        raise ValueError("incompatible filters")
    body = bytes(x | y for x, y in zip(a.body, b.body))
    return _spark_write(a, body, min(a.keys_added + b.keys_added, M64))


def _spark_info(f):
    """Section 4.9, derived figures."""
    m = 64 * f.words
    bits_set = sum(bin(b).count("1") for b in f.body)
    return {"format_version": f.format_version, "min_reader_version": f.min_reader_version,
            "layout": KINDS[9], "hash": HASHES[f.key_hash], "spark_version": f.spark_version,
            "seed": f.seed, "k": f.k, "m": m, "words": f.words, "bytes": len(f.blob),
            "n": f.n or None, "p": f.p if f.n else None, "keys_added": f.keys_added,
            "bits_set": bits_set, "fill_ratio": bits_set / m,
            "estimated_fp_rate": (bits_set / m) ** f.k}


def to_spark(f):
    """4.9, Spark's bytes: big-endian head (version, k, the seed in version 2, W), then each
    word big-endian."""
    head = [f.spark_version, f.k] + ([f.seed & 0xFFFFFFFF] if f.spark_version == 2 else []) \
        + [f.words]
    out = b"".join(struct.pack(">I", x) for x in head)
    return out + b"".join(f.body[i:i + 8][::-1] for i in range(0, 8 * f.words, 8))


def from_spark(data):
    """4.9: the filter of Spark's bytes (n, p and keys added 0)."""
    data = bytes(data)
    version, k = struct.unpack_from(">ii", data, 0)
    seed = struct.unpack_from(">I", data, 8)[0] if version == 2 else 0
    head = 16 if version == 2 else 12
    words = struct.unpack_from(">i", data, head - 4)[0]
    if version not in (1, 2) or not 1 <= k <= 64 * words or words < 1 \
            or len(data) != head + 8 * words:
        raise FilterError("not Spark's bytes of one filter")
    header = bytearray(HEADER)
    header[0:8] = MAGIC + bytes([3, 3, 9, 3])
    struct.pack_into("<IIIB", header, 32, words, k, seed, version)
    body = b"".join(data[head + i:head + i + 8][::-1] for i in range(0, 8 * words, 8))
    return parse(bytes(header) + body)
