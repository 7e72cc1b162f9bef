"""The sqlite-bloom wheel as pip installed it into a virtual environment (run.sh): its version,
its bloom.so, load(conn) on a sqlite3 connection, on a connection of another kind, and on one
that cannot load extensions at all, and the README's examples of it (```python package blocks);
on a machine its library is not built for, and the wheels of the other platforms.
BLOOM_EXPECTED_VERSION is CMake's project version, BLOOM_README the README's path,
BLOOM_OTHER_WHEELS the paths of the other platforms' wheels (os.pathsep between them)."""
import contextlib
import io
import os
import re
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import unittest
from unittest import mock

import sqlite_bloom

EXPECTED_VERSION = os.environ["BLOOM_EXPECTED_VERSION"]
KEYS = [f"user{i}@example.com" for i in range(1000)]
ABSENT = [f"visitor{i}@example.org" for i in range(10000)]


class InstalledPackage(unittest.TestCase):
    def test_installed_in_the_virtual_environment(self):
        self.assertNotEqual(sys.prefix, sys.base_prefix, "not run in a virtual environment")
        site_packages = os.path.realpath(sysconfig.get_paths()["platlib"])
        self.assertEqual(os.path.commonpath([site_packages, os.path.realpath(sqlite_bloom.__file__)]),
                         site_packages)

    def test_version_is_the_projects(self):
        self.assertEqual(sqlite_bloom.__version__, EXPECTED_VERSION)

    def test_loadable_path_is_the_bloom_so_inside_the_package(self):
        path = sqlite_bloom.loadable_path()
        self.assertTrue(os.path.isabs(path))
        self.assertTrue(os.path.isfile(path), path)
        self.assertEqual(os.path.dirname(path), os.path.dirname(os.path.abspath(sqlite_bloom.__file__)))
        self.assertEqual(os.path.basename(path), "bloom.so")


class OtherPlatforms(unittest.TestCase):
    def test_on_a_machine_it_is_not_built_for_load_says_so(self):
        conn = sqlite3.connect(":memory:")
        self.addCleanup(conn.close)
        here = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        expected = ("sqlite_bloom: this package's bloom.so is built for " + here + ", and this "
                    "machine is macosx_14_0_arm64. Install the wheel tagged macosx_14_0_arm64 (a "
                    "release has linux_x86_64, linux_aarch64 and win_amd64), or build the extension "
                    "from source for this machine and load it by its path (docs/install.md of "
                    "sqlite-bloom)")
        with mock.patch("sysconfig.get_platform", return_value="macosx-14.0-arm64"):
            for call in (sqlite_bloom.loadable_path, lambda: sqlite_bloom.load(conn)):
                with self.assertRaises(sqlite_bloom.PlatformUnsupported) as raised:
                    call()
                self.assertEqual(str(raised.exception), expected)
        with self.assertRaisesRegex(sqlite3.OperationalError, "no such function: bloom_version"):
            conn.execute("SELECT bloom_version()")

    def test_each_other_wheel_holds_its_platforms_library_and_refuses_this_machine(self):
        wheels = [w for w in os.environ.get("BLOOM_OTHER_WHEELS", "").split(os.pathsep) if w]
        magic = {"linux_aarch64": ("bloom.so", b"\x7fELF", 18, b"\xb7\x00"),
                 "win_amd64": ("bloom.dll", b"MZ", None, b"\x64\x86")}
        for wheel in wheels:
            platform = re.fullmatch(r"sqlite_bloom-[^-]+-py3-none-(\w+)\.whl", os.path.basename(wheel))[1]
            with self.subTest(platform=platform), tempfile.TemporaryDirectory() as target:
                subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-index",
                                "--no-deps", "--disable-pip-version-check", "--only-binary=:all:",
                                "--platform", platform, "--target", target, wheel], check=True)
                library, start, machine_at, machine = magic[platform]
                with open(os.path.join(target, "sqlite_bloom", library), "rb") as f:
                    data = f.read()
                self.assertEqual(data[:len(start)], start)
                if machine_at is None:  # PE: the COFF machine after the 'PE\0\0' at e_lfanew
                    machine_at = int.from_bytes(data[60:64], "little") + 4
                self.assertEqual(data[machine_at:machine_at + 2], machine)
                probe = ("import sqlite3, sqlite_bloom\n"
                         "try:\n    sqlite_bloom.load(sqlite3.connect(':memory:'))\n"
                         "except sqlite_bloom.PlatformUnsupported as e:\n    print(e)\n")
                out = subprocess.run([sys.executable, "-c", probe], check=True, text=True,
                                     capture_output=True, env={**os.environ, "PYTHONPATH": target})
                self.assertIn(f"this package's {library} is built for {platform}, and this machine "
                              f"is {sysconfig.get_platform().replace('-', '_')}", out.stdout)


class LoadIntoSqlite3(unittest.TestCase):
    def setUp(self):
        self.conn = sqlite3.connect(":memory:")
        self.addCleanup(self.conn.close)

    def test_load_then_build_and_probe(self):
        sqlite_bloom.load(self.conn)
        self.assertEqual(self.conn.execute("SELECT bloom_version()").fetchone()[0], EXPECTED_VERSION)
        self.conn.execute("CREATE TABLE users(email TEXT)")
        self.conn.executemany("INSERT INTO users VALUES (?)", [(key,) for key in KEYS])
        users = self.conn.execute("SELECT bloom_build(email, 1000, 0.01) FROM users").fetchone()[0]
        self.assertIsInstance(users, bytes)
        probe = "SELECT bloom_might_contain(?, ?)"
        self.assertTrue(all(self.conn.execute(probe, (users, key)).fetchone()[0] == 1 for key in KEYS))
        false_positives = sum(self.conn.execute(probe, (users, key)).fetchone()[0] for key in ABSENT)
        # 1 % of 10,000 is 100, give or take 10 (one standard deviation).
        self.assertTrue(50 < false_positives < 150, f"{false_positives} false positives")

    def test_load_turns_extension_loading_off_again(self):
        sqlite_bloom.load(self.conn)
        with self.assertRaisesRegex(sqlite3.OperationalError, "not authorized"):
            self.conn.execute("SELECT load_extension(?)", (sqlite_bloom.loadable_path(),))


class RecordingConnection:
    """A connection of another kind (apsw's, say): records what load() asks of it."""

    def __init__(self, failure=None):
        self.calls = []
        self.failure = failure

    def enable_load_extension(self, enabled):
        self.calls.append(("enable_load_extension", enabled))

    def load_extension(self, path):
        self.calls.append(("load_extension", path))
        if self.failure:
            raise self.failure


class LoadIntoOtherConnections(unittest.TestCase):
    def test_any_connection_with_the_two_methods(self):
        conn = RecordingConnection()
        sqlite_bloom.load(conn)
        self.assertEqual(conn.calls, [("enable_load_extension", True),
                                      ("load_extension", sqlite_bloom.loadable_path()),
                                      ("enable_load_extension", False)])

    def test_a_failed_load_raises_and_still_turns_loading_off(self):
        conn = RecordingConnection(failure=RuntimeError("no such file"))
        with self.assertRaisesRegex(RuntimeError, "no such file"):
            sqlite_bloom.load(conn)
        self.assertEqual(conn.calls[-1], ("enable_load_extension", False))


class ConnectionWithoutExtensions:
    """A sqlite3.Connection of a Python built without loadable extensions (pyenv's default):
    it has execute, but neither enable_load_extension nor load_extension."""

    def execute(self, sql, parameters=()):
        raise AssertionError("load() must not run SQL")


class CannotLoadExtensions(unittest.TestCase):
    def test_says_why_and_what_to_use_instead(self):
        with self.assertRaises(sqlite_bloom.ExtensionLoadingUnavailable) as caught:
            sqlite_bloom.load(ConnectionWithoutExtensions())
        message = str(caught.exception)
        for phrase in ("ConnectionWithoutExtensions", "cannot load SQLite extensions",
                       "no enable_load_extension method", "--enable-loadable-sqlite-extensions",
                       "pyenv", "/usr/bin/python3", "apsw", "sqlean.py",
                       sqlite_bloom.loadable_path()):
            self.assertIn(phrase, message)

    def test_is_a_runtime_error(self):
        self.assertTrue(issubclass(sqlite_bloom.ExtensionLoadingUnavailable, RuntimeError))


class ReadmeExamples(unittest.TestCase):
    """Each ```python package block of the README prints what its `print(...)  # VALUE` lines
    state, as the runner of the README's other Python examples checks them."""

    BLOCK = re.compile(r"^```python package\n(.*?)^```", re.MULTILINE | re.DOTALL)
    STATED = re.compile(r"^\s*print\(.*\)\s+#\s*(.*?)\s*$")

    def test_examples_print_what_they_state(self):
        with open(os.environ["BLOOM_README"], encoding="utf-8") as readme:
            blocks = self.BLOCK.findall(readme.read())
        self.assertTrue(blocks, "no ```python package block in the README")
        for code in blocks:
            stated = [m.group(1) for m in map(self.STATED.match, code.splitlines()) if m]
            self.assertTrue(stated, f"a block states no printed value:\n{code}")
            printed = io.StringIO()
            with contextlib.redirect_stdout(printed):
                exec(compile(code, "README.md", "exec"), {})
            self.assertEqual(printed.getvalue().splitlines(), stated)


if __name__ == "__main__":
    unittest.main()
