"""An independent reader and writer of sqlite-bloom filter BLOBs ("SQBF").

Written from docs/format.md alone (format version 1), without reading the extension's
source: it exists to show that the specification is enough. Section numbers below are
those of docs/format.md. Standard library plus the `xxhash` module (python3-xxhash).
"""
import math
import struct
from dataclasses import dataclass

import xxhash

MAGIC = b"SQBF"                       # section 1
HEADER = 64                           # section 1: 64-byte header, then the body
READER_VERSION = 1                    # section 2: the newest format version this reads
KINDS = {1: "standard", 2: "blocked"}  # section 1, kinds table (names as bloom_info spells them)
HASHES = {1: "xxh3-128"}              # section 1, key hashes table
SEGMENT = {1: 64, 2: 512}             # section 4: m is a multiple of 64 (kind 1) or 512 (kind 2)
RESERVED = list(range(12, 16)) + list(range(48, 64))  # section 4: reserved header bytes
M64 = (1 << 64) - 1


class FilterError(ValueError):
    """A BLOB that fails a check of section 5; str() is the spec's message."""


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
    """Validate a filter (bytes) in the order of section 5 (header only) and decode it."""
    blob = bytes(blob)
    if len(blob) < HEADER:
        raise FilterError("not a Bloom filter: length %d is shorter than the 64-byte header"
                          % len(blob))
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
    if kind not in KINDS:
        raise FilterError("corrupt filter: unknown kind %d" % kind)
    if khash not in HASHES:
        raise FilterError("corrupt filter: unknown hash %d" % khash)
    # Section 4: the header shared by kinds 1 and 2.
    k, = struct.unpack_from("<I", blob, 8)
    m, n = struct.unpack_from("<QQ", blob, 16)
    p, = struct.unpack_from("<d", blob, 32)
    keys_added, = struct.unpack_from("<Q", blob, 40)
    if not 1 <= k <= 64:
        raise FilterError("corrupt filter: k = %d is outside 1..64" % k)
    seg = SEGMENT[kind]
    if m == 0 or m % seg:
        raise FilterError("corrupt filter: m = %d bits is not a positive multiple of %d"
                          % (m, seg))
    if len(blob) != HEADER + m // 8:
        raise FilterError("corrupt filter: m = %d bits needs %d bytes, the BLOB has %d"
                          % (m, HEADER + m // 8, len(blob)))
    if n < 1:
        raise FilterError("corrupt filter: capacity n = %d" % n)
    if not 0 < p < 1:                         # also refuses NaN
        raise FilterError("corrupt filter: p = %s is not between 0 and 1" % _fmt_real(p))
    if fv <= READER_VERSION:                  # section 2, "Reserved bytes"
        for i in RESERVED:
            if blob[i]:
                raise FilterError("corrupt filter: reserved byte %d is 0x%02X, not 0"
                                  % (i, blob[i]))
    return Filter(blob, fv, mrv, kind, khash, k, m, n, p, keys_added)


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


# ---- Section 4.1/4.2: positions --------------------------------------------------------

def _mix(z):
    """The splitmix64 finalizer (section 4, kind 1)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def positions(kind, m, k, h1, h2):
    if kind == 1:
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


def might_contain(f, value):
    """1 ("possibly present") when all k bits of the key are set, else 0."""
    if not isinstance(f, Filter):
        f = parse(f)
    if value is None:
        return None  # NULL is never a key (section 3); through SQL it answers NULL
    body = f.body
    pos = positions(f.kind, f.m, f.k, *key_hash(value))
    return int(all(_bit(body, j) for j in pos))


# ---- Section 4: derived figures (what bloom_info reports) ------------------------------

def info(f):
    """bloom_info's fields: the header (section 4's table) and the derived figures."""
    if not isinstance(f, Filter):
        f = parse(f)
    m, k, body = f.m, f.k, f.body
    b = m if f.kind == 1 else 512             # bits per segment
    L = m // b                                # segments
    seg_bytes = b // 8
    counts = [int.from_bytes(body[i * seg_bytes:(i + 1) * seg_bytes], "little").bit_count()
              for i in range(L)]
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
    return {
        "format_version": f.format_version, "min_reader_version": f.min_reader_version,
        "layout": KINDS[f.kind], "hash": HASHES[f.key_hash], "k": k, "m": m,
        "bytes": len(f.blob), "n": f.n, "p": f.p, "keys_added": f.keys_added,
        "bits_set": X, "fill_ratio": X / m, "estimated_keys": est,
        "estimated_keys_error": err, "estimated_fp_rate": fp, "over_capacity": over,
    }


def printed(name, value):
    """A derived REAL as bloom_info prints it (last paragraph of section 4), as a float."""
    if value is None:
        return None
    if name in ("estimated_keys", "estimated_keys_error"):
        return float("%.1f" % value)
    return float("%.15g" % value)


# ---- Writing (sections 1, 2 and 4) --------------------------------------------------------

def build(kind, m, k, n, p, keys, keys_added=None):
    """Write a version-1 filter of the given kind and size holding `keys` (None skipped)."""
    bits = bytearray(m // 8)
    count = 0
    for key in keys:
        if key is None:
            continue
        count += 1
        for j in positions(kind, m, k, *key_hash(key)):
            bits[j >> 3] |= 1 << (j & 7)
    if keys_added is None:
        keys_added = count
    header = (MAGIC + bytes([1, 1, kind, 1]) + struct.pack("<II", k, 0)
              + struct.pack("<QQdQ", m, n, p, keys_added) + bytes(16))
    blob = header + bytes(bits)
    parse(blob)                               # what we write must pass our own checks
    return blob
