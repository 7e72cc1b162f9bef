"""sqlite-bloom from Python's sqlite3 module, standard library only.

Run with Debian's /usr/bin/python3, whose sqlite3 module can load extensions:

    /usr/bin/python3 tests/clients/test_python.py build/bloom.so
    BLOOM_EXTENSION=build/bloom.so /usr/bin/python3 tests/clients/test_python.py -v
"""

import json
import os
import sqlite3
import sys
import tempfile
import unittest

EXTENSION = os.environ.get("BLOOM_EXTENSION")
if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
    EXTENSION = sys.argv.pop(1)

KEYS = [f"user{i}@example.com" for i in range(10_000)]
ABSENT = [f"visitor{i}@example.org" for i in range(100_000)]


def connect(database=":memory:"):
    conn = sqlite3.connect(database)
    conn.enable_load_extension(True)
    conn.load_extension(EXTENSION)
    conn.enable_load_extension(False)
    return conn


def build(conn, keys, n=10_000, p=0.01):
    """Builds a filter of keys in SQL and returns it to Python as bytes."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS k(key)")
    conn.execute("DELETE FROM k")
    conn.executemany("INSERT INTO k VALUES (?)", [(key,) for key in keys])
    return conn.execute("SELECT bloom_build(key, ?, ?) FROM k", (n, p)).fetchone()[0]


class PythonClient(unittest.TestCase):
    def setUp(self):
        self.conn = connect()
        self.addCleanup(self.conn.close)

    def probe(self, bloom_filter, key):
        """One probe from Python, the filter bound as a parameter."""
        sql = "SELECT bloom_might_contain(?, ?)"
        return self.conn.execute(sql, (bloom_filter, key)).fetchone()[0]

    def test_version(self):
        (version,) = self.conn.execute("SELECT bloom_version()").fetchone()
        self.assertRegex(version, r"^\d+\.\d+\.\d+$")

    def test_loading_again_while_a_cursor_is_open(self):
        """Rule 16 (loading): a second load succeeds while a cursor is part-way through."""
        cursor = self.conn.execute(
            "SELECT bloom_version() FROM (SELECT 1 UNION ALL SELECT 2)")
        self.assertIsNotNone(cursor.fetchone())
        self.conn.enable_load_extension(True)
        self.conn.load_extension(EXTENSION)
        self.conn.enable_load_extension(False)
        self.assertIsNotNone(cursor.fetchone())
        self.assertEqual(self.probe(build(self.conn, KEYS[:10], n=10), KEYS[0]), 1)

    def test_build_and_probe_from_python(self):
        bloom_filter = build(self.conn, KEYS)
        self.assertIsInstance(bloom_filter, bytes)
        self.assertEqual(bloom_filter[:4], b"SQBF")
        self.assertEqual(len(bloom_filter), 12_048)
        self.assertTrue(all(self.probe(bloom_filter, key) == 1 for key in KEYS))
        false_positives = sum(self.probe(bloom_filter, key) for key in ABSENT)
        # 1 % of 100,000 is 1,000, give or take 31 (one standard deviation).
        self.assertGreater(false_positives, 850)
        self.assertLess(false_positives, 1150)

    def test_python_types_are_sql_types(self):
        bloom_filter = build(self.conn, [42, "abc", b"\x00\x01", 1.5])
        self.assertEqual(self.probe(bloom_filter, 42), 1)
        self.assertEqual(self.probe(bloom_filter, 42.0), 1)  # 42 = 42.0 in SQL
        self.assertEqual(self.probe(bloom_filter, "42"), 0)  # TEXT is not INTEGER
        self.assertEqual(self.probe(bloom_filter, "abc"), 1)
        self.assertEqual(self.probe(bloom_filter, b"abc"), 0)  # BLOB is not TEXT
        self.assertEqual(self.probe(bloom_filter, b"\x00\x01"), 1)
        self.assertEqual(self.probe(bloom_filter, 1.5), 1)
        self.assertIsNone(self.probe(bloom_filter, None))
        with self.assertRaisesRegex(sqlite3.OperationalError, "the filter is NULL"):
            self.probe(None, 42)  # None is NULL: no filter, an error rather than no answer

    def test_probe_a_table_with_a_bound_filter(self):
        bloom_filter = build(self.conn, KEYS)
        self.conn.execute("CREATE TABLE emails(email TEXT)")
        self.conn.executemany("INSERT INTO emails VALUES (?)", [(k,) for k in KEYS[:5000]])
        sql = "SELECT count(*) FROM emails WHERE bloom_might_contain(?, email)"
        self.assertEqual(self.conn.execute(sql, (bloom_filter,)).fetchone()[0], 5000)

    def test_info_is_json(self):
        info = json.loads(
            self.conn.execute("SELECT bloom_info(?)", (build(self.conn, KEYS),)).fetchone()[0]
        )
        self.assertEqual(info["layout"], "standard")
        self.assertEqual((info["k"], info["m"], info["bytes"]), (7, 95_872, 12_048))
        self.assertEqual((info["n"], info["p"], info["keys_added"]), (10_000, 0.01, 10_000))
        self.assertAlmostEqual(info["estimated_keys"], 10_000, delta=4 * info["estimated_keys_error"])
        self.assertFalse(info["over_capacity"])

    def test_union_of_halves_is_the_whole(self):
        whole = build(self.conn, KEYS)
        first, second = build(self.conn, KEYS[:5000]), build(self.conn, KEYS[5000:])
        union = self.conn.execute("SELECT bloom_union(?, ?)", (first, second)).fetchone()[0]
        self.assertEqual(union, whole)
        self.conn.execute("CREATE TABLE parts(f BLOB)")
        self.conn.executemany("INSERT INTO parts VALUES (?)", [(first,), (second,), (None,)])
        aggregate = self.conn.execute("SELECT bloom_union(f) FROM parts").fetchone()[0]
        self.assertEqual(aggregate, whole)

    def test_add(self):
        empty = self.conn.execute("SELECT bloom_build(NULL, 100, 0.01)").fetchone()[0]
        added = self.conn.execute("SELECT bloom_add(?, ?)", (empty, "x")).fetchone()[0]
        self.assertEqual((self.probe(empty, "x"), self.probe(added, "x")), (0, 1))
        self.assertEqual(added, build(self.conn, ["x"], n=100))

    def test_errors_are_operational_errors(self):
        cases = [
            ("SELECT bloom_build(1, 0, 0.01)", (),
             "bloom_build: n must be a whole number >= 1 or NULL, got 0"),
            ("SELECT bloom_build(1, 10, ?)", (1.5,),
             "bloom_build: p must be between 0 and 1 (exclusive), got 1.5; "
             "p is a fraction: 1.5 % is 0.015"),
            ("SELECT bloom_might_contain(?, 1)", ("oops",),
             "bloom_might_contain: the filter must be a BLOB, got 'oops'"),
            ("SELECT bloom_might_contain(?, 1)", (b"\x00",),
             "bloom_might_contain: not a Bloom filter: length 1 is shorter than the 64-byte header"),
            ("SELECT bloom_union(bloom_build(1, 1000, 0.01), bloom_build(1, 2000, 0.01))", (),
             "bloom_union: incompatible filters: one built for n = 1000 at p = 0.01 (9600 bits, "
             "k = 7), the other for n = 2000 at p = 0.01 (19200 bits, k = 7); build both with "
             "the same n, p and kind"),
        ]
        for sql, parameters, message in cases:
            with self.subTest(sql=sql):
                with self.assertRaises(sqlite3.OperationalError) as caught:
                    self.conn.execute(sql, parameters).fetchall()
                self.assertEqual(str(caught.exception), message)

    def test_stored_in_a_file_and_probed_after_reopening(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "filters.db")
            with connect(path) as conn:
                conn.execute("CREATE TABLE filters(name TEXT PRIMARY KEY, filter BLOB)")
                conn.execute("INSERT INTO filters VALUES ('users', ?)", (build(conn, KEYS),))
            conn.close()

            conn = sqlite3.connect(path)
            self.addCleanup(conn.close)
            sql = "SELECT bloom_might_contain(filter, ?) FROM filters WHERE name = 'users'"
            # Extensions belong to a connection: a new one must load it again.
            with self.assertRaisesRegex(sqlite3.OperationalError, "no such function"):
                conn.execute(sql, (KEYS[7],))
            conn.enable_load_extension(True)
            conn.load_extension(EXTENSION)
            self.assertEqual(conn.execute(sql, (KEYS[7],)).fetchone()[0], 1)
            self.assertEqual(conn.execute(sql, ("eve@example.com",)).fetchone()[0], 0)
            (stored,) = conn.execute("SELECT filter FROM filters").fetchone()
            self.assertEqual(stored, build(self.conn, KEYS))


if __name__ == "__main__":
    if not EXTENSION:
        sys.exit("usage: test_python.py PATH_TO_BLOOM_SO [unittest options], "
                 "or set BLOOM_EXTENSION")
    if not hasattr(sqlite3.Connection, "enable_load_extension"):
        sys.exit(f"{sys.executable}: this sqlite3 module was built without extension "
                 "loading; use Debian's /usr/bin/python3")
    print(f"SQLite {sqlite3.sqlite_version}, extension {EXTENSION}", file=sys.stderr)
    unittest.main()
