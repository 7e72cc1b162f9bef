#!/usr/bin/python3
"""Check the independent reader (sqbf.py, written from docs/format.md alone) against the
spec's test vectors, the golden fixtures, and the extension itself, in both directions.

usage: test_reader.py EXTENSION_PATH GOLDEN_DIR FORMAT_MD
"""
import decimal
import json
import math
import os
import random
import re
import sqlite3
import struct
import sys
import time
import unittest

try:
    import xxhash  # noqa: F401  (sqbf needs it)
except ImportError:
    sys.exit("test_reader.py: the Python module xxhash is missing: "
             "apt-get install python3-xxhash")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sqbf  # noqa: E402

EXT = GOLDEN = FORMAT_MD = None
STATS = {"filters": 0, "probes": 0, "false_positives": 0, "infos": 0, "corruptions": 0,
         "vectors": 0, "written": 0, "ties": 0}
NAN = float("nan")
SEED = int(os.environ.get("SQBF_SEED", "0"))   # another seed explores other filters


def connect():
    """A connection with the extension loaded (retrying: it may be being rebuilt)."""
    for attempt in range(30):
        conn = sqlite3.connect(":memory:")
        conn.enable_load_extension(True)
        try:
            conn.load_extension(EXT)
            return conn
        except sqlite3.OperationalError:
            conn.close()
            if attempt == 29:
                raise
            time.sleep(1)


def sql_literal(s):
    """A key as the spec and README write it: 1, 1.0, 'text' or x'hex'."""
    if s[:2] in ("x'", "X'"):
        return bytes.fromhex(s[2:-1])
    if s.startswith("'"):
        return s[1:-1].replace("''", "'")
    return int(s) if re.fullmatch(r"-?\d+", s) else float(s)


def bound(v):
    """The value SQLite stores when Python binds v: a NaN REAL becomes NULL."""
    return None if isinstance(v, float) and math.isnan(v) else v


def ext_error(fn):
    """Run fn(); return None, or the extension's message without its function prefix."""
    try:
        fn()
        return None
    except sqlite3.OperationalError as e:
        msg = str(e)
        return msg.split(": ", 1)[1] if re.match(r"bloom_\w+: ", msg) else msg


def reader_error(blob):
    try:
        sqbf.parse(blob)
        return None
    except sqbf.FilterError as e:
        return str(e)


def compare_info(ext_json, mine):
    """Mismatches between bloom_info's JSON and the reader's figures, as printed (sec. 4)."""
    ext = json.loads(ext_json)
    bad = []
    if set(ext) != set(mine):
        bad.append(("fields", sorted(set(ext) ^ set(mine))))
    for name, want in mine.items():
        got = ext.get(name)
        if name in ("p", "fill_ratio", "estimated_fp_rate", "estimated_keys",
                    "estimated_keys_error"):
            ok = (got is None and want is None) or (
                got is not None and want is not None and float(got) == sqbf.printed(name, want))
            if not ok and got is not None and want is not None and float(got) in ties(name, want):
                ok = True
                STATS["ties"] += 1
        else:
            ok = got == want and type(got) is type(want)
        if not ok:
            bad.append((name, got, want))
    return bad


def ties(name, x):
    """Both printed candidates of x when its exact value lies within 1e-16 (relative) of
    the midpoint between them (15 significant digits, or one decimal), else the correctly
    rounded one. Needed: bloom_info prints through SQLite's printf, which does not round
    ties and near-ties correctly (SQLite 3.40: (49/512)^2 = 0.009159088134765625 prints as
    0.00915908813476563, 0.1404876708984375 as 0.140487670898437, and the double
    0.0083585574738079849999028... as 0.00835855747380799); the spec only says "15
    significant digits". A wider difference still fails."""
    with decimal.localcontext(decimal.Context(prec=60)):
        d = decimal.Decimal(x)
        if name in ("estimated_keys", "estimated_keys_error"):
            q = decimal.Decimal("0.1")
        elif d == 0:
            return {0.0}
        else:
            q = decimal.Decimal(1).scaleb(d.adjusted() - 14)
        lo = d.quantize(q, rounding=decimal.ROUND_DOWN)
        hi = d.quantize(q, rounding=decimal.ROUND_UP)
        if abs(d - (lo + hi) / 2) <= abs(d) * decimal.Decimal("1e-16"):
            return {float(lo), float(hi)}
        return {float(d.quantize(q, rounding=decimal.ROUND_HALF_EVEN))}


def make_pool(rng, size):
    """Keys of every type, shuffled; some repeat or are SQL-equal to others."""
    special = [0, 1, -1, 2, 2.0, -2**63, 2**63 - 1, float(-2**63), 2.0**63, -0.0, 0.0,
               NAN, math.inf, -math.inf, 1e300, -1e300, 5e-324, 0.1, 1.5, 2.0**53 + 2,
               "", "1", "hello", "ünïcödé", "🙂", "a\x00b", "日本語", b"", b"\x00", b"hello",
               b"1", None]
    pool = []
    while len(pool) < size - len(special):
        r = rng.random()
        if r < 0.30:
            pool.append(rng.choice((rng.randrange(-2**63, 2**63), rng.randrange(-1000, 1000),
                                    rng.randrange(2**40))))
        elif r < 0.40:                    # integral REALs: the same keys as INTEGERs
            pool.append(float(rng.randrange(-2**53, 2**53) >> rng.randrange(54)))
        elif r < 0.55:
            pool.append(rng.choice((rng.uniform(-1e6, 1e6), rng.random(),
                                    struct.unpack("<d", rng.randbytes(8))[0])))
        elif r < 0.78:
            alphabet = rng.choice(("abcxyz019 '", "äöüßéñ€", "日本語中文🙂💥", "\x00\x7f\u0800"))
            pool.append("".join(rng.choice(alphabet) for _ in range(rng.randrange(12))))
        elif r < 0.94:
            pool.append(rng.randbytes(rng.randrange(40)))
        elif r < 0.985:                   # a repeat of an earlier key, or its twin type
            v = rng.choice(pool)
            if isinstance(v, int):
                v = float(v) if abs(v) < 2**53 else v
            elif isinstance(v, float) and v.is_integer() and abs(v) < 2**63:
                v = int(v)
            pool.append(v)
        else:
            pool.append(rng.choice((None, NAN)))
    rng.shuffle(pool)
    return special + pool             # the special keys are rows 1 .. len(special)


class Fixture:
    conn = None
    pool = None           # pool[i] is the key of row id i + 1 (as bound: NaN is NULL)
    hashes = None


def fixture():
    if Fixture.conn is None:
        rng = random.Random(SEED + 20240611)
        conn = connect()
        pool = [bound(v) for v in make_pool(rng, 40000)]
        conn.execute("CREATE TABLE pool(id INTEGER PRIMARY KEY, k)")
        conn.executemany("INSERT INTO pool VALUES (?, ?)", enumerate(pool, 1))
        Fixture.conn, Fixture.pool = conn, pool
        Fixture.hashes = [None if v is None else sqbf.key_hash(v) for v in pool]
    return Fixture


def check_filter(tc, blob, first, last, absent, problems):
    """Compare the reader with the extension on one filter holding pool rows first..last,
    probing those and the `absent` rows after them; append problems to a list."""
    fx = fixture()
    f = sqbf.parse(blob)
    STATS["filters"] += 1
    hi = min(last + absent, len(fx.pool))
    rows = fx.conn.execute("SELECT id, bloom_might_contain(?, k) FROM pool "
                           "WHERE id BETWEEN ? AND ?", (blob, first, hi)).fetchall()
    body, present = f.body, None
    for rid, ext in rows:
        key = fx.pool[rid - 1]
        if key is None:
            if ext is not None:
                problems.append(("NULL key probed", rid, ext))
            continue
        pos = sqbf.positions(f.kind, f.m, f.k, *fx.hashes[rid - 1])
        mine = int(all((body[j >> 3] >> (j & 7)) & 1 for j in pos))
        STATS["probes"] += 1
        if mine != ext or (rid <= last and mine != 1):
            problems.append(("probe", f.kind, f.m, f.k, key, mine, ext))
        elif rid > last and mine:
            if present is None:
                present = {sqbf.canonical(v) for v in fx.pool[first - 1:last] if v is not None}
            if sqbf.canonical(key) not in present:
                STATS["false_positives"] += 1
    info = fx.conn.execute("SELECT bloom_info(?)", (blob,)).fetchone()[0]
    STATS["infos"] += 1
    for bad in compare_info(info, sqbf.info(f)):
        problems.append(("info", bad, info))
    return f


class TestCase(unittest.TestCase):
    def no_problems(self, problems):
        if problems:
            self.fail("%d problems:\n  " % len(problems)
                      + "\n  ".join(repr(p) for p in problems[:20]))


class Vectors(TestCase):
    """Section 6: the test-vector table of docs/format.md."""

    def test_vectors(self):
        with open(FORMAT_MD, encoding="utf-8") as fh:
            text = fh.read()
        table = text.split("<!-- test-vectors:begin -->")[1].split("<!-- test-vectors:end -->")[0]
        rows = [[c.strip().strip("`") for c in line.strip().strip("|").split("|")]
                for line in table.strip().splitlines()[2:]]
        self.assertGreaterEqual(len(rows), 9)
        for key, tag, data, h1, h2, pos, bpos in rows:
            with self.subTest(key=key):
                value = sql_literal(key)
                self.assertEqual(sqbf.canonical(value), (int(tag), bytes.fromhex(data)))
                self.assertEqual(sqbf.key_hash(value), (int(h1, 16), int(h2, 16)))
                hh = sqbf.key_hash(value)
                self.assertEqual(sqbf.positions(1, 1024, 7, *hh), [int(x) for x in pos.split()])
                self.assertEqual(sqbf.positions(2, 1024, 6, *hh), [int(x) for x in bpos.split()])
                STATS["vectors"] += 1

    def test_canonical_edges(self):
        """Section 3's table on the edges the extension cannot be asked about (NaN)."""
        c = sqbf.canonical
        self.assertEqual(c(-0.0), c(0))
        self.assertEqual(c(2.0), c(2))
        self.assertEqual(c(float(-2**63)), c(-2**63))
        self.assertEqual(c(2.0**63)[0], 2)
        self.assertEqual(c(NAN), (2, bytes.fromhex("000000000000F87F")))
        self.assertEqual(c(-NAN), c(NAN))
        self.assertEqual(c(struct.unpack("<d", bytes.fromhex("0100000000F0FF7F"))[0]), c(NAN))
        self.assertEqual(c(math.inf), (2, bytes.fromhex("000000000000F07F")))


class Golden(TestCase):
    """tests/golden: two whole filters and the keys README.md says they hold."""

    def load(self, name):
        with open(os.path.join(GOLDEN, name), encoding="utf-8") as fh:
            hexes = [ln for ln in fh if not ln.lstrip().startswith("#")]
        return bytes.fromhex("".join("".join(hexes).split()))

    def readme(self):
        with open(os.path.join(GOLDEN, "README.md"), encoding="utf-8") as fh:
            text = fh.read()
        keys = []
        for m in re.finditer(r"^\| (INTEGER|REAL|TEXT|BLOB) \| (.*) \|$", text, re.M):
            for lit in re.findall(r"`([^`]*)`", re.sub(r"\(.*?\)", "", m.group(2))):
                v = sql_literal(lit)
                keys.append(float(v) if m.group(1) == "REAL" else v)
        return text, keys

    def test_golden(self):
        text, keys = self.readme()
        self.assertEqual(len(keys), 19)
        std = re.search(r"k = (\d+), m = (\d+), n = (\d+), p = ([\d.]+) and (\d+) keys added, "
                        r"and the BLOB\s+is (\d+) bytes", text)
        blk = re.search(r"one (\d+)-bit line, k = (\d+), n = (\d+), p = ([\d.]+), (\d+) keys "
                        r"added, (\d+) bytes", text)
        k, m, n, p, added, size = std.groups()
        want = {"standard_v1.hex": (1, int(k), int(m), int(n), float(p), int(added), int(size)),
                "blocked_v1.hex": (2, int(blk[2]), int(blk[1]), int(blk[3]), float(blk[4]),
                                   int(blk[5]), int(blk[6]))}
        conn = connect()
        for name, (kind, k, m, n, p, added, size) in want.items():
            with self.subTest(name):
                blob = self.load(name)
                f = sqbf.parse(blob)
                self.assertEqual((f.format_version, f.min_reader_version, f.kind, f.key_hash,
                                  f.k, f.m, f.n, f.p, f.keys_added, len(blob)),
                                 (1, 1, kind, 1, k, m, n, p, added, size))
                for key in keys:
                    self.assertEqual(sqbf.might_contain(f, key), 1, key)
                    STATS["probes"] += 1
                # Writing: the reader's own build is byte for byte the fixture...
                self.assertEqual(sqbf.build(kind, m, k, n, p, keys + [None]), blob)
                # ... and so is the extension's.
                sql = "SELECT bloom_build(column1, 20, 0.01%s) FROM (VALUES %s)" % (
                    ", 'blocked'" if kind == 2 else "", ", ".join("(?)" for _ in keys + [0]))
                self.assertEqual(conn.execute(sql, keys + [None]).fetchone()[0], blob)
                STATS["filters"] += 1


class Extension(TestCase):
    """Filters built by the extension, read by the reader: probes and bloom_info agree."""

    def test_random_filters(self):
        fx, rng, problems = fixture(), random.Random(SEED + 7), []
        absent = 60
        for i in range(2600):
            kind = rng.choice((1, 2))
            r = rng.random()
            count = (rng.randrange(0, 40) if r < 0.7 else rng.randrange(40, 600) if r < 0.96
                     else rng.randrange(600, 5000))
            n = rng.choice((count or 1, rng.randrange(1, 5001), max(1, count // 10),
                            rng.randrange(1, 30)))
            p = rng.choice((0.5, 1e-12, 0.01, 10 ** -rng.uniform(0.302, 12), rng.random()))
            p = min(max(p, 1e-12), 0.5)
            first = rng.randrange(1, len(fx.pool) - count - absent)
            if i % 10 == 0:
                first, count = 1, max(count, 40)      # all the special keys of make_pool
            last = first + count - 1
            blocked = ", 'blocked'" if kind == 2 else ""
            mode = rng.random()
            if mode < 0.8:
                sql, args = "SELECT bloom_build(k, ?, ?%s) FROM pool WHERE id BETWEEN ? AND ?", (n, p)
            elif mode < 0.9:                # sized at the end for the distinct keys
                sql, args = "SELECT bloom_build(k, NULL, ?%s) FROM pool WHERE id BETWEEN ? AND ?", (p,)
            else:
                sql, args = ("SELECT bloom_build(k%s) FROM pool WHERE id BETWEEN ? AND ?"
                             if kind == 1 else
                             "SELECT bloom_build(k, NULL, 0.01%s) FROM pool WHERE id BETWEEN ? AND ?"), ()
            blob = fx.conn.execute(sql % blocked, args + (first, last)).fetchone()[0]
            if blob is None:
                self.assertEqual(count, 0)
                continue
            f = check_filter(self, blob, first, last, absent, problems)
            # Writing: the reader, given the stored m and k, writes the same bytes.
            if sqbf.build(f.kind, f.m, f.k, f.n, f.p, fx.pool[first - 1:last]) != blob:
                problems.append(("rebuild differs", kind, first, last))
            self.assertEqual(f.kind, kind)
        self.no_problems(problems)

    def test_add_and_union(self):
        fx, rng, problems = fixture(), random.Random(SEED + 11), []
        for i in range(150):
            kind = rng.choice((1, 2))
            blocked = ", 'blocked'" if kind == 2 else ""
            n, p = rng.randrange(1, 300), 10 ** -rng.uniform(0.302, 12)
            count = rng.randrange(0, 200)
            a = rng.randrange(1, len(fx.pool) - 2 * count - 50)
            build = "SELECT bloom_build(k, ?, ?%s) FROM pool WHERE id BETWEEN ? AND ?" % blocked
            one = fx.conn.execute(build, (n, p, a, a + count)).fetchone()[0]
            # bloom_add, key after key: the same as building over all of them.
            blob, extra = one, rng.randrange(1, 15)
            for rid in range(a + count + 1, a + count + 1 + extra):
                blob = fx.conn.execute("SELECT bloom_add(?, k) FROM pool WHERE id = ?",
                                       (blob, rid)).fetchone()[0]
            f = check_filter(self, blob, a, a + count + extra, 40, problems)
            if sqbf.build(kind, f.m, f.k, n, p, fx.pool[a - 1:a + count + extra]) != blob:
                problems.append(("bloom_add differs from a build", kind, a, count, extra))
            # bloom_union: OR of the bits, keys added summed, n and p of the first (sec. 4).
            b = a + count + 1
            two = fx.conn.execute(build, (n, p, b, b + count)).fetchone()[0]
            u = fx.conn.execute("SELECT bloom_union(?, ?)", (one, two)).fetchone()[0]
            f1, f2, fu = sqbf.parse(one), sqbf.parse(two), sqbf.parse(u)
            want = (one[:40] + struct.pack("<Q", f1.keys_added + f2.keys_added) + one[48:64]
                    + bytes(x | y for x, y in zip(f1.body, f2.body)))
            if u != want:
                problems.append(("bloom_union", kind, a, count))
            check_filter(self, u, a, b + count, 40, problems)
            agg = fx.conn.execute("SELECT bloom_union(f) FROM (SELECT ? AS f UNION ALL "
                                  "SELECT ? UNION ALL SELECT ?)", (one, two, blob)).fetchone()[0]
            check_filter(self, agg, a, max(b + count, a + count + extra), 40, problems)
        self.no_problems(problems)


class Written(TestCase):
    """Filters written by the reader, read by the extension."""

    def test_written_filters(self):
        fx, rng, problems = fixture(), random.Random(SEED + 5), []
        cases = [(1, 64, 44, 1, 5e-324, 3), (1, 64, 1, 2**64 - 1, 0.9999999999999999, 200),
                 (2, 512, 64, 7, 0.5, 30), (2, 512, 1, 1, 1e-300, 0), (1, 640, 13, 3, 0.3, 1)]
        for _ in range(300):
            kind = rng.choice((1, 2))
            seg = 64 if kind == 1 else 512
            cases.append((kind, seg * rng.choice((1, 2, 3, rng.randrange(1, 400))),
                          rng.randrange(1, 65), rng.randrange(1, 10**6), rng.random() or 0.5,
                          rng.randrange(0, 500)))
        for kind, m, k, n, p, count in cases:
            first = rng.randrange(1, len(fx.pool) - count - 50)
            blob = sqbf.build(kind, m, k, n, p, fx.pool[first - 1:first - 1 + count])
            STATS["written"] += 1
            check_filter(self, blob, first, first + count - 1, 50, problems)
        # keys added is kept at 2^64 - 1 by a union that overflows it (section 4).
        big = sqbf.build(1, 128, 3, 5, 0.1, [1, 2], keys_added=2**64 - 2)
        small = sqbf.build(1, 128, 3, 9, 0.2, ["a", "b", "c"])
        u = fx.conn.execute("SELECT bloom_union(?, ?)", (big, small)).fetchone()[0]
        self.assertEqual(u, sqbf.build(1, 128, 3, 5, 0.1, [1, 2, "a", "b", "c"],
                                       keys_added=2**64 - 1))
        self.no_problems(problems)

    def test_standard_64_bits_high_k(self):
        """Section 4, estimated_keys_error, kind 1 with m = 64 and k >= 45, where
        u = 1 - (1 - 1/64)^k >= 1/2: d3 = ln(1 - 2u) - ... is undefined, but its term is
        multiplied by m (m - b) = 0. The reader leaves the term out (see sqbf.info)."""
        conn, problems = connect(), []
        for k in (44, 45, 64):
            for keys in ([1], [1, 2, 3]):
                blob = sqbf.build(1, 64, k, 1, 0.5, keys)
                info = conn.execute("SELECT bloom_info(?)", (blob,)).fetchone()[0]
                problems += [("k = %d, keys %r" % (k, keys), bad, info)
                             for bad in compare_info(info, sqbf.info(blob))]
        conn.close()
        self.no_problems(problems)

    def test_error_cancellation(self):
        """Section 4, estimated_keys_error: Var(X) is a difference of terms near +-326 that
        leaves 0.249 (blocked, m = 148992, k = 2, X = 164 set bits, wherever they are).
        Evaluated literally with log and exp the error is 0.2499 and prints 0.2; with
        log1p and expm1 (as sqbf does) 0.2500, printed 0.3 like bloom_info."""
        conn = connect()
        blob = bytearray(sqbf.build(2, 148992, 2, 1, 0.5, []))
        for j in range(164):
            blob[64 + j // 8] |= 1 << (j % 8)
        info = conn.execute("SELECT bloom_info(?)", (bytes(blob),)).fetchone()[0]
        conn.close()
        self.assertEqual(compare_info(info, sqbf.info(bytes(blob))), [])

    def test_newer_writer(self):
        """Section 2: a newer format version that version-1 readers may read: reserved
        bytes are then ignored, and a rewrite is written as version 1, reserved bytes 0."""
        conn = connect()
        base = sqbf.build(1, 192, 7, 20, 0.01, [1, "x", b"y"])
        for fv in (2, 7, 255):
            blob = bytearray(base)
            blob[4] = fv
            for i in sqbf.RESERVED:
                blob[i] = 0xA5
            blob = bytes(blob)
            f = sqbf.parse(blob)
            self.assertEqual(f.format_version, fv)
            for key in (1, "x", b"y", 2, "z"):
                self.assertEqual(conn.execute("SELECT bloom_might_contain(?, ?)", (blob, key))
                                 .fetchone()[0], sqbf.might_contain(f, key))
            self.assertEqual(compare_info(conn.execute("SELECT bloom_info(?)", (blob,))
                                          .fetchone()[0], sqbf.info(f)), [])
            added = conn.execute("SELECT bloom_add(?, 'z')", (blob,)).fetchone()[0]
            self.assertEqual(added, sqbf.build(1, 192, 7, 20, 0.01, [1, "x", b"y", "z"]))


def corruptions(rng):
    """BLOBs that hit every check of section 5, then random header damage."""
    std = sqbf.build(1, 192, 7, 20, 0.01, [1, 2, 3])
    blk = sqbf.build(2, 1024, 6, 20, 0.01, [1, 2, 3])

    def at(blob, off, fmt, value):
        b = bytearray(blob)
        struct.pack_into(fmt, b, off, value)
        return bytes(b)

    out = [b"", b"SQBF", std[:63], b"\x00" * 64,
           b"sQBF" + std[4:], b"SQBf" + std[4:], b"\xff\xfe\xab\xcd" + std[4:]]
    for base in (std, blk):
        for fv in (0, 1, 2, 3, 255):
            for mrv in (0, 1, 2, 3, 255):
                out.append(base[:4] + bytes([fv, mrv]) + base[6:])
        for kind in (0, 1, 2, 3, 9, 255):
            out.append(base[:6] + bytes([kind]) + base[7:])
            out.append(base[:5] + bytes([2, kind]) + base[7:])      # newer: refused first
        for h in (0, 2, 9, 255):
            out.append(base[:7] + bytes([h]) + base[8:])
        for k in (0, 64, 65, 255, 2**32 - 1):
            out.append(at(base, 8, "<I", k))
        for m in (0, 1, 63, 64, 193, 511, 512, 576, 1024, 2048, 2**63, 2**64 - 64, 2**64 - 1):
            out.append(at(base, 16, "<Q", m))
        out += [base + b"\x00", base[:-1], base + bytes(64)]
        for n in (0, 1, 2**64 - 1):
            out.append(at(base, 24, "<Q", n))
        for p in (0.0, -0.0, 1.0, -0.01, 1.5, 1.0000000000000002, 1.2345678901234567,
                  5e-324, 0.9999999999999999, -123456789.0, 1e300, 2.5e-308):
            out.append(at(base, 32, "<d", p))
        for i in sqbf.RESERVED:
            for v in (0x01, 0x0A, 0xAB, 0xFF):
                out.append(base[:i] + bytes([v]) + base[i + 1:])
        out.append(at(at(base, 8, "<I", 65), 16, "<Q", 193))             # first check wins
        out.append(at(at(base, 24, "<Q", 0), 12, "<I", 1))
    for _ in range(3000):                                                # random damage
        b = bytearray(rng.choice((std, blk)))
        for _ in range(rng.randrange(1, 4)):
            i = rng.choice((4, 5, 6, 7, 8, 11, 12, 16, 17, 18, 23, 24, 32, 38, 39, 40, 48, 63))
            b[i] = rng.choice((0, 1, 2, 3, 0x40, 0xFF, rng.randrange(256)))
        if len(b) >= 40 and not math.isfinite(struct.unpack_from("<d", b, 32)[0]):
            b[38] = 0                  # NaN and infinite p: test_nonfinite_p
        if rng.random() < 0.1:
            b = b[:rng.randrange(len(b) + 1)] if rng.random() < 0.5 else b + b"\x00"
        out.append(bytes(b))
    return out


class Validation(TestCase):
    """Section 5: the reader's message is the extension's, for every check."""

    def test_messages(self):
        conn, problems = connect(), []
        for blob in corruptions(random.Random(SEED + 3)):
            mine = reader_error(blob)
            for fn in ("bloom_might_contain(?, 1)", "bloom_info(?)"):
                ext = ext_error(lambda: conn.execute("SELECT " + fn, (blob,)).fetchone())
                if mine != ext:
                    problems.append((fn, blob if not isinstance(blob, bytes) or len(blob) <= 8
                                     else blob[:64].hex(), mine, ext))
            STATS["corruptions"] += 1
        self.no_problems(problems)

    def test_sql_arguments(self):
        """Section 5's closing note: through SQL, a NULL filter gives NULL and a value that is
        not a BLOB is refused before the format's checks (functions.md's rules, not the
        reader's business)."""
        conn = connect()
        self.assertIsNone(conn.execute("SELECT bloom_might_contain(NULL, 1)").fetchone()[0])
        for value in ("text", 5, 1.5):
            ext = ext_error(lambda: conn.execute("SELECT bloom_might_contain(?, 1)",
                                                 (value,)).fetchone())
            self.assertTrue(ext is not None and ext.startswith("the filter must be a BLOB, got "),
                            ext)
        conn.close()

    def test_nonfinite_p(self):
        """Section 5, `p = -0.01 is not between 0 and 1`, for a NaN or infinite p: spelled
        NaN, Inf and -Inf."""
        conn, problems = connect(), []
        for kind, m in ((1, 192), (2, 512)):
            for p in (NAN, -NAN, math.inf, -math.inf):
                blob = bytearray(sqbf.build(kind, m, 3, 20, 0.01, [1]))
                struct.pack_into("<d", blob, 32, p)
                mine = reader_error(bytes(blob))
                ext = ext_error(lambda: conn.execute("SELECT bloom_might_contain(?, 1)",
                                                     (bytes(blob),)).fetchone())
                if mine != ext:
                    problems.append((bytes(blob[32:40]).hex(), mine, ext))
        conn.close()
        self.no_problems(problems)


def main():
    global EXT, GOLDEN, FORMAT_MD
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    EXT, GOLDEN, FORMAT_MD = sys.argv[1:]
    start = time.time()
    result = unittest.main(argv=sys.argv[:1], exit=False, verbosity=2).result
    print("reader: %(filters)d filters, %(probes)d probes compared, %(false_positives)d false "
          "positives agreed, %(infos)d bloom_info compared, %(corruptions)d corrupt BLOBs, "
          "%(written)d filters written by the reader, %(vectors)d test vectors, %(ties)d printed ties" % STATS
          + ", %.1f s" % (time.time() - start))
    sys.exit(not result.wasSuccessful())


if __name__ == "__main__":
    main()
