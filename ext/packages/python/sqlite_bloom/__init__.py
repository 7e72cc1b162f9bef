"""sqlite-bloom for Python: the extension (bloom.so, bloom.dll on Windows), and load(conn) to load it.

    import sqlite3
    import sqlite_bloom

    conn = sqlite3.connect(":memory:")
    sqlite_bloom.load(conn)
    conn.execute("SELECT bloom_version()").fetchone()  # (sqlite_bloom.__version__,)
"""
import os
import sysconfig

from ._platform import LIBRARY, PLATFORM
from ._version import __version__

__all__ = ["ExtensionLoadingUnavailable", "PlatformUnsupported", "load", "loadable_path",
           "__version__"]


class ExtensionLoadingUnavailable(RuntimeError):
    """The connection cannot load SQLite extensions at all, whatever the extension."""


class PlatformUnsupported(RuntimeError):
    """This package's extension is built for another platform than the machine's."""


def loadable_path():
    """The absolute path of the extension inside this package (bloom.so, or bloom.dll on Windows).

    Raises PlatformUnsupported when it is built for another platform than this machine's.
    """
    machine = _machine_platform()
    if machine != PLATFORM:
        raise PlatformUnsupported(
            f"sqlite_bloom: this package's {LIBRARY} is built for {PLATFORM}, and this machine is "
            f"{machine}. Install the wheel tagged {machine} (a release has linux_x86_64, "
            "linux_aarch64 and win_amd64), or build the extension from source for this machine "
            "and load it by its path (docs/install.md of sqlite-bloom)")
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY)


def _machine_platform():
    """This machine's platform as a wheel's tag names it: linux_x86_64, win_amd64."""
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def load(conn):
    """Loads sqlite-bloom into conn, then turns extension loading off on conn again.

    conn is a sqlite3.Connection, or any connection with enable_load_extension(bool) and
    load_extension(path) (apsw.Connection has both). Raises PlatformUnsupported on a machine the
    package's extension is not built for, and ExtensionLoadingUnavailable when conn has no
    enable_load_extension, as in a Python built without loadable extensions; an
    error of the loading itself (a SQLite too old, say) is conn's own, sqlite3.OperationalError.
    """
    path = loadable_path()
    enable = getattr(conn, "enable_load_extension", None)
    load_extension = getattr(conn, "load_extension", None)
    if not callable(enable) or not callable(load_extension):
        raise ExtensionLoadingUnavailable(_cannot_load_message(conn, path))
    enable(True)
    try:
        load_extension(path)
    finally:
        enable(False)


def _cannot_load_message(conn, path):
    """What went wrong, and what to use instead, for a conn that cannot load extensions."""
    kind = type(conn)
    return (
        f"sqlite_bloom.load: this connection ({kind.__module__}.{kind.__qualname__}) cannot load "
        "SQLite extensions: it has no enable_load_extension method. Python's sqlite3 module has "
        "none when Python was built without --enable-loadable-sqlite-extensions, as pyenv builds "
        "it unless asked. Use instead a Python whose sqlite3 can load extensions: Debian's or "
        "Ubuntu's /usr/bin/python3, or a pyenv Python rebuilt with "
        "PYTHON_CONFIGURE_OPTS=--enable-loadable-sqlite-extensions; or open the database with "
        "the apsw package (apsw.Connection) or sqlean.py (sqlean.connect), whose connections can "
        f"load extensions, and pass that connection to load(). The extension is {path}"
    )
