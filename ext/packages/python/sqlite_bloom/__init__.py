"""sqlite-bloom for Python: the extension's bloom.so, and load(conn) to load it.

    import sqlite3
    import sqlite_bloom

    conn = sqlite3.connect(":memory:")
    sqlite_bloom.load(conn)
    conn.execute("SELECT bloom_version()").fetchone()  # (sqlite_bloom.__version__,)
"""
import os

from ._version import __version__

__all__ = ["ExtensionLoadingUnavailable", "load", "loadable_path", "__version__"]


class ExtensionLoadingUnavailable(RuntimeError):
    """The connection cannot load SQLite extensions at all, whatever the extension."""


def loadable_path():
    """The absolute path of the extension, bloom.so, inside this package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "bloom.so")


def load(conn):
    """Loads sqlite-bloom into conn, then turns extension loading off on conn again.

    conn is a sqlite3.Connection, or any connection with enable_load_extension(bool) and
    load_extension(path) (apsw.Connection has both). Raises ExtensionLoadingUnavailable when
    conn has no enable_load_extension, as in a Python built without loadable extensions; an
    error of the loading itself (a SQLite too old, say) is conn's own, sqlite3.OperationalError.
    """
    enable = getattr(conn, "enable_load_extension", None)
    load_extension = getattr(conn, "load_extension", None)
    if not callable(enable) or not callable(load_extension):
        raise ExtensionLoadingUnavailable(_cannot_load_message(conn))
    enable(True)
    try:
        load_extension(loadable_path())
    finally:
        enable(False)


def _cannot_load_message(conn):
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
        f"load extensions, and pass that connection to load(). The extension is {loadable_path()}"
    )
